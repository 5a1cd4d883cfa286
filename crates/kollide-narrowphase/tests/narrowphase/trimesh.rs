//! Convex shapes against a [`TriMesh`]: differential tests against brute force over every
//! triangle, the internal-edge rule (ghost collisions) on a tessellated floor, and the tree's
//! visits.
//!
//! Brute force runs the convex query on every triangle of the mesh itself and takes the minimum:
//! no tree, no box filter. Two kinds of mesh: a **terrain** (a jittered grid with random heights
//! and a random diagonal per cell, welded, so its edges carry the active-edge rule) and a
//! **soup** (random triangles in every orientation, unwelded, overlapping, so the tree's boxes
//! overlap and every edge is a boundary). Where the rule may change a contact (penetrating
//! pairs) the mesh's answer must be at least as deep as brute force and its normal a triangle's
//! own contact normal or face normal.

use core::ops::ControlFlow;

use kollide_manifold::Manifold;
use kollide_math::{Iso3, Point3, Pose, Scalar, Vec3};
use kollide_narrowphase::composite::{
    composite_closest_points, composite_contact, composite_distance, composite_intersection_test,
    composite_manifold3, composite_ray_cast, composite_shape_cast,
};
use kollide_narrowphase::{
    QuerySettings, Ray, ShapeContact, contact, intersection_test, manifold3, ray_cast, shape_cast,
};
use kollide_shapes::{
    Ball, BoundingVolume, Capsule, CompositeShape, Cuboid, FeatureId, Shape3, TriMesh, TriMeshError,
};
use nalgebra::{Translation3, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A welded terrain of `n × n` cells over `[-size/2, size/2]²`, heights in `[0, amp]`, corners
/// jittered by up to a quarter cell along x and z, each cell cut along a random diagonal, wound
/// to face +y.
fn terrain<N: Scalar>(rng: &mut ChaCha8Rng, n: usize, size: f64, amp: f64) -> TriMesh<N> {
    let cell = size / n as f64;
    let mut v = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let jx = if j > 0 && j < n { rng.random_range(-0.25..0.25) * cell } else { 0.0 };
            let jz = if i > 0 && i < n { rng.random_range(-0.25..0.25) * cell } else { 0.0 };
            let x = -size / 2.0 + j as f64 * cell + jx;
            let z = -size / 2.0 + i as f64 * cell + jz;
            v.push(Point3::new(N::lit(x), N::lit(rng.random_range(0.0..=amp)), N::lit(z)));
        }
    }
    let mut idx = Vec::new();
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    for i in 0..n {
        for j in 0..n {
            let (p00, p01, p10, p11) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
            // Counter-clockwise seen from +y (x to the right, z towards the viewer).
            if rng.random_bool(0.5) {
                idx.push([p00, p10, p01]);
                idx.push([p10, p11, p01]);
            } else {
                idx.push([p00, p10, p11]);
                idx.push([p00, p11, p01]);
            }
        }
    }
    TriMesh::new(v, idx).unwrap()
}

/// `count` random triangles (edges 0.3 to 2 long) in every orientation inside a box of half
/// size `half`, unwelded.
fn soup<N: Scalar>(rng: &mut ChaCha8Rng, count: usize, half: f64) -> TriMesh<N> {
    let mut v = Vec::new();
    let mut idx = Vec::new();
    while idx.len() < count {
        let c = Vec3::new(
            rng.random_range(-half..half),
            rng.random_range(-1.0..1.0),
            rng.random_range(-half..half),
        );
        let corner = |rng: &mut ChaCha8Rng| {
            let d = Vec3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            c + d
        };
        let [a, b, d] = [corner(rng), corner(rng), corner(rng)];
        // Keep well-shaped triangles only.
        if (b - a).cross(&(d - a)).norm() < 0.2 {
            continue;
        }
        let base = v.len() as u32;
        for p in [a, b, d] {
            v.push(Point3::new(N::lit(p.x), N::lit(p.y), N::lit(p.z)));
        }
        idx.push([base, base + 1, base + 2]);
    }
    TriMesh::new(v, idx).unwrap()
}

fn random_mesh<N: Scalar>(rng: &mut ChaCha8Rng) -> TriMesh<N> {
    if rng.random_bool(0.6) {
        let (n, size, amp) =
            (rng.random_range(2..9), rng.random_range(4.0..8.0), rng.random_range(0.1..1.5));
        terrain(rng, n, size, amp)
    } else {
        let count = rng.random_range(1..40);
        soup(rng, count, 3.0)
    }
}

fn random_shape<N: Scalar>(rng: &mut ChaCha8Rng) -> Shape3<N> {
    let l = |rng: &mut ChaCha8Rng, lo: f64, hi: f64| N::lit(rng.random_range(lo..hi));
    match rng.random_range(0..3) {
        0 => Ball::new(l(rng, 0.1, 0.8)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(l(rng, 0.1, 0.6), l(rng, 0.1, 0.6), l(rng, 0.1, 0.6)))
            .unwrap()
            .into(),
        _ => {
            let a = Point3::new(l(rng, -0.5, 0.5), l(rng, -0.3, 0.3), l(rng, -0.5, 0.5));
            Capsule::new(a, Point3::new(-a.x, -a.y, -a.z), l(rng, 0.1, 0.4)).unwrap().into()
        }
    }
}

fn random_pose<N: Scalar>(rng: &mut ChaCha8Rng, half: f64, y: (f64, f64)) -> Iso3<N> {
    let t = Translation3::new(
        N::lit(rng.random_range(-half..half)),
        N::lit(rng.random_range(y.0..y.1)),
        N::lit(rng.random_range(-half..half)),
    );
    let axis = Vec3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0f64),
    );
    let r = UnitQuaternion::from_scaled_axis(axis * 1.5);
    let q = nalgebra::Quaternion::new(N::lit(r.w), N::lit(r.i), N::lit(r.j), N::lit(r.k));
    Iso3::from_parts(t, UnitQuaternion::new_normalize(q))
}

/// The deepest contact of B over every triangle of the mesh, by brute force.
fn brute_contact<N: Scalar>(
    pos_a: &Iso3<N>,
    mesh: &TriMesh<N>,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
) -> Option<ShapeContact<N, 3>> {
    let s = QuerySettings::default();
    (0..mesh.triangle_count() as u32)
        .filter_map(|i| contact(pos_a, &mesh.triangle(i), pos_b, b, margin, &s))
        .min_by(|x, y| x.separation.partial_cmp(&y.separation).unwrap())
}

fn check_identity<N: Scalar>(c: &ShapeContact<N, 3>, tol: f64, what: &str) {
    let d = c.point_b - c.point_a - c.normal * c.separation;
    assert!(d.norm().to_f64() <= tol, "{what}: point_b − point_a ≠ separation·normal ({d:?})");
    assert!((c.normal.norm().to_f64() - 1.0).abs() <= tol, "{what}: normal not unit");
}

/// Tolerance of a length in `N` near unit sizes.
fn tol<N: Scalar>() -> f64 {
    if N::EPSILON.to_f64() > 1e-10 { 2e-4 } else { 1e-8 }
}

/// Separated pairs (the rule leaves them alone): contact, closest points, distance and the
/// boolean test equal brute force; so do closest points of a shape far above.
fn separated_queries_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut compared, mut soups) = (0, 0);
    for case in 0..2000 {
        let mesh = random_mesh::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 0.5, (-0.5, 0.5));
        let b = random_shape::<N>(&mut rng);
        let pos_b = pos_a * random_pose::<N>(&mut rng, 3.5, (-1.5, 3.0));
        let margin = N::lit(0.5);
        let what = format!("case {case} ({seed})");
        let brute = brute_contact(&pos_a, &mesh, &pos_b, &b, margin);
        let ours = composite_contact(&pos_a, &mesh, &pos_b, &b, margin, &s);
        let t = tol::<N>() * 10.0;
        let Some(bc) = brute.filter(|c| c.separation.to_f64() > 1e-3) else {
            continue;
        };
        let oc = ours.unwrap_or_else(|| panic!("{what}: brute force {bc:?}, mesh none"));
        assert!((oc.separation - bc.separation).abs().to_f64() <= t, "{what}: {oc:?} vs {bc:?}");
        check_identity(&oc, t, &what);
        let cp = composite_closest_points(&pos_a, &mesh, &pos_b, &b, &s).unwrap();
        assert!((cp.separation - bc.separation).abs().to_f64() <= t, "{what}");
        let (d, _) = composite_distance(&pos_a, &mesh, &pos_b, &b, &s);
        assert!((d - bc.separation).abs().to_f64() <= t, "{what}");
        assert!(!composite_intersection_test(&pos_a, &mesh, &pos_b, &b, &s).intersecting, "{what}");
        let high = pos_b.translated(&(Vec3::y() * N::lit(20.0)));
        let cp = composite_closest_points(&pos_a, &mesh, &high, &b, &s).unwrap();
        let bh = brute_contact(&pos_a, &mesh, &high, &b, N::MAX).unwrap();
        assert!((cp.separation - bh.separation).abs().to_f64() <= t * 10.0, "{what}");
        compared += 1;
        soups += usize::from(mesh.active_edges(0) == Some(0b111));
    }
    assert!(compared > 400 && soups > 100, "too few separated cases: {compared}, {soups}");
}

#[test]
fn separated_queries_match_brute_force_f64() {
    separated_queries_match_brute_force::<f64>(111);
}

#[test]
fn separated_queries_match_brute_force_f32() {
    separated_queries_match_brute_force::<f32>(112);
}

/// Penetrating pairs: never shallower than brute force, the normal brute force's or a touched
/// triangle's contact or face normal, the identity holds, the boolean test agrees with brute
/// force's boolean test.
fn penetrating_contacts_against_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut compared, mut corrected) = (0, 0);
    for case in 0..2000 {
        let mesh = random_mesh::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 0.5, (-0.5, 0.5));
        let b = random_shape::<N>(&mut rng);
        let pos_b = pos_a * random_pose::<N>(&mut rng, 2.5, (-0.5, 1.2));
        let what = format!("case {case} ({seed})");
        let brute = brute_contact(&pos_a, &mesh, &pos_b, &b, N::zero());
        let ours = composite_contact(&pos_a, &mesh, &pos_b, &b, N::zero(), &s);
        let brute_hit = (0..mesh.triangle_count() as u32).any(|i| {
            intersection_test(&pos_a, &mesh.triangle(i), &pos_b, &b, None, &s).intersecting
        });
        let t = tol::<N>() * 10.0;
        let Some(bc) = brute.filter(|c| c.separation.to_f64() < -t) else {
            assert!(ours.is_none_or(|c| c.separation.to_f64() > -t), "{what}: {ours:?}");
            continue;
        };
        let oc = ours.unwrap_or_else(|| panic!("{what}: brute force {bc:?}, mesh none"));
        assert!(oc.separation.to_f64() <= bc.separation.to_f64() + t, "{what}: shallower");
        check_identity(&oc, t, &what);
        assert!(brute_hit, "{what}: brute boolean");
        assert!(composite_intersection_test(&pos_a, &mesh, &pos_b, &b, &s).intersecting, "{what}");
        if (oc.normal - bc.normal).norm().to_f64() > t {
            corrected += 1;
            let ok = (0..mesh.triangle_count() as u32).any(|i| {
                let tri = mesh.triangle(i);
                let n = pos_a.transform_vector(&tri.normal());
                let own = contact(&pos_a, &tri, &pos_b, &b, N::zero(), &s);
                (n - oc.normal).norm().to_f64() <= t
                    || (n + oc.normal).norm().to_f64() <= t
                    || own.is_some_and(|c| (c.normal - oc.normal).norm().to_f64() <= t)
            });
            assert!(ok, "{what}: normal {:?} neither a triangle's contact nor a face's", oc.normal);
        }
        compared += 1;
    }
    assert!(compared > 500 && corrected > 5, "{compared} compared, {corrected} corrected");
}

#[test]
fn penetrating_contacts_against_brute_force_f64() {
    penetrating_contacts_against_brute_force::<f64>(121);
}

#[test]
fn penetrating_contacts_against_brute_force_f32() {
    penetrating_contacts_against_brute_force::<f32>(122);
}

/// `true` when the mesh point `at` (mesh frame) lies within `eps` of a triangle's edge.
fn near_an_edge<N: Scalar>(mesh: &TriMesh<N>, at: &Point3<N>, eps: f64) -> bool {
    (0..mesh.triangle_count() as u32).any(|i| {
        let [a, b, c] = mesh.triangle(i).vertices();
        [(a, b), (b, c), (c, a)].iter().any(|(u, v)| {
            let e = v - u;
            let w = at - u;
            let k = (w.dot(&e) / e.norm_squared()).max_of(N::zero()).min_of(N::one());
            (w - e * k).norm().to_f64() <= eps
        })
    })
}

/// Ray casts through the tree with the closed-form triangle test against GJK ray casts on every
/// triangle.
fn rays_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut hits, mut misses) = (0, 0);
    for case in 0..4000 {
        let mesh = random_mesh::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 1.0, (-1.0, 1.0));
        let o = Point3::new(
            N::lit(rng.random_range(-6.0..6.0)),
            N::lit(rng.random_range(-3.0..4.0)),
            N::lit(rng.random_range(-6.0..6.0)),
        );
        // Towards a random point of the mesh's box (most rays), or anywhere.
        let aim = mesh.local_aabb().center()
            + Vec3::new(
                N::lit(rng.random_range(-3.0..3.0)),
                N::lit(rng.random_range(-1.0..1.0)),
                N::lit(rng.random_range(-3.0..3.0)),
            );
        let d = (aim - o) * N::lit(rng.random_range(0.05..2.0));
        if d.norm().to_f64() < 1e-2 {
            continue;
        }
        let ray = Ray { origin: pos_a * o, dir: pos_a.transform_vector(&d) };
        let max_t = N::lit(rng.random_range(0.5..20.0));
        let brute = (0..mesh.triangle_count() as u32)
            .filter_map(|i| ray_cast(&pos_a, &mesh.triangle(i), &ray, max_t, &s).map(|h| h.t))
            .reduce(|a, b| a.min_of(b));
        let ours = composite_ray_cast(&pos_a, &mesh, &ray, max_t, &s);
        let what = format!("ray {case} ({seed}): brute {brute:?}, mesh {ours:?}");
        match (brute, ours) {
            (Some(b), Some(h)) => {
                let scale = d.norm().to_f64().max(1.0);
                assert!((b - h.t).abs().to_f64() <= tol::<N>() * 50.0 / scale, "{what}");
                assert!(h.normal.dot(&ray.dir) <= N::zero(), "{what}: normal faces away");
                hits += 1;
            }
            (None, None) => misses += 1,
            (Some(b), None) if (b - max_t).abs().to_f64() <= 1e-3 => {}
            (None, Some(h)) if (h.t - max_t).abs().to_f64() <= 1e-3 => {}
            _ => {
                let p = brute.or(ours.map(|h| h.t)).unwrap();
                let at = pos_a.inverse_transform_point(&(ray.origin + ray.dir * p));
                assert!(near_an_edge(&mesh, &at, 1e-3), "{what}");
            }
        }
    }
    assert!(hits > 500 && misses > 500, "hits {hits}, misses {misses}");
}

#[test]
fn rays_match_brute_force_f64() {
    rays_match_brute_force::<f64>(131);
}

#[test]
fn rays_match_brute_force_f32() {
    rays_match_brute_force::<f32>(132);
}

/// Shape casts: the earliest time of impact over the triangles in the swept box equals brute
/// force over every triangle.
fn shape_casts_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut hits = 0;
    for case in 0..1000 {
        let mesh = random_mesh::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 0.5, (-0.5, 0.5));
        let b = random_shape::<N>(&mut rng);
        let pos_b = pos_a * random_pose::<N>(&mut rng, 2.5, (2.5, 3.5));
        let vel = Vec3::new(
            N::lit(rng.random_range(-2.0..2.0)),
            -N::lit(rng.random_range(0.5..3.0)),
            N::lit(rng.random_range(-2.0..2.0)),
        );
        let zero = Vec3::zeros();
        let max = N::lit(2.0);
        let brute = (0..mesh.triangle_count() as u32)
            .filter_map(|i| shape_cast(&pos_a, &zero, &mesh.triangle(i), &pos_b, &vel, &b, max, &s))
            .map(|h| h.t)
            .reduce(|x, y| x.min_of(y));
        let ours = composite_shape_cast(&pos_a, &mesh, &pos_b, &vel, &b, max, &s).map(|h| h.t);
        let eps = if N::EPSILON.to_f64() > 1e-10 { 1e-3 } else { 1e-6 };
        match (brute, ours) {
            (Some(x), Some(y)) => {
                assert!((x - y).abs().to_f64() <= eps, "cast {case}: brute {x}, mesh {y}");
                hits += 1;
            }
            (None, None) => {}
            _ => panic!("cast {case}: brute {brute:?}, mesh {ours:?}"),
        }
    }
    assert!(hits > 200, "hits {hits}");
}

#[test]
fn shape_casts_match_brute_force_f64() {
    shape_casts_match_brute_force::<f64>(141);
}

#[test]
fn shape_casts_match_brute_force_f32() {
    shape_casts_match_brute_force::<f32>(142);
}

/// Manifolds: empty exactly when there is no contact, the deepest contact as deep as the single
/// contact, every contact on the manifold's normal, at most four, and A's ids carry the index of
/// a triangle that the contact lies on.
fn manifolds_agree_with_contacts<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut nonempty = 0;
    let t = if N::EPSILON.to_f64() > 1e-10 { 1e-3 } else { 1e-9 };
    for case in 0..2000 {
        let mesh = random_mesh::<N>(&mut rng);
        let b = random_shape::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 1.0, (-1.0, 1.0));
        let pos_b = pos_a * random_pose::<N>(&mut rng, 2.5, (0.0, 1.5));
        let margin = N::lit(0.02);
        let m: Manifold<N, 3> = composite_manifold3(&pos_a, &mesh, &pos_b, &b, margin);
        let c = composite_contact(&pos_a, &mesh, &pos_b, &b, margin, &s);
        let what = format!("case {case}: {m:?} / {c:?}");
        // Brute force: every triangle's own manifold; the deepest of them is the mesh's deepest
        // when no edge is inactive (a soup), and never shallower otherwise (the rule only
        // deepens ghost contacts).
        let brute = (0..mesh.triangle_count() as u32)
            .filter_map(|i| {
                let k: Manifold<N, 3> =
                    manifold3(&pos_a, &Shape3::Triangle(mesh.triangle(i)), &pos_b, &b, margin);
                k.min_separation()
            })
            .reduce(|x, y| x.min_of(y));
        assert_eq!(brute.is_some(), !m.is_empty(), "{what}: brute {brute:?}");
        let soup = (0..mesh.triangle_count() as u32).all(|i| mesh.active_edges(i) == Some(7));
        if let (Some(x), Some(y)) = (brute, m.min_separation()) {
            if soup {
                assert!((x - y).abs().to_f64() <= t, "{what}: brute {x}");
            } else {
                // The rule's face clip of a deep contact may measure a hair shallower.
                assert!(y.to_f64() <= x.to_f64() + 1e-3, "{what}: brute {x}");
            }
        }
        match c {
            None => assert!(m.is_empty(), "{what}"),
            Some(c) if c.separation.to_f64() < -0.05 => assert!(!m.is_empty(), "{what}"),
            Some(c) => {
                assert!(!m.is_empty() && m.len() <= 4, "{what}");
                // Clipped points may lie a little deeper than the exact contact, never
                // shallower.
                let deepest = m.min_separation().unwrap();
                assert!(deepest.to_f64() <= c.separation.to_f64() + 2e-3, "{what}");
                assert!(deepest.to_f64() >= c.separation.to_f64() - 1e-2, "{what}");
                for k in m.contacts() {
                    let d = (k.point_b - k.point_a).dot(&m.normal) - k.separation;
                    assert!(d.abs().to_f64() <= t, "{what}");
                    assert!(k.separation <= margin + N::lit(t), "{what}");
                    let piece = match k.id.a {
                        FeatureId::Vertex(i) | FeatureId::Edge(i) | FeatureId::Face(i) => i / 4,
                        FeatureId::Unknown => panic!("{what}: unknown id"),
                    };
                    // The point on A lies on (the plane of, within the clip slack) its triangle.
                    let tri = mesh.triangle(piece);
                    let local = pos_a.inverse_transform_point(&k.point_a);
                    let off = tri.normal().dot(&(local - tri.a())).abs().to_f64();
                    assert!(off <= 1e-2, "{what}: contact {k:?} is {off} off triangle {piece}");
                }
                nonempty += 1;
            }
        }
    }
    assert!(nonempty > 100, "{nonempty}");
}

#[test]
fn manifolds_agree_with_contacts_f64() {
    manifolds_agree_with_contacts::<f64>(151);
}

#[test]
fn manifolds_agree_with_contacts_f32() {
    manifolds_agree_with_contacts::<f32>(152);
}

/// A welded floor of `n × n` cells over `[-size/2, size/2]²` with random diagonals, bent into a
/// convex ridge along z (heights `−bend·|x|`) when `bend > 0`. Cells are cut so that no
/// triangle straddles the ridge line `x = 0` (`n` even).
fn floor(rng: &mut ChaCha8Rng, n: usize, size: f64, bend: f64) -> TriMesh<f64> {
    let cell = size / n as f64;
    let mut v = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let x = -size / 2.0 + j as f64 * cell;
            v.push(Point3::new(x, -bend * x.abs(), -size / 2.0 + i as f64 * cell));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut idx = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (p00, p01, p10, p11) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
            if rng.random_bool(0.5) {
                idx.extend([[p00, p10, p01], [p10, p11, p01]]);
            } else {
                idx.extend([[p00, p10, p11], [p00, p11, p01]]);
            }
        }
    }
    TriMesh::new(v, idx).unwrap()
}

/// Slides `b` over the mesh at 5 m/s along a diagonal path in 1/60 s steps, sunk `sink` into
/// the surface, and returns (the largest angle of the manifold normals from `expected`, the
/// largest angle of the raw per-triangle normals from both the expected and the triangle's own
/// normal, steps).
fn slide(
    mesh: &TriMesh<f64>,
    b: &Shape3<f64>,
    rest: f64,
    sink: f64,
    expected: &dyn Fn(f64) -> Vec3<f64>,
    height: &dyn Fn(f64) -> f64,
) -> (f64, f64, usize) {
    let (mut worst, mut worst_raw, mut steps) = (0.0f64, 0.0f64, 0);
    let dir = Vec3::new(1.0, 0.0, 0.37).normalize();
    let mut p = Vec3::new(-7.0, 0.0, -2.6);
    let s = QuerySettings::<f64>::default();
    while p.x < 7.0 {
        let pos_b = Iso3::translation(p.x, height(p.x) + rest - sink, p.z);
        let m: Manifold<f64, 3> = composite_manifold3(&Iso3::identity(), mesh, &pos_b, b, 0.01);
        assert!(!m.is_empty(), "no contact at {p:?}");
        worst = worst.max(m.normal.angle(&expected(p.x)));
        let c = composite_contact(&Iso3::identity(), mesh, &pos_b, b, 0.01, &s).unwrap();
        worst = worst.max(c.normal.angle(&expected(p.x)));
        let query = b.aabb(&pos_b).loosened(0.01);
        let _ = mesh.visit_pieces_in(&query, |_, _, t| {
            let raw: Manifold<f64, 3> =
                manifold3(&Iso3::identity(), &Shape3::Triangle(*t), &pos_b, b, 0.01);
            if !raw.is_empty() && raw.min_separation().unwrap() < 0.0 {
                worst_raw = worst_raw
                    .max(raw.normal.angle(&expected(p.x)).min(raw.normal.angle(&t.normal())));
            }
            ControlFlow::Continue(())
        });
        p += dir * (5.0 / 60.0);
        steps += 1;
    }
    (worst, worst_raw, steps)
}

/// Ghost collisions: a box, a ball and a capsule sliding at 5 m/s over a flat floor of
/// 2 × 16 × 16 triangles (random diagonals), sunk 2 mm: every normal (manifold and single
/// contact) is the floor's within 1e-3 rad, while the triangles queried alone do push sideways
/// (so the seams were crossed). On a flat floor the face contact of the triangle under the
/// shape is always the deepest, so the merge's deepest normal is the floor's even without the
/// active-edge rule; the rule itself is checked by the penetrating brute-force test (which
/// counts the contacts it corrected) and the bent floor below.
#[test]
fn no_ghost_collisions_on_a_flat_floor() {
    let mesh = floor(&mut rng(161), 16, 16.0, 0.0);
    assert!(mesh.triangle_count() >= 100);
    let up = |_: f64| Vec3::y();
    let flat = |_: f64| 0.0;
    let cube: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
    let (worst, raw, steps) = slide(&mesh, &cube, 0.5, 0.002, &up, &flat);
    assert!(steps > 100);
    assert!(worst <= 1e-3, "box: a normal tilted by {worst} rad");
    assert!(raw > 0.1, "box: the triangles alone never pushed sideways ({raw} rad)");
    let ball: Shape3<f64> = Ball::new(0.5).unwrap().into();
    let (worst, raw, _) = slide(&mesh, &ball, 0.5, 0.002, &up, &flat);
    assert!(worst <= 1e-3, "ball: a normal tilted by {worst} rad");
    assert!(raw > 0.01, "ball: the triangles alone never tilted ({raw} rad)");
    let capsule: Shape3<f64> =
        Capsule::new(Point3::new(-0.5, 0.0, 0.2), Point3::new(0.5, 0.0, -0.2), 0.3).unwrap().into();
    let (worst, _, _) = slide(&mesh, &capsule, 0.3, 0.002, &up, &flat);
    assert!(worst <= 1e-3, "capsule: a normal tilted by {worst} rad");
}

/// On a bent floor (a convex ridge along z, each side sloping by 0.5°, below the crease angle),
/// the normals never tilt from the local surface normal by more than the bend.
#[test]
fn normals_on_a_bent_floor_tilt_no_more_than_the_bend() {
    let bend = 0.5f64.to_radians().tan();
    let mesh = floor(&mut rng(162), 16, 16.0, bend);
    let normal = move |x: f64| Vec3::new(-bend * x.signum(), 1.0, 0.0).normalize();
    let height = move |x: f64| -bend * x.abs();
    for b in [
        Shape3::from(Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap()),
        Shape3::from(Ball::new(0.5).unwrap()),
    ] {
        let (worst, _, _) = slide(&mesh, &b, 0.5, 0.002, &normal, &height);
        assert!(worst <= 2.0 * bend.atan() + 1e-3, "tilt {worst} rad, bend {}", bend.atan());
    }
}

/// The tree visits far fewer triangles than the mesh holds, and the same set as a scan of the
/// triangles' boxes.
#[test]
fn tree_visits_match_a_scan() {
    let mut rng = rng(171);
    let mesh = terrain::<f64>(&mut rng, 40, 40.0, 1.0);
    for _ in 0..200 {
        let c = Point3::new(rng.random_range(-20.0..20.0), 0.5, rng.random_range(-20.0..20.0));
        let q = kollide_shapes::Aabb::from_half_extents(c, Vec3::new(0.7, 0.6, 0.4));
        let mut seen = Vec::new();
        let _ = mesh.visit_pieces_in(&q, |i, _, _| {
            seen.push(i);
            ControlFlow::Continue(())
        });
        seen.sort_unstable();
        let scan: Vec<u32> = (0..mesh.triangle_count() as u32)
            .filter(|&i| {
                let [a, b, d] = mesh.triangle(i).vertices();
                kollide_shapes::Aabb::new(a.inf(&b).inf(&d), a.sup(&b).sup(&d)).intersects(&q)
            })
            .collect();
        assert_eq!(seen, scan);
        assert!(seen.len() < 40);
    }
}

/// The typed errors, through the public constructor.
#[test]
fn bad_meshes_are_refused() {
    let v =
        vec![Point3::new(0.0f32, 0.0, 0.0), Point3::new(0.0, 0.0, 1.0), Point3::new(1.0, 0.0, 0.0)];
    assert!(TriMesh::new(v.clone(), vec![[0, 1, 2]]).is_ok());
    assert_eq!(TriMesh::new(v.clone(), vec![]).unwrap_err(), TriMeshError::Empty);
    let mut inf = v.clone();
    inf[1].z = f32::INFINITY;
    assert_eq!(
        TriMesh::new(inf, vec![[0, 1, 2]]).unwrap_err(),
        TriMeshError::NonFiniteVertex { vertex: 1 }
    );
    // f32's envelope is 1e5.
    let mut far = v.clone();
    far[0].x = 2e5;
    assert!(matches!(
        TriMesh::new(far, vec![[0, 1, 2]]).unwrap_err(),
        TriMeshError::OutOfEnvelope { .. }
    ));
    assert_eq!(
        TriMesh::new(v.clone(), vec![[0, 0, 2]]).unwrap_err(),
        TriMeshError::RepeatedIndex { triangle: 0, index: 0 }
    );
    assert!(matches!(
        TriMesh::new(v, vec![[0, 1, 2], [3, 1, 2]]).unwrap_err(),
        TriMeshError::IndexOutOfRange { triangle: 1, index: 3, vertex_count: 3 }
    ));
    let thin = vec![
        Point3::new(0.0f32, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(2.0, 1e-7, 0.0),
    ];
    assert_eq!(
        TriMesh::new(thin, vec![[0, 1, 2]]).unwrap_err(),
        TriMeshError::ZeroArea { triangle: 0 }
    );
}
