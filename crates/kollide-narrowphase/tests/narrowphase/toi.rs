//! `time_of_impact` against answers computed another way: the GJK shape cast for pure
//! translation, closed forms (a ball against a face and against a corner), and brute force
//! (the sweep sampled finely and the crossing bisected) for rotating bodies: a spinning rod
//! through a ball, tumbling boxes in 3D. Approaching, receding and grazing, sizes 1e-2 to 1e2,
//! `f32` and `f64`.

use crate::common::rng;
use kollide_math::{Iso2, Iso3, Point, Point2, Scalar, Vec2, Vec3};
use kollide_narrowphase::{
    QuerySettings, Sweep, SweepPose, ToiStatus, closest_points, shape_cast, time_of_impact,
};
use kollide_shapes::{Ball, Capsule, Circle, Cuboid, Shape2, Shape3, SupportMap};
use rand::Rng;

const SCALES: [f64; 5] = [1e-2, 1e-1, 1.0, 10.0, 100.0];

/// The separation of the two shapes at `t` of their sweeps.
fn gap<N: Scalar, const D: usize, P: SweepPose<N, D>, A, B>(
    a: &A,
    sa: &Sweep<N, D, P>,
    b: &B,
    sb: &Sweep<N, D, P>,
    t: N,
) -> f64
where
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let s = QuerySettings::default();
    closest_points(&sa.pose_at(t), a, &sb.pose_at(t), b, &s).separation.to_f64()
}

/// Brute force: the first `t` at which the separation reaches `target` (sampled at `n` points,
/// then bisected), or `None` when no sample gets there.
fn brute_first<N: Scalar, const D: usize, P: SweepPose<N, D>, A, B>(
    a: &A,
    sa: &Sweep<N, D, P>,
    b: &B,
    sb: &Sweep<N, D, P>,
    target: f64,
    n: usize,
) -> Option<f64>
where
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let f = |t: f64| gap(a, sa, b, sb, N::lit(t)) - target;
    let mut prev = 0.0;
    for i in 1..=n {
        let t = i as f64 / n as f64;
        if f(t) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if f(mid) <= 0.0 { hi = mid } else { lo = mid }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

/// What every answer must satisfy: a hit lands within `[target, target + tolerance]` (up to
/// `slack`), never after the brute-force crossing; "separated" only when brute force found no
/// crossing.
#[allow(clippy::too_many_arguments)]
fn check_against_brute<N: Scalar, const D: usize, P: SweepPose<N, D>, A, B>(
    a: &A,
    sa: &Sweep<N, D, P>,
    b: &B,
    sb: &Sweep<N, D, P>,
    target: f64,
    tolerance: f64,
    slack: f64,
    what: &str,
) -> ToiStatus
where
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let s = QuerySettings { cast_max_iterations: 256, ..QuerySettings::default() };
    let toi = time_of_impact(a, sa, b, sb, N::lit(target), N::lit(tolerance), &s);
    let brute = brute_first(a, sa, b, sb, target, 2000);
    let t = toi.t.to_f64();
    match toi.status {
        ToiStatus::Hit => {
            let g = gap(a, sa, b, sb, toi.t);
            assert!(g >= target - slack && g <= target + tolerance + slack, "{what}: gap {g}");
            if let Some(tb) = brute {
                assert!(t <= tb + 1e-9 + slack, "{what}: toi {t} after the crossing {tb}");
            }
            // Brute force can miss a crossing between samples only by a sliver; a hit with a
            // gap within the tolerance is right either way.
        }
        ToiStatus::Separated => {
            assert!(brute.is_none(), "{what}: separated, but brute force crosses at {brute:?}")
        }
        ToiStatus::Failed => {
            let tb = brute.expect("a failure where brute force finds no crossing");
            assert!(t <= tb + slack, "{what}: failed at {t}, after the crossing {tb}");
        }
        other => panic!("{what}: {other:?}"),
    }
    toi.status
}

#[test]
fn pure_translation_agrees_with_the_shape_cast_2d_and_3d() {
    let mut rng = rng(71);
    let mut hits = 0;
    for case in 0..400 {
        let scale = SCALES[case % SCALES.len()];
        let box_a = Cuboid::new(Vec2::new(rng.random_range(0.1..2.0), 0.3) * scale).unwrap();
        let shape_b: Shape2<f64> = match case % 3 {
            0 => Circle::new(0.4 * scale).unwrap().into(),
            1 => Cuboid::new(Vec2::new(0.5, 0.2) * scale).unwrap().into(),
            _ => Capsule::new(
                Point2::new(-0.4 * scale, 0.0),
                Point2::new(0.4 * scale, 0.0),
                0.15 * scale,
            )
            .unwrap()
            .into(),
        };
        let pa = Iso2::new(Vec2::zeros(), rng.random_range(-3.0..3.0));
        let dir = rng.random_range(0.0..std::f64::consts::TAU);
        let start = Vec2::new(dir.cos(), dir.sin()) * rng.random_range(3.0..6.0) * scale;
        let pb = Iso2::new(start, rng.random_range(-3.0..3.0));
        // Mostly towards A, some passing by, some receding.
        let aim =
            -start + Vec2::new(rng.random_range(-2.0..2.0), rng.random_range(-2.0..2.0)) * scale;
        let d = aim * rng.random_range(0.3..2.0);
        let (target, tolerance) = (0.005 * scale, 0.001 * scale);
        let sa = Sweep::fixed(pa);
        let sb = Sweep::translation(pb, d);
        let s = QuerySettings::default();
        let toi = time_of_impact(&box_a, &sa, &shape_b, &sb, target, tolerance, &s);
        let cast = shape_cast(&pa, &Vec2::zeros(), &box_a, &pb, &d, &shape_b, 1.0, &s);
        match (toi.status, cast) {
            (ToiStatus::Hit, Some(c)) => {
                hits += 1;
                assert!(toi.t <= c.t + 1e-12, "case {case}: toi {} after the cast {}", toi.t, c.t);
                let g = toi.contact.unwrap().separation;
                assert!(g >= target * 0.999 && g <= target + tolerance * 1.001, "case {case}: {g}");
                // And not much before it: the gap closes at most at |d| per unit t.
                assert!((c.t - toi.t) * d.norm() >= target * 0.999, "case {case}");
            }
            (ToiStatus::Separated, None) => {}
            // Grazing: the cast misses, but the sweep passes within the target.
            (ToiStatus::Hit, None) => {
                let g = toi.contact.unwrap().separation;
                assert!(g <= target + tolerance * 1.001, "case {case}");
            }
            (status, cast) => panic!("case {case}: {status:?} against the cast {cast:?}"),
        }
    }
    assert!(hits > 100, "too few hits to mean anything: {hits}");
}

#[test]
fn pure_translation_agrees_with_the_shape_cast_in_3d() {
    let mut rng = rng(72);
    let mut hits = 0;
    for case in 0..300 {
        let scale = SCALES[case % SCALES.len()];
        let a = Cuboid::new(Vec3::new(1.0, 0.3, 0.7) * scale).unwrap();
        let b: Shape3<f64> = match case % 2 {
            0 => Ball::new(0.4 * scale).unwrap().into(),
            _ => Cuboid::new(Vec3::new(0.5, 0.2, 0.3) * scale).unwrap().into(),
        };
        let rot = |rng: &mut rand_chacha::ChaCha8Rng| {
            Vec3::new(
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
                rng.random_range(-2.0..2.0),
            )
        };
        let pa = Iso3::new(Vec3::zeros(), rot(&mut rng));
        let start = rot(&mut rng).normalize() * rng.random_range(3.0..6.0) * scale;
        let pb = Iso3::new(start, rot(&mut rng));
        let d = (-start + rot(&mut rng) * scale) * rng.random_range(0.3..2.0);
        let (target, tolerance) = (0.005 * scale, 0.001 * scale);
        let s = QuerySettings::default();
        let toi = time_of_impact(
            &a,
            &Sweep::fixed(pa),
            &b,
            &Sweep::translation(pb, d),
            target,
            tolerance,
            &s,
        );
        let cast = shape_cast(&pa, &Vec3::zeros(), &a, &pb, &d, &b, 1.0, &s);
        match (toi.status, cast) {
            (ToiStatus::Hit, Some(c)) => {
                hits += 1;
                assert!(toi.t <= c.t + 1e-12, "case {case}");
                let g = toi.contact.unwrap().separation;
                assert!(g >= target * 0.999 && g <= target + tolerance * 1.001, "case {case}: {g}");
            }
            (ToiStatus::Separated, None) => {}
            (ToiStatus::Hit, None) => {
                assert!(toi.contact.unwrap().separation <= target + tolerance * 1.001);
            }
            (status, cast) => panic!("case {case}: {status:?} against the cast {cast:?}"),
        }
    }
    assert!(hits > 80, "{hits}");
}

/// A ball against a wide box's top face, and against its corner: closed forms.
fn ball_against_box_closed_forms<N: Scalar>(rel: f64) {
    for &scale in &SCALES {
        let r = 0.25 * scale;
        let ball = Circle::new(N::lit(r)).unwrap();
        let ground = Cuboid::new(Vec2::new(N::lit(20.0 * scale), N::lit(0.5 * scale))).unwrap();
        let still = Sweep::fixed(Iso2::identity());
        let (target, tolerance) = (0.005 * scale, 0.001 * scale);
        let s = QuerySettings::default();
        // Face: from height h, falling at an angle; the gap is h − 0.5 − r − target.
        for angle in [0.0_f64, 20.0, 45.0, 70.0, 85.0] {
            let h = 3.0 * scale;
            let a = angle.to_radians();
            let d = Vec2::new(a.tan(), -1.0) * 3.0 * scale;
            let start = Iso2::translation(N::lit(-0.5 * d.x), N::lit(h));
            let sweep = Sweep::translation(start, d.map(N::lit));
            let toi = time_of_impact(
                &ground,
                &still,
                &ball,
                &sweep,
                N::lit(target),
                N::lit(tolerance),
                &s,
            );
            assert_eq!(toi.status, ToiStatus::Hit, "scale {scale} angle {angle}");
            let exact = (h - 0.5 * scale - r - target) / (-d.y);
            let got = toi.t.to_f64();
            assert!(
                got <= exact + rel && got >= exact - tolerance / -d.y - rel,
                "{got} vs {exact}"
            );
        }
        // Corner (10s, 0.5s): the centre's path meets the circle of radius r + target about it.
        let corner = Vec2::new(20.0 * scale, 0.5 * scale);
        let c0 = corner + Vec2::new(2.0, 1.0) * scale;
        let d = Vec2::new(-4.0, -1.7) * scale;
        let f = c0 - corner;
        let rr = r + target;
        let (qa, qb, qc) = (d.dot(&d), 2.0 * f.dot(&d), f.dot(&f) - rr * rr);
        let exact = (-qb - (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa);
        let sweep =
            Sweep::translation(Iso2::translation(N::lit(c0.x), N::lit(c0.y)), d.map(N::lit));
        let toi =
            time_of_impact(&ground, &still, &ball, &sweep, N::lit(target), N::lit(tolerance), &s);
        assert_eq!(toi.status, ToiStatus::Hit, "corner at scale {scale}");
        let got = toi.t.to_f64();
        assert!(
            got <= exact + rel && got >= exact - tolerance / d.norm() * 2.0 - rel,
            "{got} vs {exact}"
        );
        // Receding from the face: separated; resting within the target: overlapping at t = 0.
        let up = Sweep::translation(
            Iso2::translation(N::zero(), N::lit(2.0 * scale)),
            Vector2(0.0, 5.0 * scale),
        );
        let toi =
            time_of_impact(&ground, &still, &ball, &up, N::lit(target), N::lit(tolerance), &s);
        assert_eq!(toi.status, ToiStatus::Separated);
        let rest = Iso2::translation(N::zero(), N::lit(0.5 * scale + r + target * 0.5));
        let toi = time_of_impact(
            &ground,
            &still,
            &ball,
            &Sweep::translation(rest, Vector2(0.0, -scale)),
            N::lit(target),
            N::lit(tolerance),
            &s,
        );
        assert_eq!((toi.status, toi.t), (ToiStatus::Overlapping, N::zero()));
        // Grazing: sliding along the face at the target plus twice the tolerance: no hit.
        let glide = Iso2::translation(
            N::lit(-5.0 * scale),
            N::lit(0.5 * scale + r + target + 2.0 * tolerance),
        );
        let toi = time_of_impact(
            &ground,
            &still,
            &ball,
            &Sweep::translation(glide, Vector2(10.0 * scale, 0.0)),
            N::lit(target),
            N::lit(tolerance),
            &s,
        );
        assert_eq!(toi.status, ToiStatus::Separated, "grazing at scale {scale}");
    }
}

#[allow(non_snake_case)]
fn Vector2<N: Scalar>(x: f64, y: f64) -> Vec2<N> {
    Vec2::new(N::lit(x), N::lit(y))
}

#[test]
fn a_ball_against_a_box_matches_the_closed_forms_f64() {
    ball_against_box_closed_forms::<f64>(1e-9);
}

#[test]
fn a_ball_against_a_box_matches_the_closed_forms_f32() {
    ball_against_box_closed_forms::<f32>(1e-4);
}

/// A thin rod spinning about its centre as it passes a ball: brute force over the sweep.
fn spinning_rod<N: Scalar>(slack_rel: f64) {
    let mut rng = rng(73);
    let (mut hits, mut separated) = (0, 0);
    for case in 0..150 {
        let scale = SCALES[case % SCALES.len()];
        // As thin as the f32 envelope allows at the smallest scale.
        let rod = Cuboid::new(Vec2::new(N::lit(scale), N::lit((0.02 * scale).max(2e-3)))).unwrap();
        let ball = Circle::new(N::lit(0.1 * scale)).unwrap();
        let ball_pose = Iso2::translation(
            N::lit(rng.random_range(-1.0..1.0) * scale),
            N::lit(rng.random_range(-1.0..1.0) * scale),
        );
        let start = Vec2::new(rng.random_range(-3.0..-1.5), rng.random_range(-0.5..0.5)) * scale;
        let d = Vec2::new(rng.random_range(1.0..5.0), rng.random_range(-1.0..1.0)) * scale;
        let sweep = Sweep {
            start: Iso2::new(start.map(N::lit), N::lit(rng.random_range(-3.0..3.0))),
            local_center: Point::origin(),
            translation: d.map(N::lit),
            turn: N::lit(rng.random_range(-12.0..12.0)),
        };
        let (target, tolerance) = (0.005 * scale, 0.001 * scale);
        let still = Sweep::fixed(ball_pose);
        let what = format!("rod case {case}");
        let start_gap = gap(&ball, &still, &rod, &sweep, N::zero());
        if start_gap <= target + tolerance {
            continue;
        }
        match check_against_brute(
            &ball,
            &still,
            &rod,
            &sweep,
            target,
            tolerance,
            slack_rel * scale,
            &what,
        ) {
            ToiStatus::Hit => hits += 1,
            ToiStatus::Separated => separated += 1,
            _ => {}
        }
    }
    assert!(hits > 30 && separated > 10, "hits {hits}, separated {separated}");
}

#[test]
fn a_spinning_rod_sweeping_through_a_ball_matches_brute_force_f64() {
    spinning_rod::<f64>(1e-9);
}

#[test]
fn a_spinning_rod_sweeping_through_a_ball_matches_brute_force_f32() {
    spinning_rod::<f32>(2e-4);
}

/// Two boxes that move and tumble in 3D (a flat plate and a cube): brute force over the sweep.
fn tumbling_boxes<N: Scalar>(slack_rel: f64) {
    let mut rng = rng(74);
    let mut hits = 0;
    let v3 = |v: Vec3<f64>| v.map(N::lit);
    for case in 0..60 {
        let scale = SCALES[case % SCALES.len()];
        // As thin as the f32 envelope allows at the smallest scale.
        let thin = (0.05 * scale).max(2e-3);
        let a = Cuboid::new(v3(Vec3::new(scale, thin, 0.5 * scale))).unwrap();
        let b = Cuboid::new(v3(Vec3::new(0.3, 0.3, 0.3) * scale)).unwrap();
        let r3 = |rng: &mut rand_chacha::ChaCha8Rng, k: f64| {
            Vec3::new(rng.random_range(-k..k), rng.random_range(-k..k), rng.random_range(-k..k))
        };
        let sa = Sweep {
            start: Iso3::new(v3(r3(&mut rng, 0.5) * scale), v3(r3(&mut rng, 2.0))),
            local_center: Point::from(v3(Vec3::new(0.1, 0.0, 0.0) * scale)),
            translation: v3(r3(&mut rng, 0.5) * scale),
            turn: v3(r3(&mut rng, 4.0)),
        };
        let start_b = Vec3::new(3.0, 0.0, 0.0) * scale + r3(&mut rng, 0.8) * scale;
        let sb = Sweep {
            start: Iso3::new(v3(start_b), v3(r3(&mut rng, 2.0))),
            local_center: Point::origin(),
            translation: v3(-start_b * rng.random_range(0.5..1.5) + r3(&mut rng, 1.0) * scale),
            turn: v3(r3(&mut rng, 4.0)),
        };
        let (target, tolerance) = (0.005 * scale, 0.001 * scale);
        if gap(&a, &sa, &b, &sb, N::zero()) <= target + tolerance {
            continue;
        }
        let what = format!("3d case {case}");
        let slack = slack_rel * scale;
        if check_against_brute(&a, &sa, &b, &sb, target, tolerance, slack, &what) == ToiStatus::Hit
        {
            hits += 1;
        }
    }
    assert!(hits > 15, "{hits}");
}

#[test]
fn tumbling_boxes_in_3d_match_brute_force_f64() {
    tumbling_boxes::<f64>(1e-9);
}

#[test]
fn tumbling_boxes_in_3d_match_brute_force_f32() {
    tumbling_boxes::<f32>(2e-4);
}

#[test]
fn bad_input_and_the_iteration_cap_are_reported() {
    let ball = Circle::new(1.0_f64).unwrap();
    let still = Sweep::fixed(Iso2::identity());
    let moving = Sweep::translation(Iso2::translation(-5.0, 0.0), Vec2::new(10.0, 0.0));
    let s = QuerySettings::default();
    for (target, tolerance) in [(-1.0, 0.1), (0.1, 0.0), (f64::NAN, 0.1), (0.1, f64::INFINITY)] {
        let toi = time_of_impact(&ball, &still, &ball, &moving, target, tolerance, &s);
        assert_eq!((toi.status, toi.t, toi.iterations), (ToiStatus::BadInput, 0.0, 0));
    }
    let nan = Sweep::translation(Iso2::translation(-5.0, 0.0), Vec2::new(f64::NAN, 0.0));
    assert_eq!(
        time_of_impact(&ball, &still, &ball, &nan, 0.1, 0.01, &s).status,
        ToiStatus::BadInput
    );
    // A fast spin makes the bound pessimistic: with two iterations the answer is a safe `t`.
    let spin = Sweep { turn: 50.0, ..moving };
    let rod = Cuboid::new(Vec2::new(2.0, 0.01)).unwrap();
    let capped = QuerySettings { cast_max_iterations: 2, ..s };
    let toi = time_of_impact(&ball, &still, &rod, &spin, 0.01, 0.001, &capped);
    assert_eq!(toi.status, ToiStatus::Failed);
    assert!(toi.contact.unwrap().separation >= 0.01);
    let full = time_of_impact(
        &ball,
        &still,
        &rod,
        &spin,
        0.01,
        0.001,
        &QuerySettings { cast_max_iterations: 1000, ..s },
    );
    assert_eq!(full.status, ToiStatus::Hit);
    assert!(toi.t <= full.t);
}
