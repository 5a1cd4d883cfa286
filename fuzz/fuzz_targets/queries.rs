//! Every pair query on two 3D shapes built from raw numbers at poses built from raw numbers:
//! no panic, and no NaN in any answer for accepted shapes and finite poses.
#![no_main]

use kollide::narrowphase::directional_penetration;
use kollide::prelude::*;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use common::Bytes;

fn shape(b: &mut Bytes<'_>) -> Option<Shape3<f64>> {
    let kind = b.byte() % 8;
    let mut n = || b.num(10.0);
    let mut p3 = || Point3::new(n(), n(), n());
    match kind {
        0 => Ball::new(p3().x.abs()).ok().map(Shape3::Ball),
        1 => Segment::new(p3(), p3()).ok().map(Shape3::Segment),
        2 => {
            let (a, c, r) = (p3(), p3(), p3().x.abs());
            Capsule::new(a, c, r).ok().map(Shape3::Capsule)
        }
        3 => Cuboid::new(p3().coords.abs()).ok().map(Shape3::Cuboid),
        4 => Triangle::new(p3(), p3(), p3()).ok().map(Shape3::Triangle),
        5 => {
            let pts: Vec<Point3<f64>> = (0..8).map(|_| p3()).collect();
            ConvexPolyhedron::from_points(&pts).ok().map(Shape3::Polyhedron)
        }
        6 => {
            let q = p3();
            Cylinder::new(q.x.abs(), q.y.abs()).ok().map(Shape3::Cylinder)
        }
        _ => {
            let q = p3();
            Cone::new(q.x.abs(), q.y.abs()).ok().map(Shape3::Cone)
        }
    }
}

fn pose(b: &mut Bytes<'_>) -> Iso3<f64> {
    let mut n = || b.num(20.0);
    Iso3::new(Vec3::new(n(), n(), n()), Vec3::new(n(), n(), n()))
}

fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let (Some(sa), Some(sb)) = (shape(&mut b), shape(&mut b)) else { return };
    let (pa, pb) = (pose(&mut b), pose(&mut b));
    if !pa.is_finite() || !pb.is_finite() {
        return;
    }
    let s = QuerySettings::default();
    let _ = intersection_test(&pa, &sa, &pb, &sb, None, &s);
    if let Some(c) = contact(&pa, &sa, &pb, &sb, 0.0, &s) {
        assert!(
            finite(&[c.separation])
                && finite(c.normal.as_slice())
                && finite(c.point_a.coords.as_slice()),
            "{c:?}"
        );
    }
    let c = closest_points(&pa, &sa, &pb, &sb, &s);
    assert!(finite(c.normal.as_slice()) && finite(c.point_b.coords.as_slice()), "{c:?}");
    let (d, _) = distance(&pa, &sa, &pb, &sb, &s);
    assert!(d.is_finite(), "distance {d}");
    let m = manifold3::<f64, ()>(&pa, &sa, &pb, &sb, 0.0);
    for k in m.contacts() {
        assert!(k.separation.is_finite() && finite(k.point_a.coords.as_slice()), "{m:?}");
    }
    let v = Vec3::new(b.num(10.0), b.num(10.0), b.num(10.0));
    if finite(v.as_slice()) {
        if let Some(h) = shape_cast(&pa, &Vec3::zeros(), &sa, &pb, &v, &sb, 1.0, &s) {
            assert!(h.t.is_finite() && finite(h.normal.as_slice()), "{h:?}");
        }
        if let Some(h) = directional_penetration(&pa, &sa, &pb, &sb, &v, &s) {
            assert!(h.t.is_finite() && finite(h.normal.as_slice()), "{h:?}");
        }
        let ray = Ray { origin: Point3::from(pb.translation.vector), dir: v };
        if let Some(h) = ray_cast(&pa, &sa, &ray, 10.0, &s) {
            assert!(h.t.is_finite() && finite(h.point_a.coords.as_slice()), "{h:?}");
        }
    }
});
