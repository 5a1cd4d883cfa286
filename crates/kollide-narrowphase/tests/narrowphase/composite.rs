//! Convex shapes against composites (heightfields, compounds): differential tests against brute
//! force over every piece, identities, the internal-edge rule (ghost collisions), and compounds.
//!
//! Brute force runs the convex query on every triangle of the heightfield (or every child of
//! the compound) itself and takes the minimum: no grid walk, no box filter. Where the
//! internal-edge rule may change a contact (penetrating pairs), the composite answer must be at
//! least as deep as brute force (the rule replaces a shallow sideways push by the face's depth)
//! and its normal must be a face normal of a touched triangle or brute force's own.

use kollide_manifold::Manifold;
use kollide_math::{Iso3, Point3, Pose, Scalar, Vec3};
use kollide_narrowphase::composite::{
    composite_closest_points, composite_contact, composite_distance, composite_intersection_test,
    composite_manifold3, composite_ray_cast, composite_shape_cast,
};
use kollide_narrowphase::{
    QuerySettings, Ray, ShapeContact, contact, manifold3, ray_cast, shape_cast,
};
use kollide_shapes::{Ball, Capsule, CompositeShape, Cuboid, HeightField, Shape3};
use nalgebra::{Translation3, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A `rows × cols` field with random heights in `[0, amp]`, spanning `sx × sz`.
fn random_field<N: Scalar>(
    rng: &mut ChaCha8Rng,
    rows: usize,
    cols: usize,
    amp: f64,
    sx: f64,
    sz: f64,
) -> (HeightField<N>, Vec<f64>) {
    let h: Vec<f64> = (0..rows * cols).map(|_| rng.random_range(0.0..=amp)).collect();
    let field = HeightField::new(
        rows,
        cols,
        h.iter().map(|x| N::lit(*x)).collect(),
        Vec3::new(N::lit(sx), N::lit(1.0), N::lit(sz)),
    )
    .unwrap();
    (field, h)
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

fn random_pose<N: Scalar>(rng: &mut ChaCha8Rng, half: (f64, f64), y: (f64, f64)) -> Iso3<N> {
    let t = Translation3::new(
        N::lit(rng.random_range(-half.0..half.0)),
        N::lit(rng.random_range(y.0..y.1)),
        N::lit(rng.random_range(-half.1..half.1)),
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

/// The deepest contact of B over every triangle of the field, by brute force.
fn brute_contact<N: Scalar>(
    pos_a: &Iso3<N>,
    field: &HeightField<N>,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
) -> Option<(ShapeContact<N, 3>, u32)> {
    let s = QuerySettings::default();
    (0..field.triangle_count() as u32)
        .filter_map(|i| contact(pos_a, &field.triangle(i), pos_b, b, margin, &s).map(|c| (c, i)))
        .min_by(|x, y| x.0.separation.partial_cmp(&y.0.separation).unwrap())
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

fn separated_contacts_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut compared, mut far) = (0, 0);
    for case in 0..1500 {
        let (field, _) = random_field::<N>(&mut rng, 7, 6, 1.0, 5.0, 6.0);
        let pos_a = random_pose::<N>(&mut rng, (0.5, 0.5), (-0.5, 0.5));
        let b = random_shape::<N>(&mut rng);
        let local = random_pose::<N>(&mut rng, (3.0, 3.5), (-0.2, 3.0));
        let pos_b = pos_a * local;
        let margin = N::lit(0.5);
        let brute = brute_contact(&pos_a, &field, &pos_b, &b, margin);
        let ours = composite_contact(&pos_a, &field, &pos_b, &b, margin, &s);
        let what = format!("case {case} ({seed})");
        // Only separated pairs here: the internal-edge rule leaves them alone.
        let Some((bc, _)) = brute.filter(|(c, _)| c.separation.to_f64() > 1e-3) else {
            continue;
        };
        let oc = ours.unwrap_or_else(|| panic!("{what}: brute force {bc:?}, composite none"));
        assert!(
            (oc.separation - bc.separation).abs().to_f64() <= tol::<N>() * 10.0,
            "{what}: composite {} vs brute {}",
            oc.separation,
            bc.separation
        );
        check_identity(&oc, tol::<N>() * 10.0, &what);
        compared += 1;
        // Closest points agree too, and the distance with them.
        let cp = composite_closest_points(&pos_a, &field, &pos_b, &b, &s).unwrap();
        assert!((cp.separation - bc.separation).abs().to_f64() <= tol::<N>() * 10.0, "{what}");
        let (d, _) = composite_distance(&pos_a, &field, &pos_b, &b, &s);
        assert!((d - bc.separation).abs().to_f64() <= tol::<N>() * 10.0, "{what}");
        assert!(!composite_intersection_test(&pos_a, &field, &pos_b, &b, &s).intersecting);
        // A shape far above: the growing search still finds the closest piece.
        let high = pos_b.translated(&(Vec3::y() * N::lit(20.0)));
        let cp = composite_closest_points(&pos_a, &field, &high, &b, &s).unwrap();
        let bh = brute_contact(&pos_a, &field, &high, &b, N::MAX).unwrap().0;
        assert!((cp.separation - bh.separation).abs().to_f64() <= tol::<N>() * 100.0, "{what}");
        far += 1;
    }
    assert!(compared > 300 && far > 300, "too few separated cases: {compared}");
}

#[test]
fn separated_contacts_match_brute_force_f64() {
    separated_contacts_match_brute_force::<f64>(11);
}

#[test]
fn separated_contacts_match_brute_force_f32() {
    separated_contacts_match_brute_force::<f32>(12);
}

/// Penetrating pairs: never shallower than brute force (the rule only deepens ghost contacts to
/// the face's depth), the normal is brute force's or a touched triangle's face normal, the
/// identity holds, and the boolean test agrees.
fn penetrating_contacts_against_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut compared, mut corrected) = (0, 0);
    for case in 0..1500 {
        let (field, _) = random_field::<N>(&mut rng, 6, 6, 0.6, 5.0, 5.0);
        let pos_a = Iso3::identity();
        let b = random_shape::<N>(&mut rng);
        let pos_b = random_pose::<N>(&mut rng, (2.0, 2.0), (-0.2, 1.0));
        let brute = brute_contact(&pos_a, &field, &pos_b, &b, N::zero());
        let ours = composite_contact(&pos_a, &field, &pos_b, &b, N::zero(), &s);
        let what = format!("case {case} ({seed})");
        let Some((bc, _)) = brute else {
            assert!(ours.is_none_or(|c| c.separation.to_f64() > -tol::<N>()), "{what}: {ours:?}");
            continue;
        };
        let oc = ours.unwrap_or_else(|| panic!("{what}: brute force {bc:?}, composite none"));
        let t = tol::<N>() * 10.0;
        assert!(oc.separation.to_f64() <= bc.separation.to_f64() + t, "{what}: shallower");
        check_identity(&oc, t, &what);
        assert!(composite_intersection_test(&pos_a, &field, &pos_b, &b, &s).intersecting, "{what}");
        if (oc.normal - bc.normal).norm().to_f64() > t {
            corrected += 1;
            // Another triangle's own contact (within the tolerance as deep), or a face normal.
            let face = (0..field.triangle_count() as u32).any(|i| {
                let tri = field.triangle(i);
                let own = contact(&pos_a, &tri, &pos_b, &b, N::zero(), &s);
                (tri.normal() - oc.normal).norm().to_f64() <= t
                    || (tri.normal() + oc.normal).norm().to_f64() <= t
                    || own.is_some_and(|c| (c.normal - oc.normal).norm().to_f64() <= t)
            });
            assert!(
                face,
                "{what}: normal {:?} neither a triangle's contact nor a face's",
                oc.normal
            );
        }
        compared += 1;
    }
    assert!(compared > 500, "too few penetrating cases: {compared}");
    eprintln!("penetrating: {compared} compared, {corrected} given a face normal by the rule");
}

#[test]
fn penetrating_contacts_against_brute_force_f64() {
    penetrating_contacts_against_brute_force::<f64>(21);
}

#[test]
fn penetrating_contacts_against_brute_force_f32() {
    penetrating_contacts_against_brute_force::<f32>(22);
}

/// Ray casts: the grid walk with the closed-form triangle test against GJK ray casts on every
/// triangle.
fn rays_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut hits, mut misses) = (0, 0);
    for case in 0..3000 {
        let (field, _) = random_field::<N>(&mut rng, 9, 8, 1.5, 7.0, 8.0);
        let pos_a = random_pose::<N>(&mut rng, (1.0, 1.0), (-1.0, 1.0));
        let o = Point3::new(
            N::lit(rng.random_range(-6.0..6.0)),
            N::lit(rng.random_range(-2.0..4.0)),
            N::lit(rng.random_range(-6.0..6.0)),
        );
        let d = Vec3::new(
            N::lit(rng.random_range(-1.0..1.0)),
            N::lit(rng.random_range(-1.0..0.5)),
            N::lit(rng.random_range(-1.0..1.0)),
        );
        if d.norm().to_f64() < 1e-2 {
            continue;
        }
        let ray = Ray { origin: pos_a * o, dir: pos_a.transform_vector(&d) };
        let max_t = N::lit(rng.random_range(0.5..20.0));
        let brute = (0..field.triangle_count() as u32)
            .filter_map(|i| ray_cast(&pos_a, &field.triangle(i), &ray, max_t, &s).map(|h| h.t))
            .reduce(|a, b| a.min_of(b));
        let ours = composite_ray_cast(&pos_a, &field, &ray, max_t, &s);
        let what = format!("ray {case} ({seed}): brute {brute:?}, composite {ours:?}");
        match (brute, ours) {
            (Some(b), Some(h)) => {
                let scale = d.norm().to_f64().max(1.0);
                assert!((b - h.t).abs().to_f64() <= tol::<N>() * 50.0 / scale, "{what}");
                let n = h.normal;
                assert!(n.dot(&ray.dir) <= N::zero(), "{what}: normal faces away");
                hits += 1;
            }
            (None, None) => misses += 1,
            // Grazing: the two tests may disagree within rounding of an edge or of max_t.
            (Some(b), None) if (b - max_t).abs().to_f64() <= 1e-3 => {}
            (None, Some(h)) if (h.t - max_t).abs().to_f64() <= 1e-3 => {}
            _ => {
                let p = brute.or(ours.map(|h| h.t)).unwrap();
                let at = pos_a.inverse_transform_point(&(ray.origin + ray.dir * p));
                // Allowed only within rounding of a triangle's edge (grazing).
                let near_edge = (0..field.triangle_count() as u32).any(|i| {
                    let t = field.triangle(i);
                    let [a, b, c] = t.vertices();
                    [(a, b), (b, c), (c, a)].iter().any(|(u, v)| {
                        let e = v - u;
                        let w = at - u;
                        let k = (w.dot(&e) / e.norm_squared()).max_of(N::zero()).min_of(N::one());
                        (w - e * k).norm().to_f64() <= 1e-3
                    })
                });
                assert!(near_edge, "{what}");
            }
        }
    }
    assert!(hits > 300 && misses > 200, "hits {hits}, misses {misses}");
}

#[test]
fn rays_match_brute_force_f64() {
    rays_match_brute_force::<f64>(31);
}

#[test]
fn rays_match_brute_force_f32() {
    rays_match_brute_force::<f32>(32);
}

/// Shape casts: the earliest time of impact over the pieces in the swept box equals brute
/// force over every triangle.
#[test]
fn shape_casts_match_brute_force() {
    let mut rng = rng(41);
    let s = QuerySettings::<f64>::default();
    let mut hits = 0;
    for case in 0..600 {
        let (field, _) = random_field::<f64>(&mut rng, 6, 6, 1.0, 5.0, 5.0);
        let pos_a = Iso3::identity();
        let b = random_shape::<f64>(&mut rng);
        let pos_b = random_pose::<f64>(&mut rng, (2.0, 2.0), (2.0, 3.0));
        let vel = Vec3::new(
            rng.random_range(-2.0..2.0),
            -rng.random_range(0.5..3.0),
            rng.random_range(-2.0..2.0),
        );
        let zero = Vec3::zeros();
        let brute = (0..field.triangle_count() as u32)
            .filter_map(|i| {
                shape_cast(&pos_a, &zero, &field.triangle(i), &pos_b, &vel, &b, 2.0, &s)
            })
            .map(|h| h.t)
            .reduce(f64::min);
        let ours = composite_shape_cast(&pos_a, &field, &pos_b, &vel, &b, 2.0, &s).map(|h| h.t);
        match (brute, ours) {
            (Some(x), Some(y)) => {
                assert!((x - y).abs() <= 1e-6, "cast {case}: brute {x}, composite {y}");
                hits += 1;
            }
            (None, None) => {}
            _ => panic!("cast {case}: brute {brute:?}, composite {ours:?}"),
        }
    }
    assert!(hits > 200, "hits {hits}");
}

/// Manifolds: the deepest contact is as deep as the single contact, every contact satisfies the
/// identity along the manifold's normal, at most four, and A's ids carry the piece index.
#[test]
fn manifolds_agree_with_contacts() {
    let mut rng = rng(51);
    let s = QuerySettings::<f64>::default();
    let mut nonempty = 0;
    for case in 0..1500 {
        let (field, _) = random_field::<f64>(&mut rng, 6, 6, 0.4, 5.0, 5.0);
        let b = random_shape::<f64>(&mut rng);
        let pos_a = random_pose::<f64>(&mut rng, (1.0, 1.0), (-1.0, 1.0));
        let pos_b = pos_a * random_pose::<f64>(&mut rng, (2.0, 2.0), (0.3, 1.2));
        let margin = 0.02;
        let m: Manifold<f64, 3> = composite_manifold3(&pos_a, &field, &pos_b, &b, margin);
        let c = composite_contact(&pos_a, &field, &pos_b, &b, margin, &s);
        let what = format!("case {case}: {m:?} / {c:?}");
        match c {
            None => assert!(m.is_empty(), "{what}"),
            // Deep penetrations (beyond a tenth of the shape) are left to the property tests of
            // the convex manifolds: their clipped points may be deeper than the exact contact.
            Some(c) if c.separation < -0.05 => assert!(!m.is_empty(), "{what}"),
            Some(c) => {
                assert!(!m.is_empty() && m.len() <= 4, "{what}");
                let deepest = m.min_separation().unwrap();
                assert!((deepest - c.separation).abs() <= 2e-3, "{what}");
                for k in m.contacts() {
                    let d = (k.point_b - k.point_a).dot(&m.normal) - k.separation;
                    assert!(d.abs() <= 1e-9 && k.separation <= margin + 1e-9, "{what}");
                }
                nonempty += 1;
            }
        }
    }
    assert!(nonempty > 80, "{nonempty}");
}

/// Flat floor of `n × n` samples spanning `size`, optionally bent: heights `bend · |x|` (a
/// ridge along z, convex) when `bend > 0`.
fn floor(n: usize, size: f64, bend: f64) -> HeightField<f64> {
    let h: Vec<f64> = (0..n * n)
        .map(|k| {
            let x = (-0.5 + (k % n) as f64 / (n - 1) as f64) * size;
            -bend * x.abs()
        })
        .collect();
    HeightField::new(n, n, h, Vec3::new(size, 1.0, size)).unwrap()
}

/// Slides `b` over the floor at 5 m/s along a diagonal path, 1/60 s steps, sunk `sink` into the
/// surface, and returns (the largest angle of the composite's normals from `expected`, the
/// largest angle of the raw per-triangle normals).
fn slide(
    field: &HeightField<f64>,
    b: &Shape3<f64>,
    rest: f64,
    sink: f64,
    expected: &dyn Fn(f64) -> Vec3<f64>,
    height: &dyn Fn(f64) -> f64,
) -> (f64, f64, usize) {
    let (mut worst, mut worst_raw, mut steps) = (0.0f64, 0.0f64, 0);
    let dir = Vec3::new(1.0, 0.0, 0.37).normalize();
    let mut p = Vec3::new(-7.0, 0.0, -2.6);
    while p.x < 7.0 {
        let pos_b = Iso3::translation(p.x, height(p.x) + rest - sink, p.z);
        let m: Manifold<f64, 3> = composite_manifold3(&Iso3::identity(), field, &pos_b, b, 0.01);
        assert!(!m.is_empty(), "no contact at {p:?}");
        worst = worst.max(m.normal.angle(&expected(p.x)));
        // The same query on each triangle alone, without the rule.
        let query = b.aabb(&pos_b).loosened(0.01);
        let _ = field.visit_pieces_in(&query, |i, _, t| {
            let raw: Manifold<f64, 3> =
                manifold3(&Iso3::identity(), &Shape3::Triangle(*t), &pos_b, b, 0.01);
            if !raw.is_empty() && raw.min_separation().unwrap() < 0.0 {
                let _ = i;
                worst_raw = worst_raw
                    .max(raw.normal.angle(&expected(p.x)).min(raw.normal.angle(&t.normal())));
            }
            core::ops::ControlFlow::Continue(())
        });
        p += dir * (5.0 / 60.0);
        steps += 1;
    }
    (worst, worst_raw, steps)
}

use kollide_shapes::BoundingVolume;

/// Ghost collisions: a box and a ball sliding at 5 m/s over a flat floor of 2 × 24 × 24
/// triangles, sunk 2 mm into it: every manifold normal is the floor's within 1e-3 rad, while
/// the triangles queried alone do push sideways (so the rule ran).
#[test]
fn no_ghost_collisions_on_a_flat_floor() {
    let field = floor(25, 16.0, 0.0);
    let up = |_: f64| Vec3::y();
    let flat = |_: f64| 0.0;
    let cube: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
    let (worst, raw, steps) = slide(&field, &cube, 0.5, 0.002, &up, &flat);
    assert!(steps > 100);
    assert!(worst <= 1e-3, "box: a normal tilted by {worst} rad");
    assert!(
        raw > 0.1,
        "box: the triangles alone never pushed sideways ({raw} rad): the test is vacuous"
    );
    let ball: Shape3<f64> = Ball::new(0.5).unwrap().into();
    let (worst, _, _) = slide(&field, &ball, 0.5, 0.002, &up, &flat);
    assert!(worst <= 1e-3, "ball: a normal tilted by {worst} rad");
}

/// On a bent floor (a convex ridge along z, each side sloping by 0.5°, below the crease angle),
/// the normals never tilt from the local surface normal by more than the bend itself.
#[test]
fn normals_on_a_bent_floor_tilt_no_more_than_the_bend() {
    let bend = 0.5f64.to_radians().tan();
    let field = floor(25, 16.0, bend);
    let normal = move |x: f64| Vec3::new(-bend * x.signum(), 1.0, 0.0).normalize();
    let height = move |x: f64| -bend * x.abs();
    let cube: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
    let (worst, _, _) = slide(&field, &cube, 0.5, 0.002, &normal, &height);
    assert!(worst <= 2.0 * bend.atan() + 1e-3, "box: tilt {worst} rad, bend {}", bend.atan());
    let ball: Shape3<f64> = Ball::new(0.5).unwrap().into();
    let (worst, _, _) = slide(&field, &ball, 0.5, 0.002, &normal, &height);
    assert!(worst <= 2.0 * bend.atan() + 1e-3, "ball: tilt {worst} rad");
}

/// A field placed far from the origin and rotated gives the same contact as at the origin.
#[test]
fn far_from_the_origin() {
    let mut rng = rng(61);
    let s = QuerySettings::<f64>::default();
    for _ in 0..200 {
        let (field, _) = random_field::<f64>(&mut rng, 5, 5, 0.5, 4.0, 4.0);
        let b = random_shape::<f64>(&mut rng);
        let local = random_pose::<f64>(&mut rng, (1.5, 1.5), (-0.2, 1.2));
        let near = composite_contact(&Iso3::identity(), &field, &local, &b, 0.1, &s);
        let shift = Iso3::translation(1e4, -3e3, 2e4)
            * random_pose::<f64>(&mut rng, (1e-9, 1e-9), (0.0, 1e-9));
        let far = composite_contact(&shift, &field, &(shift * local), &b, 0.1, &s);
        match (near, far) {
            (Some(x), Some(y)) => assert!((x.separation - y.separation).abs() < 1e-7),
            (None, None) => {}
            other => panic!("{other:?}"),
        }
    }
}

use kollide_math::{Iso2, Vec2};
use kollide_narrowphase::composite::{composite_manifold2, compound_manifold2, compound_manifold3};
use kollide_narrowphase::manifold2;
use kollide_shapes::{Compound2, Compound3, Shape2};

fn random_compound3(rng: &mut ChaCha8Rng) -> Compound3<f64> {
    let n = rng.random_range(1..5);
    Compound3::new(
        (0..n)
            .map(|_| (random_pose::<f64>(rng, (1.5, 1.5), (-0.7, 0.7)), random_shape::<f64>(rng)))
            .collect(),
    )
    .unwrap()
}

/// Compound against a convex shape: contact, closest points, boolean, ray and shape cast equal
/// brute force over the children.
#[test]
fn compound_queries_match_brute_force() {
    let mut rng = rng(91);
    let s = QuerySettings::<f64>::default();
    let (mut touching, mut apart) = (0, 0);
    for case in 0..800 {
        let c = random_compound3(&mut rng);
        let pos_a = random_pose::<f64>(&mut rng, (1.0, 1.0), (-1.0, 1.0));
        let b = random_shape::<f64>(&mut rng);
        let pos_b = pos_a * random_pose::<f64>(&mut rng, (2.0, 2.0), (-1.0, 1.0));
        let world = |i: usize| pos_a * c.children()[i].0;
        let brute = (0..c.children().len())
            .map(|i| {
                let (_, child) = &c.children()[i];
                kollide_narrowphase::closest_points(&world(i), child, &pos_b, &b, &s).separation
            })
            .fold(f64::MAX, f64::min);
        let ours = composite_closest_points(&pos_a, &c, &pos_b, &b, &s).unwrap();
        assert!(
            (ours.separation - brute).abs() <= 1e-8,
            "case {case}: {} vs {brute}",
            ours.separation
        );
        check_identity(&ours, 1e-8, &format!("case {case}"));
        let hit = composite_intersection_test(&pos_a, &c, &pos_b, &b, &s).intersecting;
        if brute.abs() > 1e-6 {
            assert_eq!(hit, brute < 0.0, "case {case}");
        }
        if brute < 0.0 {
            touching += 1
        } else {
            apart += 1
        }
        let m: Manifold<f64, 3> = composite_manifold3(&pos_a, &c, &pos_b, &b, 0.0);
        assert_eq!(m.is_empty(), brute > 1e-9, "case {case}: {m:?} / {brute}");
        // Ray from B's centre towards the compound's first child.
        let ray = Ray {
            origin: Point3::from(pos_b.translation.vector),
            dir: world(0).translation.vector - pos_b.translation.vector,
        };
        let brute_t = (0..c.children().len())
            .filter_map(|i| ray_cast(&world(i), &c.children()[i].1, &ray, 2.0, &s).map(|h| h.t))
            .reduce(f64::min);
        let ours_t = composite_ray_cast(&pos_a, &c, &ray, 2.0, &s).map(|h| h.t);
        match (brute_t, ours_t) {
            (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-8, "case {case}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "case {case}"),
        }
    }
    assert!(touching > 100 && apart > 100, "{touching} / {apart}");
}

/// Compound against compound: the manifold's depth equals brute force over all child pairs, and
/// swapping the two gives the flipped manifold's depth (contact(A, B) = flip(contact(B, A))).
#[test]
fn compound_pairs_and_flip() {
    let mut rng = rng(92);
    let s = QuerySettings::<f64>::default();
    let mut compared = 0;
    for case in 0..2000 {
        let a = random_compound3(&mut rng);
        let b = random_compound3(&mut rng);
        let pos_a = random_pose::<f64>(&mut rng, (1.0, 1.0), (-1.0, 1.0));
        let pos_b = pos_a * random_pose::<f64>(&mut rng, (4.0, 4.0), (-2.0, 2.0));
        let mut brute = f64::MAX;
        for (pa, ca) in a.children() {
            for (pb, cb) in b.children() {
                let k =
                    kollide_narrowphase::closest_points(&(pos_a * pa), ca, &(pos_b * pb), cb, &s);
                brute = brute.min(k.separation);
            }
        }
        let ab: Manifold<f64, 3> = compound_manifold3(&pos_a, &a, &pos_b, &b, 0.05);
        let ba: Manifold<f64, 3> = compound_manifold3(&pos_b, &b, &pos_a, &a, 0.05);
        assert_eq!(ab.is_empty(), brute > 0.05 + 1e-9, "case {case}");
        assert_eq!(ab.is_empty(), ba.is_empty(), "case {case}");
        if ab.is_empty() || brute < -0.05 {
            continue;
        }
        let (da, db) = (ab.min_separation().unwrap(), ba.min_separation().unwrap());
        assert!((da - brute).abs() <= 2e-3, "case {case}: {da} vs brute {brute}");
        assert!((da - db).abs() <= 2e-3, "case {case}: {da} vs flipped {db}");
        compared += 1;
    }
    assert!(compared > 30, "{compared}");
}

/// 2D: a compound of boxes and discs against a box and against another compound; depth and
/// contact count against brute force over the children, flip symmetry of the depth.
#[test]
fn compounds_in_2d() {
    let mut rng = rng(93);
    let mut compared = 0;
    let shape = |rng: &mut ChaCha8Rng| -> Shape2<f64> {
        if rng.random_bool(0.5) {
            Ball::new(rng.random_range(0.2..0.6)).unwrap().into()
        } else {
            Cuboid::new(Vec2::new(rng.random_range(0.2..0.6), rng.random_range(0.2..0.6)))
                .unwrap()
                .into()
        }
    };
    let pose = |rng: &mut ChaCha8Rng, r: f64| {
        Iso2::new(
            Vec2::new(rng.random_range(-r..r), rng.random_range(-r..r)),
            rng.random_range(-3.0..3.0),
        )
    };
    for case in 0..800 {
        let n = rng.random_range(1..4);
        let a = Compound2::new((0..n).map(|_| (pose(&mut rng, 1.0), shape(&mut rng))).collect())
            .unwrap();
        let b = shape(&mut rng);
        let (pos_a, pos_b) = (pose(&mut rng, 0.5), pose(&mut rng, 2.0));
        let m: Manifold<f64, 2> = composite_manifold2(&pos_a, &a, &pos_b, &b, 0.0);
        let brute = a
            .children()
            .iter()
            .filter_map(|(p, c)| {
                let k: Manifold<f64, 2> = manifold2(&(pos_a * p), c, &pos_b, &b, 0.0);
                k.min_separation()
            })
            .reduce(f64::min);
        match brute {
            None => assert!(m.is_empty(), "case {case}"),
            Some(d) => {
                assert!(!m.is_empty() && m.len() <= 2, "case {case}");
                assert!((m.min_separation().unwrap() - d).abs() <= 1e-9, "case {case}");
                compared += 1;
            }
        }
        let bc = Compound2::new(vec![(Iso2::identity(), b.clone())]).unwrap();
        let ab: Manifold<f64, 2> = compound_manifold2(&pos_a, &a, &pos_b, &bc, 0.0);
        let ba: Manifold<f64, 2> = compound_manifold2(&pos_b, &bc, &pos_a, &a, 0.0);
        assert_eq!(ab.is_empty(), m.is_empty(), "case {case}");
        if let (Some(x), Some(y)) = (ab.min_separation(), ba.min_separation()) {
            assert!((x - y).abs() <= 1e-6, "case {case}: {x} vs {y}");
        }
    }
    assert!(compared > 100, "{compared}");
}
