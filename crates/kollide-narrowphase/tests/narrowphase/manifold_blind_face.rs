//! A manifold is never shallower than the pair's true separation, even when the reference face
//! kept by the bias cannot see the overlap.
//!
//! When two face axes are nearly tied, `manifold2` keeps A's face as the reference (the bias
//! that keeps stacks from flipping between frames). A capsule's side is blind beyond its ends:
//! a capsule lying almost flat on a box, its rounded end dipping into the box's face, got the
//! point where the box's edge crosses the capsule's end plane, shallower than the dip. The
//! oracle here is exact for (rounded) polygons: the cores' SAT over every edge normal when they
//! overlap, the least vertex–edge distance when they are apart, minus the radii. The manifold's
//! deepest contact must lie between that and the bias below it. The test counts the cases whose
//! two face axes are tied within the bias and whose A face is the worse one, where the blind
//! face was kept before. A second test lifts the same pairs just apart, half of them past B's
//! corner, and holds the speculative contacts to the distance the same way.

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Vec2};
use kollide_narrowphase::manifold2;
use kollide_shapes::{Capsule, Cuboid, Rounded, Shape2, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The signed distance of two convex polygons' cores (counter-clockwise vertices, or a segment's
/// two ends), in `f64`: positive when apart.
fn core_distance(a: &[Point2<f64>], b: &[Point2<f64>]) -> f64 {
    let normals = |p: &[Point2<f64>]| -> Vec<(Vec2<f64>, Point2<f64>)> {
        (0..p.len())
            .map(|i| {
                let e = p[(i + 1) % p.len()] - p[i];
                (Vec2::new(e.y, -e.x).normalize(), p[i])
            })
            .collect()
    };
    let sep = |p: &[Point2<f64>], q: &[Point2<f64>]| {
        normals(p)
            .into_iter()
            .map(|(n, v)| q.iter().map(|w| n.dot(&(w - v))).fold(f64::MAX, f64::min))
            .fold(f64::MIN, f64::max)
    };
    let sat = sep(a, b).max(sep(b, a));
    if sat <= 0.0 {
        return sat;
    }
    let to_edges = |p: &Point2<f64>, q: &[Point2<f64>]| {
        (0..q.len())
            .map(|i| {
                let (s, e) = (q[i], q[(i + 1) % q.len()]);
                let t = ((p - s).dot(&(e - s)) / (e - s).norm_squared()).clamp(0.0, 1.0);
                (p - (s + (e - s) * t)).norm()
            })
            .fold(f64::MAX, f64::min)
    };
    let one_way = |p: &[Point2<f64>], q: &[Point2<f64>]| {
        p.iter().map(|v| to_edges(v, q)).fold(f64::MAX, f64::min)
    };
    one_way(a, b).min(one_way(b, a))
}

/// The SAT separation of `q` over the edge normals of `p` (cores, no radii).
fn face_separation(p: &[Point2<f64>], q: &[Point2<f64>]) -> f64 {
    (0..p.len())
        .map(|i| {
            let e = p[(i + 1) % p.len()] - p[i];
            let n = Vec2::new(e.y, -e.x).normalize();
            q.iter().map(|w| n.dot(&(w - p[i]))).fold(f64::MAX, f64::min)
        })
        .fold(f64::MIN, f64::max)
}

/// A capsule or rounded box (A), lying almost flat on a box, a rounded box or a triangle (B)
/// and sunk into it by a small fraction of its radius, the whole pair at a random pose.
/// Returns the shapes, their poses and their cores in the world.
#[allow(clippy::type_complexity)]
fn case(
    rng: &mut ChaCha8Rng,
    dips: (f64, f64),
    overhang: bool,
) -> (Shape2<f64>, Iso2<f64>, Shape2<f64>, Iso2<f64>, Vec<Point2<f64>>, Vec<Point2<f64>>) {
    let hb = Vec2::new(rng.random_range(0.2..2.0), rng.random_range(0.1..1.0));
    let rb = if rng.random_bool(0.3) { rng.random_range(0.01..0.2) } else { 0.0 };
    let (b, core_b): (Shape2<f64>, Vec<Point2<f64>>) = if rng.random_bool(0.25) {
        // A triangle whose top edge is the box's top face.
        let pts = [Point2::new(-hb.x, hb.y), Point2::new(0.0, -hb.y), Point2::new(hb.x, hb.y)];
        let t = kollide_shapes::Triangle::new(pts[0], pts[1], pts[2]).unwrap();
        (t.into(), vec![pts[0], pts[1], pts[2]])
    } else {
        let c = Cuboid::new(hb).unwrap();
        let v = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        let core = v.iter().map(|&(x, y)| Point2::new(x * hb.x, y * hb.y)).collect();
        let shape = if rb > 0.0 { Rounded::new(c, rb).unwrap().into() } else { c.into() };
        (shape, core)
    };
    let rb = b.radius();
    let half = hb.x * rng.random_range(0.2..1.2);
    let ra = rng.random_range(0.02..0.5);
    let (a, core_a): (Shape2<f64>, Vec<Point2<f64>>) = if rng.random_bool(0.6) {
        let (e0, e1) = (Point2::new(-half, 0.0), Point2::new(half, 0.0));
        (Capsule::new(e0, e1, ra).unwrap().into(), vec![e0, e1])
    } else {
        let h = Vec2::new(half, rng.random_range(0.02..0.3));
        let v = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        let core = v.iter().map(|&(x, y)| Point2::new(x * h.x, y * h.y)).collect();
        (Rounded::new(Cuboid::new(h).unwrap(), ra).unwrap().into(), core)
    };
    let half_height = core_a.iter().map(|p| p.y).fold(f64::MIN, f64::max);
    // Tilted by less than a hundredth of a radian: the capsule's side and the box's face are
    // tied within the bias.
    let tilt: f64 = rng.random_range(-0.01..0.01);
    let x = if overhang {
        let s = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        s * (hb.x + half * rng.random_range(-0.3..0.3))
    } else {
        rng.random_range(-1.0..1.0) * (hb.x - half).abs().max(0.1 * hb.x)
    };
    let lift = half * tilt.abs() + half_height + ra + rb;
    let dip = ra * rng.random_range(dips.0..dips.1);
    let local_a = Iso2::new(Vec2::new(x, hb.y + lift + dip), tilt);
    let world = Iso2::new(
        Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0)),
        rng.random_range(-3.2..3.2),
    );
    let (pos_a, pos_b) = (world * local_a, world);
    let to_world = |pose: &Iso2<f64>, core: &[Point2<f64>]| core.iter().map(|p| pose * p).collect();
    (a, pos_a, b, pos_b, to_world(&pos_a, &core_a), to_world(&pos_b, &core_b))
}

/// The larger size of every generated pair, bounding the bias: 1e-4 of it (a core vertex's
/// distance from its centre, plus the radius; here at most 2.3 + 0.7).
const SIZE: f64 = 3.0;

/// The manifold's deepest contact is no shallower than `exact`, the true separation, nor deeper
/// by more than the bias (an empty manifold is as shallow as can be).
fn assert_deepest(m: &Manifold<f64, 2>, exact: f64, pair: impl FnOnce() -> String) {
    let deepest = m.contacts().iter().map(|c| c.separation).fold(f64::MAX, f64::min);
    let tol = 1e-9 * SIZE;
    assert!(
        deepest <= exact + tol && deepest >= exact - 1e-4 * SIZE - tol,
        "deepest contact {deepest:e}, exact {exact:e}: {}",
        pair()
    );
}

#[test]
fn a_rounded_end_dipping_into_a_face_is_as_deep_as_it_is() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb11d);
    let (mut checked, mut blind_kept) = (0, 0);
    for _ in 0..20_000 {
        let (a, pos_a, b, pos_b, core_a, core_b) = case(&mut rng, (-0.02, 0.002), false);
        let radius = a.radius() + b.radius();
        let exact = core_distance(&core_a, &core_b) - radius;
        let m = manifold2::<f64, ()>(&pos_a, &a, &pos_b, &b, 0.0);
        if exact > 0.0 {
            assert!(m.is_empty() || m.contacts().iter().all(|c| c.separation <= 1e-12));
            continue;
        }
        assert_deepest(&m, exact, || format!("{a:?} at {pos_a:?}, {b:?} at {pos_b:?}"));
        let (sep_a, sep_b) = (face_separation(&core_a, &core_b), face_separation(&core_b, &core_a));
        blind_kept += usize::from(sep_b > sep_a && sep_b - sep_a < 1e-4 * SIZE * 0.1);
        checked += 1;
    }
    assert!(checked > 5_000 && blind_kept > 500, "{checked} overlapping, {blind_kept} tied");
}

/// Speculative contacts of the same pairs lifted off (and past B's corner, where the closest
/// features may be two ends): the deepest contact within the margin is no shallower than the
/// distance, nor deeper by more than the bias.
#[test]
fn rounded_shapes_just_apart_get_their_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb11e);
    let mut checked = 0;
    for k in 0..20_000 {
        let (a, pos_a, b, pos_b, core_a, core_b) = case(&mut rng, (0.0, 0.05), k % 2 == 0);
        let radius = a.radius() + b.radius();
        let exact = core_distance(&core_a, &core_b) - radius;
        let margin = 0.1 * a.radius();
        let m = manifold2::<f64, ()>(&pos_a, &a, &pos_b, &b, margin);
        if exact <= 0.0 || exact >= margin {
            continue;
        }
        assert_deepest(&m, exact, || format!("{a:?} at {pos_a:?}, {b:?} at {pos_b:?}"));
        checked += 1;
    }
    assert!(checked > 5_000, "{checked} checked");
}
