//! The triangle–box manifold ([`contact_triangle_cuboid`], SAT and clipping) against oracles
//! computed other ways, on seeded random poses and on hostile ones.
//!
//! * **Brute-force SAT:** the 13 axes written with world vectors (no box frame, no bias): the
//!   largest separation is the exact signed distance when the shapes overlap, and its axis the
//!   normal when it wins clearly.
//! * **GJK/EPA** ([`contact`]): the exact signed distance, penetrating or not, which decides
//!   whether a manifold may be empty.
//! * **Properties:** `point_b − point_a = separation · normal`; points on their shapes; moving
//!   the box out along the normal by the depth leaves the shapes just touching.
//! * **The path ran:** the dispatcher's answer for a triangle and a box (either order, and a
//!   mesh's triangle piece) is this routine's bit for bit, and differs from the general
//!   routine's, so removing the dispatch fails the test.

use kollide_manifold::Manifold;
use kollide_math::{Iso3, Point3, Vec3};
use kollide_narrowphase::composite::Piece3;
use kollide_narrowphase::manifold::{contact_convex, contact_triangle_cuboid};
use kollide_narrowphase::{QuerySettings, contact, manifold3};
use kollide_shapes::{Cuboid, FeatureId, Shape3, Triangle};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::common::{point_triangle, random_unit3 as unit, rng, sliver_of};

/// One posed pair: the triangle at `pa`, the box at `pb`, and a margin.
#[derive(Clone, Copy, Debug)]
struct Case {
    pa: Iso3<f64>,
    tri: Triangle<f64, 3>,
    pb: Iso3<f64>,
    cube: Cuboid<f64, 3>,
    margin: f64,
}

impl Case {
    fn world_triangle(&self) -> [Point3<f64>; 3] {
        self.tri.vertices().map(|p| self.pa * p)
    }

    /// The length scale of the pair: the larger shape's size.
    fn scale(&self) -> f64 {
        let t = self.tri.vertices();
        let longest = (0..3).map(|k| (t[(k + 1) % 3] - t[k]).norm()).fold(0.0, f64::max);
        longest.max(self.cube.half_extents().norm())
    }

    /// The bias tolerance of the routine: 1e-4 of the smaller shape's size, within [1e-3, 1e3].
    fn bias(&self) -> f64 {
        let t = self.tri.vertices();
        let longest = (0..3).map(|k| (t[(k + 1) % 3] - t[k]).norm()).fold(0.0, f64::max);
        1e-4 * (0.5 * longest).min(self.cube.half_extents().norm()).clamp(1e-3, 1e3)
    }
}

/// The brute-force SAT: over the 13 axes in world vectors, the largest separation, its unit axis
/// (from the triangle to the box), and the largest separation along the axes not parallel to it.
fn brute_sat(c: &Case) -> (f64, Vec3<f64>, f64) {
    let w = c.world_triangle();
    let rot = c.pb.rotation.to_rotation_matrix().into_inner();
    let u = [rot.column(0).into_owned(), rot.column(1).into_owned(), rot.column(2).into_owned()];
    let h = c.cube.half_extents();
    let centre = c.pb.translation.vector;
    let mut axes = vec![(w[1] - w[0]).cross(&(w[2] - w[0])).normalize(), u[0], u[1], u[2]];
    for k in 0..3 {
        let t = w[(k + 1) % 3] - w[k];
        for ui in &u {
            let l = ui.cross(&t);
            if l.norm() > 1e-9 * t.norm() {
                axes.push(l.normalize());
            }
        }
    }
    let seps: Vec<(f64, Vec3<f64>)> = axes
        .iter()
        .map(|l| {
            let p = w.map(|q| l.dot(&q.coords));
            let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
            let r = (0..3).map(|i| h[i] * u[i].dot(l).abs()).sum::<f64>();
            let cl = l.dot(&centre);
            let (above, below) = (cl - r - hi, lo - cl - r);
            if above >= below { (above, *l) } else { (below, -*l) }
        })
        .collect();
    let best =
        seps.iter().copied().fold((f64::MIN, Vec3::zeros()), |b, s| if s.0 > b.0 { s } else { b });
    let second = seps
        .iter()
        .filter(|s| s.1.dot(&best.1).abs() < 1.0 - 1e-9)
        .map(|s| s.0)
        .fold(f64::MIN, f64::max);
    (best.0, best.1, second)
}

/// The exact signed distance by GJK/EPA, `None` beyond `limit`.
fn exact(c: &Case, limit: f64) -> Option<f64> {
    let s = QuerySettings::default();
    contact(&c.pa, &c.tri, &c.pb, &c.cube, limit, &s).map(|k| k.separation)
}

/// The distance of a world point from the box's surface, signed (negative inside).
fn box_surface_distance(c: &Case, p: &Point3<f64>) -> f64 {
    let q = c.pb.inverse_transform_point(p);
    let h = c.cube.half_extents();
    let outside = Vec3::new(
        (q.x.abs() - h.x).max(0.0),
        (q.y.abs() - h.y).max(0.0),
        (q.z.abs() - h.z).max(0.0),
    );
    if outside.norm() > 0.0 {
        outside.norm()
    } else {
        (0..3).map(|i| q[i].abs() - h[i]).fold(f64::MIN, f64::max)
    }
}

/// The kind of the winning axis of a manifold's normal: 0 the triangle's, 1 a box face's, 2 an
/// edge pair's.
fn kind(c: &Case, n: &Vec3<f64>) -> usize {
    let w = c.world_triangle();
    let nt = (w[1] - w[0]).cross(&(w[2] - w[0])).normalize();
    let rot = c.pb.rotation.to_rotation_matrix().into_inner();
    if n.dot(&nt).abs() > 1.0 - 1e-9 {
        0
    } else if (0..3).any(|i| n.dot(&rot.column(i)).abs() > 1.0 - 1e-9) {
        1
    } else {
        2
    }
}

/// Checks one case against the oracles; returns the kind of its axis (3 when empty).
fn check(c: &Case) -> usize {
    let m: Manifold<f64, 3> = contact_triangle_cuboid(&c.pa, &c.tri, &c.pb, &c.cube, c.margin);
    let scale = c.scale();
    let eps = 1e-9 * (scale + c.pb.translation.vector.norm());
    let bias = c.bias();
    let ctx = || format!("{c:?}\n{m:?}");
    // Empty exactly when GJK/EPA finds nothing within the margin (a hair's breadth aside).
    match exact(c, c.margin + 1e-6) {
        Some(d) if d <= c.margin - eps => assert!(!m.is_empty(), "empty, exact {d}: {}", ctx()),
        None => assert!(m.is_empty(), "{}", ctx()),
        Some(_) => {}
    }
    if m.is_empty() {
        return 3;
    }
    assert!(m.len() <= 4, "{}", ctx());
    for k in m.contacts() {
        // Witness identity, points on their shapes, within the margin.
        let d = k.point_b - k.point_a - m.normal * k.separation;
        assert!(d.norm() <= 1e-7 * scale, "identity off by {}: {}", d.norm(), ctx());
        let [a, b, t] = c.world_triangle();
        let off_tri = point_triangle(&k.point_a, &a, &b, &t);
        assert!(off_tri <= 2.0 * bias + eps, "point_a {off_tri} off the triangle: {}", ctx());
        let off_box = box_surface_distance(c, &k.point_b).abs();
        assert!(off_box <= 2.0 * bias + eps, "point_b {off_box} off the box: {}", ctx());
        assert!(k.separation <= c.margin + eps, "{}", ctx());
    }
    let (sat, axis, second) = brute_sat(c);
    let deepest = m.min_separation().unwrap();
    if sat < 0.0 {
        // Penetrating: the SAT's depth, deeper by at most the bias.
        assert!(deepest <= sat + 1e-7 * scale, "shallower than SAT {sat}: {}", ctx());
        assert!(deepest >= sat - bias - 1e-7 * scale, "deeper than SAT {sat}: {}", ctx());
        if sat - second > 2.0 * bias {
            // A clear winner: its axis is the normal.
            let turn = (m.normal - axis).norm();
            assert!(turn <= 1e-7, "normal {turn} from the SAT axis {axis:?}: {}", ctx());
            // Built from the SAT's features, not by the exact fallback (whose ids are unknown).
            let unknown = m.contacts().iter().any(|k| k.id.a == FeatureId::Unknown);
            assert!(!unknown, "the exact fallback answered: {}", ctx());
        }
        // Moving the box out along the normal by the depth leaves the shapes just touching.
        let moved = Case {
            pb: Iso3::from_parts(
                (c.pb.translation.vector - m.normal * deepest).into(),
                c.pb.rotation,
            ),
            ..*c
        };
        let after = exact(&moved, 1.0).expect("touching after the move");
        assert!(
            after >= -1e-7 * scale && after <= bias + 1e-7 * scale,
            "after the move {after}: {}",
            ctx()
        );
    }
    kind(c, &m.normal)
}

/// A random triangle (corners within `size` of its centroid), a random box, posed anywhere
/// from apart to deeply overlapping.
fn random_case(r: &mut ChaCha8Rng) -> Case {
    let size = [0.3, 1.0, 3.0, 6.0][r.random_range(0..4)];
    let tri = loop {
        let mut p = || Point3::from(unit(&mut *r) * r.random_range(0.2..1.0) * size);
        let (a, b, c) = (p(), p(), p());
        if let Ok(t) = Triangle::new(a, b, c) {
            break t;
        }
    };
    let cube = Cuboid::new(Vec3::new(
        r.random_range(0.05..2.0),
        r.random_range(0.05..2.0),
        r.random_range(0.05..2.0),
    ))
    .unwrap();
    let pa = Iso3::new(
        Vec3::new(r.random_range(-5.0..5.0), r.random_range(-5.0..5.0), 0.0),
        unit(r) * r.random_range(0.0..3.1),
    );
    let (u, v) = (r.random_range(0.0..1.0f64), r.random_range(0.0..1.0f64));
    let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
    let on = tri.a() + (tri.b() - tri.a()) * u + (tri.c() - tri.a()) * v;
    let reach = cube.half_extents().norm();
    // A third of the boxes come from above or below the triangle (its face axis wins more).
    let dir = if r.random_bool(0.35) {
        let side = if r.random_bool(0.5) { 1.0 } else { -1.0 };
        (pa.rotation * tri.normal() * side + unit(r) * 0.3).normalize()
    } else {
        unit(r)
    };
    let centre = pa * on + dir * r.random_range(0.0..reach * 1.2);
    let pb = Iso3::new(centre.coords, unit(r) * r.random_range(0.0..3.1));
    Case { pa, tri, pb, cube, margin: r.random_range(0.0..0.05) }
}

/// Thousands of random poses against the oracles; every kind of axis and empty manifolds are
/// covered.
#[test]
fn random_poses_agree_with_the_oracles() {
    let mut r = rng(0x7c0b);
    let (mut kinds, mut penetrating) = ([0usize; 4], 0);
    for _ in 0..10_000 {
        let c = random_case(&mut r);
        kinds[check(&c)] += 1;
        penetrating += usize::from(brute_sat(&c).0 < 0.0);
    }
    assert!(kinds.iter().all(|&k| k > 500) && penetrating > 3000, "{kinds:?} {penetrating}");
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

fn manifold(c: &Case) -> Manifold<f64, 3> {
    contact_triangle_cuboid(&c.pa, &c.tri, &c.pb, &c.cube, c.margin)
}

/// A box lying flat on a triangle, above or below it, a little apart or sunk: the triangle's
/// normal (turned towards the box), four corners, each at the gap.
#[test]
fn box_flat_on_a_triangle() {
    let cube = Cuboid::new(Vec3::new(0.5, 0.3, 0.4)).unwrap();
    for (side, gap) in [(1.0, 0.01), (1.0, -0.02), (-1.0, 0.0), (-1.0, -0.1), (1.0, -0.29)] {
        let pb = Iso3::translation(0.2, side * (0.3 + gap), 0.1);
        let c = Case { pa: Iso3::identity(), tri: floor(4.0), pb, cube, margin: 0.02 };
        let m = manifold(&c);
        assert_eq!(m.len(), 4, "{m:?}");
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

/// A triangle smaller than the box's face under it: the three corners of the triangle, with the
/// triangle's vertex ids.
#[test]
fn small_triangle_under_a_box_face() {
    let cube = Cuboid::new(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let c = Case {
        pa: Iso3::identity(),
        tri: floor(0.5),
        pb: Iso3::translation(0.1, 0.49, 0.0),
        cube,
        margin: 0.0,
    };
    let m = manifold(&c);
    assert_eq!(m.len(), 3, "{m:?}");
    for k in m.contacts() {
        assert!((k.separation + 0.01).abs() < 1e-12);
        assert!(matches!(k.id.a, FeatureId::Vertex(_)) && k.id.b == FeatureId::Face(3), "{m:?}");
    }
    check(&c);
}

/// A box standing on one edge across a triangle's edge (the triangle standing upright): one
/// contact, from the two edges, at the gap.
#[test]
fn edge_across_edge() {
    // The triangle in the plane z = 0, its top edge (edge 1, from b to c) along x at y = 0.
    let tri = Triangle::new(
        Point3::new(0.0, -2.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
        Point3::new(-2.0, 0.0, 0.0),
    )
    .unwrap();
    let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
    let half_diagonal = 0.5 * 2f64.sqrt();
    for gap in [0.01, 0.0, -0.01, -0.1] {
        // Turned 45° about z: its lowest feature is the edge along z.
        let pb = Iso3::new(
            Vec3::new(0.3, half_diagonal + gap, 0.0),
            Vec3::z() * core::f64::consts::FRAC_PI_4,
        );
        let c = Case { pa: Iso3::identity(), tri, pb, cube, margin: 0.02 };
        let m = manifold(&c);
        assert_eq!(m.len(), 1, "{m:?}");
        let k = m.contacts()[0];
        assert!((k.separation - gap).abs() < 1e-12, "{m:?}");
        assert!((m.normal - Vec3::y()).norm() < 1e-12, "{m:?}");
        assert_eq!(k.id.a, FeatureId::Edge(1));
        assert!(matches!(k.id.b, FeatureId::Edge(_)), "{m:?}");
        assert!((k.point_a - Point3::new(0.3, 0.0, 0.0)).norm() < 1e-12, "{m:?}");
        check(&c);
    }
}

/// A box standing on a corner on a triangle's face: one contact, the corner, at the gap.
#[test]
fn corner_on_a_face() {
    let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
    // Turn the diagonal (−1, −1, −1) onto −y.
    let rot = nalgebra::UnitQuaternion::rotation_between(&Vec3::new(-1.0, -1.0, -1.0), &-Vec3::y())
        .unwrap();
    let corner = 0.5 * 3f64.sqrt();
    for gap in [0.01, 0.0, -0.01] {
        let pb = Iso3::from_parts(Vec3::new(0.1, corner + gap, 0.2).into(), rot);
        let c = Case { pa: Iso3::identity(), tri: floor(3.0), pb, cube, margin: 0.02 };
        let m = manifold(&c);
        assert_eq!(m.len(), 1, "{m:?}");
        let k = m.contacts()[0];
        assert!((k.separation - gap).abs() < 1e-12 && (m.normal - Vec3::y()).norm() < 1e-12);
        assert_eq!(
            k.id,
            kollide_manifold::ContactId::new(FeatureId::Face(0), FeatureId::Vertex(0))
        );
        check(&c);
    }
}

/// Sizes 1e4 apart either way, slivers, and poses far from the origin, against the oracles.
#[test]
fn hostile_sizes_slivers_and_distances() {
    let mut r = rng(0x4057);
    for n in 0..1500 {
        let mut c = random_case(&mut r);
        match n % 5 {
            // A box 1e4 times smaller than the triangle, near its surface.
            0 => {
                let tri = Triangle::new(c.tri.a() * 1e4, c.tri.b() * 1e4, c.tri.c() * 1e4).unwrap();
                let on =
                    c.pa * Point3::from((tri.a().coords + tri.b().coords + tri.c().coords) / 3.0);
                let pb = Iso3::from_parts(
                    (on.coords + unit(&mut r) * r.random_range(0.0..2.0)).into(),
                    c.pb.rotation,
                );
                c = Case { tri, pb, ..c };
            }
            // A triangle 1e4 times smaller than the box, near its surface.
            1 => {
                let cube = Cuboid::new(c.cube.half_extents() * 1e4).unwrap();
                let out = c.pb
                    * Point3::from(Vec3::new(
                        1e4 * c.cube.half_extents().x + r.random_range(-1.0..0.5),
                        0.0,
                        0.0,
                    ));
                let pa = Iso3::from_parts(out.coords.into(), c.pa.rotation);
                c = Case { pa, cube, ..c };
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
    let mut r = rng(0xf32);
    let mut compared = 0;
    for _ in 0..3000 {
        let c = random_case(&mut r);
        let m64 = manifold(&c);
        let tri = Triangle::new(c.tri.a().cast::<f32>(), c.tri.b().cast(), c.tri.c().cast());
        let Ok(tri) = tri else { continue };
        let cube = Cuboid::new(c.cube.half_extents().cast::<f32>()).unwrap();
        let m32: Manifold<f32, 3> =
            contact_triangle_cuboid(&c.pa.cast(), &tri, &c.pb.cast(), &cube, c.margin as f32);
        let (sat, _, second) = brute_sat(&c);
        // Near the margin or near a tie of two axes the precisions may choose differently.
        if (sat - c.margin).abs() < 1e-3 || sat - second < 1e-2 || m64.is_empty() != m32.is_empty()
        {
            continue;
        }
        if let (Some(x), Some(y)) = (m64.min_separation(), m32.min_separation()) {
            assert!((x - f64::from(y)).abs() < 1e-3, "{c:?}\n{m64:?}\n{m32:?}");
            let n32 = m32.normal.cast::<f64>();
            assert!((m64.normal - n32).norm() < 1e-3, "{c:?}\n{m64:?}\n{m32:?}");
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
/// its own bit for bit, and the general routine's differ.
#[test]
fn the_dispatcher_and_the_pieces_run_the_sat() {
    let mut r = rng(0xd15);
    let (mut compared, mut differ) = (0, 0);
    for _ in 0..2000 {
        let c = random_case(&mut r);
        let m = manifold(&c);
        let (ta, tb): (Shape3<f64>, Shape3<f64>) = (c.tri.into(), c.cube.into());
        let ab: Manifold<f64, 3> = manifold3(&c.pa, &ta, &c.pb, &tb, c.margin);
        let ba: Manifold<f64, 3> = manifold3(&c.pb, &tb, &c.pa, &ta, c.margin);
        assert_eq!(format!("{ab:?}"), format!("{m:?}"));
        assert_eq!(format!("{ba:?}"), format!("{:?}", m.flipped()));
        // The piece moves the triangle to its centroid first.
        let (centred, at) = c.tri.centred();
        let pose = c.pa * Iso3::translation(at.x, at.y, at.z);
        let own: Manifold<f64, 3> =
            contact_triangle_cuboid(&pose, &centred, &c.pb, &c.cube, c.margin);
        let piece: Manifold<f64, 3> = c.tri.manifold(&c.pa, &c.pb, &tb, c.margin);
        assert_eq!(format!("{piece:?}"), format!("{own:?}"));
        let general: Manifold<f64, 3> = contact_convex(&c.pa, &ta, &c.pb, &tb, c.margin);
        if !m.is_empty() {
            compared += 1;
            differ += usize::from(format!("{general:?}") != format!("{m:?}"));
        }
    }
    assert!(compared > 500 && differ > compared / 2, "{differ} of {compared} differ");
}
