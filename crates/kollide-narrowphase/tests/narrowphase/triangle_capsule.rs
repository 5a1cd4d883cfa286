//! The triangle–capsule manifold ([`contact_triangle_capsule`]: closest points, SAT when the core
//! crosses, clipping) against oracles computed other ways, on seeded random poses and on hostile
//! ones.
//!
//! * **Brute force:** the capsule's separation is the distance of its core from the triangle
//!   less its radius, the distance the smallest over the core against each edge and each end
//!   against the triangle (the `common::distance` oracles, written independently of kollide's),
//!   zero when the core crosses the triangle; then the depth is the largest separation of the
//!   core over the four axes (the face normal and each edge crossed with the core), written with
//!   world vectors and no bias, plus the radius.
//! * **GJK/EPA** ([`contact`]): the exact signed distance by another algorithm.
//! * **Properties:** `point_b − point_a = separation · normal`; points on their shapes; moving
//!   the capsule out along the normal by the depth leaves the shapes just touching; the swapped
//!   pair gives the flipped manifold.
//! * **The path ran:** the dispatcher's answer (either order, and a mesh's triangle piece) is
//!   this routine's bit for bit, and differs from the general routine's, which is what the
//!   routine falls back to, so removing the dispatch or always falling back fails the tests.

use kollide_manifold::Manifold;
use kollide_math::{Iso3, Point3, Vec3};
use kollide_narrowphase::composite::Piece3;
use kollide_narrowphase::manifold::{contact_convex, contact_triangle_capsule};
use kollide_narrowphase::{QuerySettings, contact, manifold3};
use kollide_shapes::{Capsule, FeatureId, Shape3, Triangle};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::common::{
    point_segment, point_triangle, random_unit3 as unit, rng, segment_segment, sliver_of,
};

/// One posed pair: the triangle at `pa`, the capsule at `pb`, and a margin.
#[derive(Clone, Copy, Debug)]
struct Case {
    pa: Iso3<f64>,
    tri: Triangle<f64, 3>,
    pb: Iso3<f64>,
    cap: Capsule<f64, 3>,
    margin: f64,
}

impl Case {
    fn world_triangle(&self) -> [Point3<f64>; 3] {
        self.tri.vertices().map(|p| self.pa * p)
    }

    fn world_core(&self) -> [Point3<f64>; 2] {
        let s = self.cap.segment();
        [self.pb * s.a(), self.pb * s.b()]
    }

    fn longest_edge(&self) -> f64 {
        let t = self.tri.vertices();
        (0..3).map(|k| (t[(k + 1) % 3] - t[k]).norm()).fold(0.0, f64::max)
    }

    fn capsule_size(&self) -> f64 {
        0.5 * self.cap.segment_length() + self.cap.radius()
    }

    /// The length scale of the pair: the larger shape's size.
    fn scale(&self) -> f64 {
        self.longest_edge().max(self.capsule_size())
    }

    /// The bias tolerance of the routine: 1e-4 of the smaller shape's size, within [1e-3, 1e3].
    fn bias(&self) -> f64 {
        1e-4 * (0.5 * self.longest_edge()).min(self.capsule_size()).clamp(1e-3, 1e3)
    }
}

/// The brute-force separation of the pair (see the module docs), and whether the core crosses
/// (or touches) the triangle.
fn brute(c: &Case) -> (f64, bool) {
    let [a, b, t] = c.world_triangle();
    let [q0, q1] = c.world_core();
    let n = (b - a).cross(&(t - a)).normalize();
    let (h0, h1) = (n.dot(&(q0 - a)), n.dot(&(q1 - a)));
    let mut dist = point_triangle(&q0, &a, &b, &t).min(point_triangle(&q1, &a, &b, &t));
    for (p, q) in [(a, b), (b, t), (t, a)] {
        dist = dist.min(segment_segment(&p, &q, &q0, &q1));
    }
    if h0 * h1 < 0.0 {
        let x = q0 + (q1 - q0) * (h0 / (h0 - h1));
        dist = dist.min(point_triangle(&x, &a, &b, &t));
    }
    // Rounding of world coordinates far from the origin is not a crossing.
    if dist > 1e-10 * (c.scale() + c.pb.translation.vector.norm()) {
        return (dist - c.cap.radius(), false);
    }
    let u = q1 - q0;
    let mut axes = vec![n];
    for (p, q) in [(a, b), (b, t), (t, a)] {
        let l = (q - p).cross(&u);
        if l.norm() > 1e-9 * (q - p).norm() * u.norm() {
            axes.push(l.normalize());
        }
    }
    let core = axes
        .iter()
        .map(|l| {
            let tp = [a, b, t].map(|p| l.dot(&p.coords));
            let (tlo, thi) = (tp[0].min(tp[1]).min(tp[2]), tp[0].max(tp[1]).max(tp[2]));
            let (c0, c1) = (l.dot(&q0.coords), l.dot(&q1.coords));
            (c0.min(c1) - thi).max(tlo - c0.max(c1))
        })
        .fold(f64::MIN, f64::max);
    (core - c.cap.radius(), true)
}

/// The exact signed distance by GJK/EPA, `None` beyond `limit`.
fn exact(c: &Case, limit: f64) -> Option<f64> {
    let s = QuerySettings::default();
    contact(&c.pa, &c.tri, &c.pb, &c.cap, limit, &s).map(|k| k.separation)
}

fn manifold(c: &Case) -> Manifold<f64, 3> {
    contact_triangle_capsule(&c.pa, &c.tri, &c.pb, &c.cap, c.margin)
}

/// Checks one case against the oracles; returns whether the manifold is empty, and whether the
/// core crossed the triangle.
fn check(c: &Case) -> (bool, bool) {
    let m = manifold(c);
    let scale = c.scale();
    let eps = 1e-9 * (scale + c.pb.translation.vector.norm());
    let bias = c.bias();
    let ctx = || format!("{c:?}\n{m:?}");
    let (sep, crossing) = brute(c);
    if let Some(d) = exact(c, c.margin + 1.0) {
        assert!((d - sep).abs() <= 1e-6 * scale, "GJK/EPA {d}, brute {sep}: {}", ctx());
    }
    if sep <= c.margin - eps {
        assert!(!m.is_empty(), "empty, separation {sep}: {}", ctx());
    } else if sep > c.margin + eps {
        assert!(m.is_empty(), "separation {sep}: {}", ctx());
    }
    if m.is_empty() {
        return (true, crossing);
    }
    assert!(m.len() <= 4, "{}", ctx());
    let [q0, q1] = c.world_core();
    let [a, b, t] = c.world_triangle();
    let deepest = m.min_separation().unwrap();
    for k in m.contacts() {
        let d = k.point_b - k.point_a - m.normal * k.separation;
        assert!(d.norm() <= 1e-7 * scale, "identity off by {}: {}", d.norm(), ctx());
        // The ends of the overlap of a core along an edge share their sideways offset: a
        // fiftieth of the pair's depth at most.
        let allowed = 2.0 * bias + 0.02 * deepest.abs() + eps;
        let off_tri = point_triangle(&k.point_a, &a, &b, &t);
        assert!(off_tri <= allowed, "point_a {off_tri} off the triangle: {}", ctx());
        let off_cap = (point_segment(&k.point_b, &q0, &q1) - c.cap.radius()).abs();
        assert!(off_cap <= allowed, "point_b {off_cap} off the capsule: {}", ctx());
        assert!(k.separation <= c.margin + eps, "{}", ctx());
    }
    assert!(deepest <= sep + 1e-7 * scale, "shallower than {sep}: {}", ctx());
    assert!(deepest >= sep - bias - 1e-7 * scale, "deeper than {sep}: {}", ctx());
    if sep < 0.0 {
        // Moving the capsule out along the normal by the depth leaves the shapes just touching
        // (overlapping by up to the bias on a face normal kept by it).
        let to = c.pb.translation.vector - m.normal * deepest;
        let moved = Case { pb: Iso3::from_parts(to.into(), c.pb.rotation), ..*c };
        let after = brute(&moved).0;
        assert!(
            after >= -bias - 1e-7 * scale && after <= bias + 1e-7 * scale,
            "after the move {after}: {}",
            ctx()
        );
    }
    // The swapped pair gives the flipped manifold.
    let (ta, tb): (Shape3<f64>, Shape3<f64>) = (c.tri.into(), c.cap.into());
    let ba: Manifold<f64, 3> = manifold3(&c.pb, &tb, &c.pa, &ta, c.margin);
    assert_eq!(format!("{ba:?}"), format!("{:?}", m.flipped()));
    (false, crossing)
}

/// A random triangle (corners within `size` of its centroid), a random capsule (core from a
/// hundredth of the triangle's size to twice it), posed anywhere from apart to crossing; a third
/// of them lying nearly flat just above or below the face, as on the ground.
fn random_case(r: &mut ChaCha8Rng) -> Case {
    let size = [0.3, 1.0, 3.0, 6.0][r.random_range(0..4)];
    let tri = loop {
        let mut p = || Point3::from(unit(&mut *r) * r.random_range(0.2..1.0) * size);
        if let Ok(t) = Triangle::new(p(), p(), p()) {
            break t;
        }
    };
    let half = size * r.random_range(0.01..1.0);
    let radius = size * r.random_range(0.02..0.5);
    let cap =
        Capsule::new(Point3::new(0.0, -half, 0.0), Point3::new(0.0, half, 0.0), radius).unwrap();
    let pa = Iso3::new(
        Vec3::new(r.random_range(-5.0..5.0), r.random_range(-5.0..5.0), 0.0),
        unit(r) * r.random_range(0.0..3.1),
    );
    let (u, v) = (r.random_range(0.0..1.0f64), r.random_range(0.0..1.0f64));
    let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
    let on = pa * (tri.a() + (tri.b() - tri.a()) * u + (tri.c() - tri.a()) * v);
    let normal = pa.rotation * tri.normal();
    let side = if r.random_bool(0.5) { 1.0 } else { -1.0 };
    let pb = if r.random_bool(0.35) {
        // Lying nearly flat: the core's axis (local y) within a few degrees of the plane.
        let along = (unit(r) - normal * normal.dot(&unit(r))).normalize();
        let tilt = (along + normal * r.random_range(-0.05..0.05)).normalize();
        let rot = nalgebra::UnitQuaternion::rotation_between(&Vec3::y(), &tilt)
            .unwrap_or_else(nalgebra::UnitQuaternion::identity);
        let gap = r.random_range(-0.2..0.05) * radius;
        Iso3::from_parts((on + normal * side * (radius + gap)).coords.into(), rot)
    } else {
        let centre = on + unit(r) * r.random_range(0.0..(half + radius) * 1.2);
        Iso3::new(centre.coords, unit(r) * r.random_range(0.0..3.1))
    };
    Case { pa, tri, pb, cap, margin: r.random_range(0.0..0.05) }
}

/// Thousands of random poses against the oracles; empty manifolds, cores apart and cores
/// crossing are all covered.
#[test]
fn random_poses_agree_with_the_oracles() {
    let mut r = rng(0xca95);
    let mut counts = [0usize; 3];
    for _ in 0..10_000 {
        let c = random_case(&mut r);
        let (empty, crossing) = check(&c);
        counts[if empty {
            0
        } else if crossing {
            1
        } else {
            2
        }] += 1;
    }
    assert!(counts.iter().all(|&k| k > 800), "{counts:?}");
}

/// A large triangle in the plane `y = 0` (normal +y), corners at `size` from the origin.
fn floor(size: f64) -> Triangle<f64, 3> {
    Triangle::new(
        Point3::new(-size, 0.0, size),
        Point3::new(size, 0.0, size),
        Point3::new(0.0, 0.0, -size),
    )
    .unwrap()
}

/// A capsule of core length `2·half` along local y, radius `radius`.
fn capsule(half: f64, radius: f64) -> Capsule<f64, 3> {
    Capsule::new(Point3::new(0.0, -half, 0.0), Point3::new(0.0, half, 0.0), radius).unwrap()
}

/// Lying along x (the local y axis turned onto x).
fn lying(at: Vec3<f64>) -> Iso3<f64> {
    Iso3::new(at, Vec3::z() * core::f64::consts::FRAC_PI_2)
}

/// The ids of a manifold's contacts, in order.
fn ids(m: &Manifold<f64, 3>) -> Vec<(FeatureId, FeatureId)> {
    m.contacts().iter().map(|k| (k.id.a, k.id.b)).collect()
}

/// A capsule lying flat on a triangle, above or below it, a little apart or sunk: the face
/// normal (turned towards the capsule), two contacts at the ends of its core, each at the gap,
/// with the triangle's face and the capsule's end ids.
#[test]
fn capsule_lying_on_a_triangle() {
    let cap = capsule(0.8, 0.3);
    for (side, gap) in [(1.0, 0.01), (1.0, -0.02), (-1.0, 0.0), (-1.0, -0.1), (1.0, -0.25)] {
        let pb = lying(Vec3::new(0.2, side * (0.3 + gap), 0.1));
        let c = Case { pa: Iso3::identity(), tri: floor(4.0), pb, cap, margin: 0.02 };
        let m = manifold(&c);
        assert_eq!(m.len(), 2, "{m:?}");
        assert!((m.normal - Vec3::y() * side).norm() < 1e-12, "{m:?}");
        let face = FeatureId::Face(if side > 0.0 { 0 } else { 1 });
        for k in m.contacts() {
            assert!((k.separation - gap).abs() < 1e-12, "{m:?}");
            assert_eq!(k.id.a, face);
            assert!(matches!(k.id.b, FeatureId::Vertex(_)), "{m:?}");
        }
        check(&c);
    }
}

/// Lying flat across the triangle's edge: the part over the triangle, clipped at the edge (the
/// crossing's id names the edge and the capsule's side).
#[test]
fn capsule_lying_across_an_edge() {
    // The floor's edge 0 runs along x at z = 4; the capsule along z crosses it.
    let cap = capsule(1.0, 0.25);
    let pb = Iso3::new(Vec3::new(0.5, 0.24, 4.2), Vec3::x() * core::f64::consts::FRAC_PI_2);
    let c = Case { pa: Iso3::identity(), tri: floor(4.0), pb, cap, margin: 0.0 };
    let m = manifold(&c);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!((m.normal - Vec3::y()).norm() < 1e-12, "{m:?}");
    let at_edge = m.contacts().iter().find(|k| k.id.a == FeatureId::Edge(0)).expect("{m:?}");
    assert_eq!(at_edge.id.b, FeatureId::Edge(0));
    assert!((at_edge.point_a.z - 4.0).abs() < 1e-12, "{m:?}");
    check(&c);
}

/// Standing on the face: one contact under its lower end, the face normal; standing upside down
/// under it too.
#[test]
fn capsule_standing_on_a_triangle() {
    let cap = capsule(1.0, 0.2);
    for (side, gap) in [(1.0, 0.01), (1.0, -0.05), (-1.0, -0.01)] {
        let pb = Iso3::translation(0.3, side * (1.2 + gap), -0.4);
        let c = Case { pa: Iso3::identity(), tri: floor(3.0), pb, cap, margin: 0.02 };
        let m = manifold(&c);
        assert_eq!(m.len(), 1, "{m:?}");
        assert!((m.normal - Vec3::y() * side).norm() < 1e-12, "{m:?}");
        let k = m.contacts()[0];
        assert!((k.separation - gap).abs() < 1e-12, "{m:?}");
        let end = FeatureId::Vertex(if side > 0.0 { 0 } else { 1 });
        assert_eq!(k.id.b, end, "{m:?}");
        check(&c);
    }
}

/// Touching a corner of the triangle with its side, and with an end: one contact at the corner.
#[test]
fn touching_at_a_vertex() {
    let tri = floor(2.0);
    // Corner 2 at (0, 0, −2); the capsule beyond it along −z, lying along x, touching.
    for gap in [0.0, 0.005, -0.005] {
        let pb = lying(Vec3::new(0.0, 0.0, -2.0 - 0.3 - gap));
        let c = Case { pa: Iso3::identity(), tri, pb, cap: capsule(1.0, 0.3), margin: 0.01 };
        let m = manifold(&c);
        assert_eq!(m.len(), 1, "{m:?}");
        let k = m.contacts()[0];
        assert_eq!(ids(&m), vec![(FeatureId::Vertex(2), FeatureId::Edge(0))], "{m:?}");
        assert!((k.separation - gap).abs() < 1e-12 && (m.normal + Vec3::z()).norm() < 1e-12);
        check(&c);
    }
    // End-on: the core along z, its end cap towards the corner.
    let pb = Iso3::new(Vec3::new(0.0, 0.0, -2.0 - 1.3), Vec3::x() * core::f64::consts::FRAC_PI_2);
    let c = Case { pa: Iso3::identity(), tri, pb, cap: capsule(1.0, 0.3), margin: 0.0 };
    let m = manifold(&c);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m.contacts()[0].id.a, FeatureId::Vertex(2), "{m:?}");
    check(&c);
}

/// Beside an upright triangle's edge, lying along it: two contacts, the ends of the overlap.
#[test]
fn lying_along_an_edge() {
    // Upright in the plane z = 0, its top edge (edge 1, b to c) along x at y = 0.
    let tri = Triangle::new(
        Point3::new(0.0, -2.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(-2.0, 0.0, 0.0),
    )
    .unwrap();
    for gap in [0.01, 0.0, -0.02] {
        let c = Case {
            pa: Iso3::identity(),
            tri,
            pb: lying(Vec3::new(0.5, 0.3 + gap, 0.0)),
            cap: capsule(0.5, 0.3),
            margin: 0.02,
        };
        let m = manifold(&c);
        assert_eq!(m.len(), 2, "{m:?}");
        assert!((m.normal - Vec3::y()).norm() < 1e-12, "{m:?}");
        for k in m.contacts() {
            assert!((k.separation - gap).abs() < 1e-12, "{m:?}");
            assert_eq!(k.id.a, FeatureId::Edge(1), "{m:?}");
        }
        check(&c);
    }
}

/// The core passing through the triangle: the SAT's depth; steeply through the face near its
/// middle (the face axis), and through it near an edge, shallowly sunk across it (an edge axis).
#[test]
fn core_crossing_the_triangle() {
    let tri = floor(2.0);
    // Upright through the middle, its lower end 0.3 below the face: out along +y by 0.3 + r.
    let c = Case {
        pa: Iso3::identity(),
        tri,
        pb: Iso3::translation(0.1, 0.7, 0.2),
        cap: capsule(1.0, 0.25),
        margin: 0.0,
    };
    let m = manifold(&c);
    assert!((m.normal - Vec3::y()).norm() < 1e-12, "{m:?}");
    assert!((m.min_separation().unwrap() + 0.55).abs() < 1e-12, "{m:?}");
    check(&c);
    // Lying along z just inside edge 0 (at z = 2), tilted to cross the face: the edge is the
    // shortest way out, sideways.
    let rot = nalgebra::UnitQuaternion::from_scaled_axis(Vec3::z() * 0.2);
    let pb = Iso3::from_parts(Vec3::new(0.0, 0.0, 1.98).into(), rot);
    let c = Case { pa: Iso3::identity(), tri, pb, cap: capsule(1.0, 0.1), margin: 0.0 };
    let m = manifold(&c);
    let sep = brute(&c).0;
    assert!((m.min_separation().unwrap() - sep).abs() < 1e-9, "{sep}: {m:?}");
    assert!(m.normal.z > 0.9, "{m:?}");
    check(&c);
}

/// Very long and very short capsules, against a triangle 1e4 times larger or smaller; slivers;
/// poses far from the origin.
#[test]
fn hostile_sizes_slivers_and_distances() {
    let mut r = rng(0x4c57);
    for n in 0..2000 {
        let mut c = random_case(&mut r);
        match n % 5 {
            // A capsule 1e4 times smaller than the triangle, near its surface.
            0 => {
                let tri = Triangle::new(c.tri.a() * 1e4, c.tri.b() * 1e4, c.tri.c() * 1e4).unwrap();
                let on = c.pa * tri.centroid();
                let at = on.coords + unit(&mut r) * r.random_range(0.0..2.0) * c.capsule_size();
                c = Case { tri, pb: Iso3::from_parts(at.into(), c.pb.rotation), ..c };
            }
            // A capsule 1e4 times longer than the triangle, its side near the triangle.
            1 => {
                let s = c.cap.segment();
                let long = Capsule::new(s.a() * 1e4, s.b() * 1e4, c.cap.radius()).unwrap();
                let at = c.pa * c.tri.centroid();
                let side = c.pb.rotation * Vec3::x();
                let off = side * (c.cap.radius() + r.random_range(-0.5..0.1) * c.cap.radius());
                let pb = Iso3::from_parts((at.coords + off).into(), c.pb.rotation);
                c = Case { cap: long, pb, ..c };
            }
            // A sliver: one corner moved to within 1e-5 of the opposite edge's line.
            2 => {
                if let Some(tri) = sliver_of(&c.tri, &mut r) {
                    c = Case { tri, ..c };
                }
            }
            // Far from the origin.
            3 => {
                let far = Vec3::new(1e5, -3e4, 7e4);
                c.pa.translation.vector += far;
                c.pb.translation.vector += far;
            }
            _ => {}
        }
        check(&c);
    }
}

/// The same random poses in `f32`: within 1e-3 of the `f64` answers' depth and normal.
#[test]
fn f32_agrees_with_f64() {
    let mut r = rng(0xf32c);
    let mut compared = 0;
    for _ in 0..3000 {
        let c = random_case(&mut r);
        let m64 = manifold(&c);
        let tri = Triangle::new(c.tri.a().cast::<f32>(), c.tri.b().cast(), c.tri.c().cast());
        let Ok(tri) = tri else { continue };
        let s = c.cap.segment();
        let cap = Capsule::new(s.a().cast::<f32>(), s.b().cast(), c.cap.radius() as f32).unwrap();
        let m32: Manifold<f32, 3> =
            contact_triangle_capsule(&c.pa.cast(), &tri, &c.pb.cast(), &cap, c.margin as f32);
        let (sep, _) = brute(&c);
        // Near the margin the precisions may disagree on emptiness; near a tie of two normals
        // (a tilted core over an edge) they may choose differently.
        if (sep - c.margin).abs() < 1e-3 || m64.is_empty() != m32.is_empty() {
            continue;
        }
        if let (Some(x), Some(y)) = (m64.min_separation(), m32.min_separation()) {
            assert!((x - f64::from(y)).abs() < 1e-3, "{c:?}\n{m64:?}\n{m32:?}");
            for k in m32.contacts() {
                let d = k.point_b - k.point_a - m32.normal * k.separation;
                assert!(d.norm() < 1e-4, "{c:?}\n{m32:?}");
            }
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// The dispatcher (either order) and a mesh's triangle piece run this routine: their answers are
/// its own bit for bit, and the general routine's (the fallback's) differ.
#[test]
fn the_dispatcher_and_the_pieces_run_the_routine() {
    let mut r = rng(0xd16);
    let (mut compared, mut differ) = (0, 0);
    for _ in 0..2000 {
        let c = random_case(&mut r);
        let m = manifold(&c);
        let (ta, tb): (Shape3<f64>, Shape3<f64>) = (c.tri.into(), c.cap.into());
        let ab: Manifold<f64, 3> = manifold3(&c.pa, &ta, &c.pb, &tb, c.margin);
        assert_eq!(format!("{ab:?}"), format!("{m:?}"));
        // The piece moves the triangle to its centroid first.
        let (centred, at) = c.tri.centred();
        let pose = c.pa * Iso3::translation(at.x, at.y, at.z);
        let own: Manifold<f64, 3> =
            contact_triangle_capsule(&pose, &centred, &c.pb, &c.cap, c.margin);
        let piece: Manifold<f64, 3> = c.tri.manifold(&c.pa, &c.pb, &tb, c.margin);
        assert_eq!(format!("{piece:?}"), format!("{own:?}"));
        let general: Manifold<f64, 3> = contact_convex(&c.pa, &ta, &c.pb, &tb, c.margin);
        if !m.is_empty() {
            compared += 1;
            differ += usize::from(format!("{general:?}") != format!("{m:?}"));
        }
    }
    assert!(compared > 500 && differ > compared * 9 / 10, "{differ} of {compared} differ");
}
