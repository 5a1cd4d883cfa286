//! Convex shapes against a 2D chain ([`Polyline`]): differential tests against brute force over
//! every segment, the one-sided rule, and ghost-vertex tests (a capsule sliding over a flat and
//! a gently bent chain).
//!
//! Brute force runs the convex query on every segment whose front side holds B's centre (the
//! one-sided rule, which it shares with the chain by definition) and takes the minimum. The
//! internal-vertex rule only replaces a vertex contact by one measured along the segment's
//! normal, which is never closer than the true distance (separated) and never shallower than the
//! true depth (penetrating); where the chain's answer differs from brute force its normal must
//! be a segment's normal.

use core::ops::ControlFlow;

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Scalar, Vec2};
use kollide_narrowphase::composite::{
    composite_closest_points, composite_contact, composite_intersection_test, composite_manifold2,
    composite_ray_cast, composite_shape_cast,
};
use kollide_narrowphase::{
    QuerySettings, Ray, ShapeContact, contact, intersection_test, manifold2, ray_cast, shape_cast,
};
use kollide_shapes::{
    Ball, BoundingVolume, Capsule, CompositeShape, Cuboid, Polyline, PolylineError, Shape2,
    SupportMap,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn p<N: Scalar>(x: f64, y: f64) -> Point2<N> {
    Point2::new(N::lit(x), N::lit(y))
}

/// A random chain: an open terrain running right to left (normals up) with random heights,
/// with or without ghosts, or a closed counter-clockwise star-shaped loop.
fn random_chain<N: Scalar>(rng: &mut ChaCha8Rng) -> Polyline<N> {
    if rng.random_bool(0.6) {
        let n = rng.random_range(2..20);
        let amp = rng.random_range(0.0..1.0);
        let step = rng.random_range(0.3..1.0);
        let x0 = step * n as f64 / 2.0;
        let pts: Vec<Point2<N>> =
            (0..=n).map(|i| p(x0 - step * i as f64, rng.random_range(-amp..=amp))).collect();
        let ghosts = rng.random_bool(0.5);
        let g0 = ghosts.then(|| p(x0 + step, rng.random_range(-amp..=amp)));
        let g1 = ghosts.then(|| p(x0 - step * (n + 1) as f64, rng.random_range(-amp..=amp)));
        Polyline::open(pts, g0, g1).unwrap()
    } else {
        let n = rng.random_range(3..24);
        let pts: Vec<Point2<N>> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64;
                let r = rng.random_range(1.5..3.5);
                p(r * a.cos(), r * a.sin())
            })
            .collect();
        Polyline::closed(pts).unwrap()
    }
}

fn random_shape<N: Scalar>(rng: &mut ChaCha8Rng) -> Shape2<N> {
    let l = |rng: &mut ChaCha8Rng, lo: f64, hi: f64| N::lit(rng.random_range(lo..hi));
    match rng.random_range(0..3) {
        0 => Ball::new(l(rng, 0.1, 0.8)).unwrap().into(),
        1 => Cuboid::new(Vec2::new(l(rng, 0.1, 0.6), l(rng, 0.1, 0.6))).unwrap().into(),
        _ => {
            let a = p::<N>(rng.random_range(-0.5..0.5), rng.random_range(-0.3..0.3));
            Capsule::new(a, Point2::from(-a.coords), l(rng, 0.1, 0.4)).unwrap().into()
        }
    }
}

fn random_pose<N: Scalar>(rng: &mut ChaCha8Rng, half: f64, y: (f64, f64)) -> Iso2<N> {
    Iso2::new(
        Vec2::new(N::lit(rng.random_range(-half..half)), N::lit(rng.random_range(y.0..y.1))),
        N::lit(rng.random_range(-3.0..3.0)),
    )
}

/// `true` when B's centre lies in front of segment `i` (on its normal's side).
fn in_front<N: Scalar>(chain: &Polyline<N>, pos_a: &Iso2<N>, i: u32, pos_b: &Iso2<N>) -> bool {
    let s = chain.segment(i);
    let centre = pos_a.inverse_transform_point(&Point2::from(pos_b.translation.vector));
    chain.normal(i).dot(&(centre - s.a())) >= N::zero()
}

/// The deepest one-sided contact over every segment, by brute force: segments with B's centre in
/// front, without separated contacts whose normal points into the back.
fn brute_contact<N: Scalar>(
    pos_a: &Iso2<N>,
    chain: &Polyline<N>,
    pos_b: &Iso2<N>,
    b: &Shape2<N>,
    margin: N,
) -> Option<ShapeContact<N, 2>> {
    let s = QuerySettings::default();
    (0..chain.segment_count() as u32)
        .filter(|&i| in_front(chain, pos_a, i, pos_b))
        .filter_map(|i| {
            let c = contact(pos_a, &chain.segment(i), pos_b, b, margin, &s)?;
            // A separated shape approaching from the back gets nothing.
            let n = pos_a.transform_vector(&chain.normal(i));
            (c.separation <= N::zero() || c.normal.dot(&n) > N::zero()).then_some(c)
        })
        .min_by(|x, y| x.separation.partial_cmp(&y.separation).unwrap())
}

fn tol<N: Scalar>() -> f64 {
    if N::EPSILON.to_f64() > 1e-10 { 2e-3 } else { 1e-7 }
}

/// `true` when `n` is (±) the normal of a segment of the chain at `pos_a`.
fn is_segment_normal<N: Scalar>(chain: &Polyline<N>, pos_a: &Iso2<N>, n: &Vec2<N>, t: f64) -> bool {
    (0..chain.segment_count() as u32)
        .any(|i| (pos_a.transform_vector(&chain.normal(i)) - n).norm().to_f64() <= t)
}

/// Contacts and closest points against brute force, separated and penetrating; the boolean
/// test (two-sided) against brute force's boolean over every segment.
fn contacts_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut equal, mut corrected, mut separated, mut penetrating, mut dropped) = (0, 0, 0, 0, 0);
    for case in 0..3000 {
        let chain = random_chain::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 0.5, (-0.5, 0.5));
        let b = random_shape::<N>(&mut rng);
        let pos_b = pos_a * random_pose::<N>(&mut rng, 4.0, (-2.0, 2.5));
        let margin = N::lit(0.5);
        let what = format!("case {case} ({seed})");
        let brute = brute_contact(&pos_a, &chain, &pos_b, &b, margin);
        let ours = composite_contact(&pos_a, &chain, &pos_b, &b, margin, &s);
        let t = tol::<N>();
        let hit = (0..chain.segment_count() as u32).any(|i| {
            intersection_test(&pos_a, &chain.segment(i), &pos_b, &b, None, &s).intersecting
        });
        let ours_hit = composite_intersection_test(&pos_a, &chain, &pos_b, &b, &s).intersecting;
        assert_eq!(hit, ours_hit, "{what}: boolean");
        let Some(bc) = brute else {
            assert!(ours.is_none(), "{what}: brute none, chain {ours:?}");
            continue;
        };
        let Some(oc) = ours else {
            // The rules dropped every contact: allowed only when B's centre lies behind a
            // segment near it (inside the chain's solid, where the segment in front of it is
            // seen past an inactive vertex).
            let centre = pos_a.inverse_transform_point(&Point2::from(pos_b.translation.vector));
            let reach = b.bounding_radius() + margin;
            let inside = (0..chain.segment_count() as u32).any(|i| {
                let sg = chain.segment(i);
                let (d, e) = (centre - sg.a(), sg.b() - sg.a());
                let k = (d.dot(&e) / e.norm_squared()).max_of(N::zero()).min_of(N::one());
                !in_front(&chain, &pos_a, i, &pos_b) && (d - e * k).norm() <= reach
            });
            assert!(inside, "{what}: brute {bc:?}, chain none");
            dropped += 1;
            continue;
        };
        let d = oc.point_b - oc.point_a - oc.normal * oc.separation;
        assert!(d.norm().to_f64() <= t * 10.0, "{what}: identity {oc:?}");
        if (oc.separation - bc.separation).abs().to_f64() <= t {
            equal += 1;
        } else {
            assert!(is_segment_normal(&chain, &pos_a, &oc.normal, t), "{what}: {oc:?} vs {bc:?}");
            if bc.separation > N::zero() {
                assert!(oc.separation > bc.separation, "{what}: closer than brute {bc:?}");
            }
            corrected += 1;
        }
        if bc.separation.to_f64() > 1e-3 {
            separated += 1;
            let cp = composite_closest_points(&pos_a, &chain, &pos_b, &b, &s).unwrap();
            assert!((cp.separation - oc.separation).abs().to_f64() <= t, "{what}");
        } else {
            penetrating += 1;
        }
    }
    assert!(
        equal > 700 && corrected > 10 && separated > 300 && penetrating > 300,
        "{equal} equal, {corrected} corrected, {separated} separated, {penetrating} penetrating"
    );
    assert!(dropped * 20 < equal, "{dropped} dropped");
}

#[test]
fn contacts_match_brute_force_f64() {
    contacts_match_brute_force::<f64>(211);
}

#[test]
fn contacts_match_brute_force_f32() {
    contacts_match_brute_force::<f32>(212);
}

/// One-sided ray casts through the tree against GJK ray casts on every segment that the ray
/// meets from the front.
fn rays_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let (mut hits, mut misses, mut from_behind) = (0, 0, 0);
    for case in 0..4000 {
        let chain = random_chain::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 1.0, (-1.0, 1.0));
        let o = p::<N>(rng.random_range(-5.0..5.0), rng.random_range(-4.0..4.0));
        let aim = p::<N>(rng.random_range(-3.0..3.0), rng.random_range(-2.0..2.0));
        let d = (aim - o) * N::lit(rng.random_range(0.05..1.0));
        if d.norm().to_f64() < 1e-2 {
            continue;
        }
        let ray = Ray { origin: pos_a * o, dir: pos_a.transform_vector(&d) };
        let max_t = N::lit(rng.random_range(0.5..4.0));
        let mut behind_hit = false;
        let brute = (0..chain.segment_count() as u32)
            .filter_map(|i| {
                let h = ray_cast(&pos_a, &chain.segment(i), &ray, max_t, &s)?;
                let front = d.dot(&chain.normal(i)) < N::zero();
                behind_hit |= !front;
                front.then_some(h.t)
            })
            .reduce(|a, b| a.min_of(b));
        let ours = composite_ray_cast(&pos_a, &chain, &ray, max_t, &s);
        let what = format!("ray {case} ({seed}): brute {brute:?}, chain {ours:?}");
        match (brute, ours) {
            (Some(b), Some(h)) => {
                let scale = d.norm().to_f64().max(1.0);
                assert!((b - h.t).abs().to_f64() <= tol::<N>() * 10.0 / scale, "{what}");
                assert!(h.normal.dot(&ray.dir) < N::zero(), "{what}: normal faces away");
                hits += 1;
            }
            (None, None) => misses += 1,
            _ => {
                // Grazing an end point or max_t.
                let t = brute.or(ours.map(|h| h.t)).unwrap();
                let at = o + d * t;
                let near = chain.points().iter().any(|q| (q - at).norm().to_f64() <= 1e-3)
                    || (t - max_t).abs().to_f64() <= 1e-3;
                assert!(near, "{what}");
            }
        }
        from_behind += usize::from(behind_hit);
    }
    assert!(hits > 500 && misses > 500 && from_behind > 300, "{hits} {misses} {from_behind}");
}

#[test]
fn rays_match_brute_force_f64() {
    rays_match_brute_force::<f64>(221);
}

#[test]
fn rays_match_brute_force_f32() {
    rays_match_brute_force::<f32>(222);
}

/// Shape casts (two-sided, as the convex cast on each piece): the earliest time of impact
/// equals brute force over every segment.
fn shape_casts_match_brute_force<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut hits = 0;
    for case in 0..1500 {
        let chain = random_chain::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 0.5, (-0.5, 0.5));
        let b = random_shape::<N>(&mut rng);
        let pos_b = pos_a * random_pose::<N>(&mut rng, 3.0, (2.5, 4.0));
        let vel =
            Vec2::new(N::lit(rng.random_range(-2.0..2.0)), -N::lit(rng.random_range(0.5..3.0)));
        let (zero, max) = (Vec2::zeros(), N::lit(2.0));
        let brute = (0..chain.segment_count() as u32)
            .filter_map(|i| shape_cast(&pos_a, &zero, &chain.segment(i), &pos_b, &vel, &b, max, &s))
            .map(|h| h.t)
            .reduce(|x, y| x.min_of(y));
        let ours = composite_shape_cast(&pos_a, &chain, &pos_b, &vel, &b, max, &s).map(|h| h.t);
        let eps = if N::EPSILON.to_f64() > 1e-10 { 1e-3 } else { 1e-6 };
        match (brute, ours) {
            (Some(x), Some(y)) => {
                assert!((x - y).abs().to_f64() <= eps, "cast {case}: brute {x}, chain {y}");
                hits += 1;
            }
            (None, None) => {}
            _ => panic!("cast {case}: brute {brute:?}, chain {ours:?}"),
        }
    }
    assert!(hits > 300, "hits {hits}");
}

#[test]
fn shape_casts_match_brute_force_f64() {
    shape_casts_match_brute_force::<f64>(231);
}

#[test]
fn shape_casts_match_brute_force_f32() {
    shape_casts_match_brute_force::<f32>(232);
}

/// Manifolds: empty exactly when the contact query finds nothing, at most two contacts, each on
/// the manifold's normal, the deepest as deep as the contact (within the clipping slack).
fn manifolds_agree_with_contacts<N: Scalar>(seed: u64) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut nonempty = 0;
    let t = tol::<N>();
    for case in 0..3000 {
        let chain = random_chain::<N>(&mut rng);
        let b = random_shape::<N>(&mut rng);
        let pos_a = random_pose::<N>(&mut rng, 1.0, (-1.0, 1.0));
        let pos_b = pos_a * random_pose::<N>(&mut rng, 3.5, (-1.5, 2.0));
        let margin = N::lit(0.02);
        let m: Manifold<N, 2> = composite_manifold2(&pos_a, &chain, &pos_b, &b, margin);
        let c = composite_contact(&pos_a, &chain, &pos_b, &b, margin, &s);
        let what = format!("case {case}: {m:?} / {c:?}");
        match c {
            None => assert!(m.is_empty(), "{what}"),
            Some(c) if c.separation.to_f64() < -0.05 => {}
            Some(c) => {
                assert!(!m.is_empty() && m.len() <= 2, "{what}");
                // The manifold's points may lie a little deeper than the exact contact (its
                // normal may be another piece's), never shallower.
                let deepest = m.min_separation().unwrap().to_f64();
                let exact = c.separation.to_f64();
                assert!(deepest <= exact + 2e-3 && deepest >= exact - 1e-2, "{what}");
                for k in m.contacts() {
                    let d = (k.point_b - k.point_a).dot(&m.normal) - k.separation;
                    assert!(d.abs().to_f64() <= t && k.separation <= margin + N::lit(t), "{what}");
                }
                nonempty += 1;
            }
        }
    }
    assert!(nonempty > 50, "{nonempty}");
}

#[test]
fn manifolds_agree_with_contacts_f64() {
    manifolds_agree_with_contacts::<f64>(241);
}

#[test]
fn manifolds_agree_with_contacts_f32() {
    manifolds_agree_with_contacts::<f32>(242);
}

/// A chain of `n` segments of length `step` from x = +L to x = −L (normals up), bent by
/// `bend` radians at every vertex (convex when positive: the chain turns left, towards its
/// solid, so it is an arch seen from above), with ghost vertices continuing the bend.
fn arch(n: usize, step: f64, bend: f64) -> (Polyline<f64>, Vec<Point2<f64>>) {
    // Headings symmetric about the middle: the middle segment runs along −x.
    let mut pts = Vec::new();
    let heading = |k: f64| std::f64::consts::PI + bend * (k - n as f64 / 2.0 + 0.5);
    let mut q = Point2::new(0.0, 0.0);
    let mut all = vec![q];
    for k in 0..n + 1 {
        let h = heading(k as f64);
        q += Vec2::new(h.cos(), h.sin()) * step;
        all.push(q);
    }
    // Prepend the start ghost, shift so that the middle lies at x = 0.
    let mid = all[n / 2];
    let shift = |p: &Point2<f64>| Point2::new(p.x - mid.x, p.y - mid.y);
    let ghost_start = shift(&(all[0] - Vec2::new(heading(-1.0).cos(), heading(-1.0).sin()) * step));
    for p in &all[0..=n] {
        pts.push(shift(p));
    }
    let ghost_end = shift(&all[n + 1]);
    (Polyline::open(pts.clone(), Some(ghost_start), Some(ghost_end)).unwrap(), pts)
}

/// Slides `b` (resting height `rest` above the surface point under its centre, sunk `sink`)
/// along the chain at 5 m/s in 1/240 s steps (fine enough to catch every vertex under a cap); returns the largest angle of the contact and
/// manifold normals from the chain's normal under B's centre, the largest such angle of the raw
/// per-segment manifolds, and the largest bend between the segments B touches.
fn slide(chain: &Polyline<f64>, b: &Shape2<f64>, rest: f64, sink: f64) -> (f64, f64, f64, usize) {
    let s = QuerySettings::<f64>::default();
    let (mut worst, mut raw, mut bend, mut steps) = (0.0f64, 0.0f64, 0.0f64, 0);
    let mut x = 3.9;
    while x > -3.9 {
        // The segment under x, its normal, and the surface height there.
        let i = (0..chain.segment_count() as u32)
            .find(|&i| {
                let s = chain.segment(i);
                s.a().x >= x && x >= s.b().x
            })
            .unwrap();
        let (seg, n) = (chain.segment(i), chain.normal(i));
        let k = (x - seg.a().x) / (seg.b().x - seg.a().x);
        let surface = seg.a() + (seg.b() - seg.a()) * k;
        let pos_b = Iso2::new(surface.coords + n * (rest - sink), -n.x.atan2(n.y));
        let m: Manifold<f64, 2> = composite_manifold2(&Iso2::identity(), chain, &pos_b, b, 0.01);
        assert!(!m.is_empty(), "no contact at x = {x}");
        let c = composite_contact(&Iso2::identity(), chain, &pos_b, b, 0.01, &s).unwrap();
        worst = worst.max(m.normal.angle(&n)).max(c.normal.angle(&n));
        let query = b.aabb(&pos_b).loosened(0.01);
        let _ = chain.visit_pieces_in(&query, |j, _, piece| {
            let r: Manifold<f64, 2> =
                manifold2(&Iso2::identity(), &Shape2::Segment(*piece), &pos_b, b, 0.01);
            if r.min_separation().is_some_and(|d| d < 0.0) {
                raw = raw.max(r.normal.angle(&n).min(r.normal.angle(&chain.normal(j))));
                bend = bend.max(chain.normal(j).angle(&n));
            }
            ControlFlow::Continue(())
        });
        x -= 5.0 / 240.0;
        steps += 1;
    }
    (worst, raw, bend, steps)
}

/// Ghost vertices: a capsule (and a box) sliding at 5 m/s over a flat chain of 32 segments,
/// sunk 5 mm: every normal is the chain's within 1e-3 rad, while the segments queried alone do
/// push sideways (so the vertices were crossed).
#[test]
fn no_ghost_collisions_on_a_flat_chain() {
    let (chain, _) = arch(32, 0.25, 0.0);
    let capsule: Shape2<f64> =
        Capsule::new(Point2::new(-0.4, 0.0), Point2::new(0.4, 0.0), 0.2).unwrap().into();
    let (worst, raw, _, steps) = slide(&chain, &capsule, 0.2, 0.005);
    assert!(steps > 300);
    assert!(worst <= 1e-3, "capsule: a normal tilted by {worst} rad");
    assert!(raw > 0.05, "capsule: the segments alone never tilted ({raw} rad)");
    let cube: Shape2<f64> = Cuboid::new(Vec2::new(0.3, 0.3)).unwrap().into();
    let (worst, raw, _, _) = slide(&chain, &cube, 0.3, 0.005);
    assert!(worst <= 1e-3, "box: a normal tilted by {worst} rad");
    assert!(raw > 0.1, "box: the segments alone never tilted ({raw} rad)");
}

/// On gently bent chains (0.5° per vertex, convex and concave), the normals never tilt from the
/// normal under the shape by more than the chain's own bend under it.
#[test]
fn normals_on_a_bent_chain_tilt_no_more_than_the_bend() {
    let bend = 0.5f64.to_radians();
    for sign in [1.0, -1.0] {
        let (chain, _) = arch(32, 0.25, sign * bend);
        assert!((0..32).all(|i| chain.active_edges(i) == Some(0)));
        let capsule: Shape2<f64> =
            Capsule::new(Point2::new(-0.4, 0.0), Point2::new(0.4, 0.0), 0.2).unwrap().into();
        let (worst, raw, under, _) = slide(&chain, &capsule, 0.2, 0.005);
        assert!(worst <= under + 1e-3, "sign {sign}: tilt {worst} rad, bend under it {under}");
        assert!(raw > 0.0, "sign {sign}: no raw contact");
    }
}

/// One-sided: a shape behind a segment gets no contact, a ray from behind passes through, and
/// the same shape in front gets one.
#[test]
fn segments_are_one_sided() {
    let s = QuerySettings::<f64>::default();
    let floor = Polyline::open(vec![p(2.0, 0.0), p(-2.0, 0.0)], None, None).unwrap();
    let ball: Shape2<f64> = Ball::new(0.5).unwrap().into();
    let id = Iso2::identity();
    let above = Iso2::translation(0.0, 0.4);
    let below = Iso2::translation(0.0, -0.4);
    assert!(composite_contact(&id, &floor, &above, &ball, 0.0, &s).is_some());
    assert!(composite_contact(&id, &floor, &below, &ball, 0.0, &s).is_none());
    let m: Manifold<f64, 2> = composite_manifold2(&id, &floor, &below, &ball, 0.0);
    assert!(m.is_empty());
    let up = Ray { origin: p(0.0, -1.0), dir: Vec2::new(0.0, 1.0) };
    let down = Ray { origin: p(0.0, 1.0), dir: Vec2::new(0.0, -1.0) };
    assert!(composite_ray_cast(&id, &floor, &up, 10.0, &s).is_none());
    let hit = composite_ray_cast(&id, &floor, &down, 10.0, &s).unwrap();
    assert!((hit.t - 1.0).abs() < 1e-12 && (hit.normal - Vec2::new(0.0, 1.0)).norm() < 1e-12);
}

#[test]
fn bad_chains_are_refused() {
    let pts = vec![p::<f32>(0.0, 0.0), p(1.0, 0.0)];
    assert!(Polyline::open(pts.clone(), None, None).is_ok());
    assert_eq!(
        Polyline::<f32>::open(vec![], None, None).unwrap_err(),
        PolylineError::TooFewPoints { got: 0, needed: 2 }
    );
    assert_eq!(
        Polyline::open(vec![p::<f32>(0.0, 0.0), p(f32::NAN as f64, 0.0)], None, None).unwrap_err(),
        PolylineError::NonFinitePoint { point: 1 }
    );
    assert_eq!(
        Polyline::open(pts.clone(), None, Some(p(1.0, 0.0))).unwrap_err(),
        PolylineError::RepeatedPoint { point: 1, next: 2 }
    );
    assert!(matches!(
        Polyline::open(vec![p::<f32>(0.0, 0.0), p(2e5, 0.0)], None, None).unwrap_err(),
        PolylineError::OutOfEnvelope { .. }
    ));
}
