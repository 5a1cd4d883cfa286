//! Shape construction from raw numbers: every constructor either refuses the input with an
//! error or returns a shape whose support points and mass properties are finite.
#![no_main]

use kollide::prelude::*;
use kollide::shapes::{HasMass2, HasMass3};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use common::Bytes;

fn check3<N: Scalar, S: SupportMap<N, 3>>(s: &S) {
    for d in [Vec3::x(), Vec3::y(), Vec3::z(), Vec3::new(N::one(), -N::one(), N::one())] {
        let p = s.local_support_point(&d);
        assert!(p.iter().all(|x| x.is_finite_value()), "support {p:?} of an accepted shape");
    }
}

fn shapes<N: Scalar>(b: &mut Bytes<'_>) {
    let mut n = || N::lit(b.num(1e3));
    let p3 = |n: &mut dyn FnMut() -> N| Point3::new(n(), n(), n());
    let which = n().to_f64().abs() as u64 % 9;
    let s: Option<Shape3<N>> = match which {
        0 => Ball::new(n()).ok().map(Shape3::Ball),
        1 => Segment::new(p3(&mut n), p3(&mut n)).ok().map(Shape3::Segment),
        2 => Capsule::new(p3(&mut n), p3(&mut n), n()).ok().map(Shape3::Capsule),
        3 => Cuboid::new(Vec3::new(n(), n(), n())).ok().map(Shape3::Cuboid),
        4 => Triangle::new(p3(&mut n), p3(&mut n), p3(&mut n)).ok().map(Shape3::Triangle),
        5 => {
            let k = 4 + (n().to_f64().abs() as usize % 12);
            let pts: Vec<Point3<N>> = (0..k).map(|_| p3(&mut n)).collect();
            ConvexPolyhedron::from_points(&pts).ok().map(Shape3::Polyhedron)
        }
        6 => Cylinder::new(n(), n()).ok().map(Shape3::Cylinder),
        7 => Cone::new(n(), n()).ok().map(Shape3::Cone),
        _ => {
            let k = 3 + (n().to_f64().abs() as usize % 12);
            let pts: Vec<Point2<N>> = (0..k).map(|_| Point2::new(n(), n())).collect();
            if let Ok(p) = ConvexPolygon::from_hull(&pts) {
                if let Ok(m) = p.mass_properties(N::one()) {
                    assert!(m.mass.is_finite_value() && m.inertia.is_finite_value(), "{m:?}");
                }
            }
            None
        }
    };
    if let Some(s) = s {
        check3(&s);
        if let Ok(m) = s.mass_properties(N::one()) {
            assert!(m.mass.is_finite_value(), "mass {m:?} of an accepted shape");
            assert!(
                m.inertia.iter().all(|x| x.is_finite_value()),
                "inertia {m:?} of an accepted shape"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    shapes::<f32>(&mut b);
    shapes::<f64>(&mut b);
});
