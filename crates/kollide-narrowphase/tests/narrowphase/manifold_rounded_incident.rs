//! Manifold points of a rounded incident feature lie on its surface.
//!
//! A capsule longer than the box it lies across, tilted, is cut by the box face's side planes.
//! The cut points are inside the capsule's core segment, and the capsule's surface lies
//! `r / cos θ` below them along the normal, not `r`: placing them a radius below (as Box2D does)
//! puts the point inside the capsule and reports a shallower gap than the surfaces have there.
//! Each test checks both points of every contact against the exact surfaces and the identity
//! `point_b − point_a = separation · normal`, and counts the cut points it checked, so it cannot
//! pass without exercising them.

use kollide_manifold::Contact;
use kollide_math::{Iso2, Iso3, Point, Point2, Point3, Vec2, Vec3, Vector};
use kollide_narrowphase::{manifold2, manifold3};
use kollide_shapes::{Capsule, Cuboid, Rounded, Shape2, Shape3, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const TOL: f64 = 1e-9;

/// The distance from `p` to the segment `a b`, and the segment parameter of its closest point.
fn to_segment<const D: usize>(
    p: &Point<f64, D>,
    a: &Point<f64, D>,
    b: &Point<f64, D>,
) -> (f64, f64) {
    let e = b - a;
    let t = ((p - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
    ((p - (a + e * t)).norm(), t)
}

/// The signed distance from the local point `p` to the box of half extents `h`.
fn box_sdf<const D: usize>(h: &[f64; D], p: &[f64; D]) -> f64 {
    let q: Vec<f64> = (0..D).map(|i| p[i].abs() - h[i]).collect();
    let outside = q.iter().map(|x| x.max(0.0).powi(2)).sum::<f64>().sqrt();
    outside + q.iter().copied().fold(f64::MIN, f64::max).min(0.0)
}

/// Checks one contact: the identity, `point_a` on the box (`off_a`, its signed distance) and
/// `point_b` (`lb`, in the capsule's frame) on the capsule of axis `ends` and radius `r`. Returns
/// the axis parameter of `point_b`'s closest core point (inside `(0, 1)` for a cut point).
fn check_contact<const D: usize>(
    c: &Contact<f64, D>,
    normal: &Vector<f64, D>,
    off_a: f64,
    lb: &Point<f64, D>,
    ends: [Point<f64, D>; 2],
    r: f64,
) -> f64 {
    let id = (c.point_b - c.point_a - normal * c.separation).norm();
    assert!(id <= TOL, "identity off by {id:e}");
    let (d, t) = to_segment(lb, &ends[0], &ends[1]);
    let off_b = d - r;
    assert!(off_a.abs() <= TOL && off_b.abs() <= TOL, "off by {off_a:e}, {off_b:e}");
    t
}

#[test]
fn a_tilted_capsule_across_a_box_2d() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x51ab);
    let (mut checked, mut cut) = (0, 0);
    for _ in 0..2000 {
        let h = [rng.random_range(0.2..2.0), rng.random_range(0.2..2.0)];
        let half = h[0] * rng.random_range(1.2..3.0);
        let r = rng.random_range(0.02..1.0);
        let tilt: f64 = rng.random_range(-0.7..0.7);
        let sx = tilt.sin();
        // Tilted by `tilt`, centred over the top face and sunk into it by up to the radius.
        let dip = half * sx.abs() + r * rng.random_range(-0.9..0.3);
        let pos_b = Iso2::new(Vec2::new(rng.random_range(-0.3..0.3) * h[0], h[1] + dip), tilt);
        let rounded = rng.random_bool(0.3);
        let a: Shape2<f64> = if rounded {
            let rr = rng.random_range(0.01..0.2);
            Rounded::new(Cuboid::new(Vec2::new(h[0], h[1])).unwrap(), rr).unwrap().into()
        } else {
            Cuboid::new(Vec2::new(h[0], h[1])).unwrap().into()
        };
        let rr = a.radius();
        let (ea, eb) = (Point2::new(-half, 0.0), Point2::new(half, 0.0));
        let b: Shape2<f64> = Capsule::new(ea, eb, r).unwrap().into();
        let m = manifold2::<f64, ()>(&Iso2::identity(), &a, &pos_b, &b, 0.0);
        for c in m.contacts() {
            let la = c.point_a;
            let off_a = box_sdf(&h, &[la.x, la.y]) - rr;
            let lb = pos_b.inverse_transform_point(&c.point_b);
            let t = check_contact(c, &m.normal, off_a, &lb, [ea, eb], r);
            checked += 1;
            cut += usize::from(t > 1e-3 && t < 1.0 - 1e-3 && tilt.abs() > 0.05);
        }
    }
    assert!(checked > 2000 && cut > 500, "{checked} points checked, {cut} cut");
}

#[test]
fn a_tilted_capsule_across_a_box_3d() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x51ac);
    let (mut checked, mut cut) = (0, 0);
    for _ in 0..2000 {
        let h =
            [rng.random_range(0.2..2.0), rng.random_range(0.2..2.0), rng.random_range(0.2..2.0)];
        let half = h[0] * rng.random_range(1.2..3.0);
        let r = rng.random_range(0.02..1.0);
        let tilt: f64 = rng.random_range(-0.7..0.7);
        let yaw = rng.random_range(-0.3..0.3);
        let dip = half * tilt.sin().abs() + r * rng.random_range(-0.9..0.3);
        let pos_b = Iso3::new(
            Vec3::new(rng.random_range(-0.3..0.3) * h[0], h[1] + dip, 0.0),
            Vec3::new(0.0, yaw, tilt),
        );
        let a: Shape3<f64> = Cuboid::new(Vec3::new(h[0], h[1], h[2])).unwrap().into();
        let (ea, eb) = (Point3::new(-half, 0.0, 0.0), Point3::new(half, 0.0, 0.0));
        let b: Shape3<f64> = Capsule::new(ea, eb, r).unwrap().into();
        let m = manifold3::<f64, ()>(&Iso3::identity(), &a, &pos_b, &b, 0.0);
        for c in m.contacts() {
            let la = c.point_a;
            let off_a = box_sdf(&h, &[la.x, la.y, la.z]);
            let lb = pos_b.inverse_transform_point(&c.point_b);
            let t = check_contact(c, &m.normal, off_a, &lb, [ea, eb], r);
            checked += 1;
            cut += usize::from(t > 1e-3 && t < 1.0 - 1e-3 && tilt.abs() > 0.05);
        }
    }
    assert!(checked > 2000 && cut > 500, "{checked} points checked, {cut} cut");
}
