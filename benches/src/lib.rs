//! Shared, seeded inputs for kollide's benchmarks.
//!
//! Every bench binary draws its inputs from here so that kollide and each peer library see the
//! same numbers in the same run, and so that two runs on two machines see the same numbers too:
//! the generators are [`ChaCha8Rng`] streams seeded with [`SEED`] (or a caller-chosen seed), never
//! the operating system's entropy.
//!
//! The generators return plain `f64` arrays or kollide poses; a bench converts them to a peer's
//! types itself, so this crate stays independent of any peer library.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The default seed of every benchmark input stream.
pub const SEED: u64 = 0x6b6f_6c6c_6964_6521; // "kollide!"

/// A deterministic random-number generator seeded with `seed`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `count` directions in `D` dimensions, uniformly distributed on the unit sphere (unit length).
///
/// Drawn by rejection from the cube `[-1, 1]^D`, so the distribution is uniform on the sphere.
pub fn unit_directions<const D: usize>(seed: u64, count: usize) -> Vec<[f64; D]> {
    let mut rng = rng(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let v: [f64; D] = core::array::from_fn(|_| rng.random_range(-1.0..=1.0));
        let n2: f64 = v.iter().map(|x| x * x).sum();
        if n2 > 1e-6 && n2 <= 1.0 {
            let n = n2.sqrt();
            out.push(v.map(|x| x / n));
        }
    }
    out
}

/// `count` points in `D` dimensions, uniformly distributed in the cube `[-half_extent, half_extent]^D`.
pub fn points_in_cube<const D: usize>(seed: u64, count: usize, half_extent: f64) -> Vec<[f64; D]> {
    let mut rng = rng(seed);
    (0..count)
        .map(|_| core::array::from_fn(|_| rng.random_range(-half_extent..=half_extent)))
        .collect()
}

/// `count` values uniformly distributed in `[lo, hi]` (sizes, radii, angles).
///
/// # Panics
/// When `lo > hi` or either bound is not finite.
pub fn uniform(seed: u64, count: usize, lo: f64, hi: f64) -> Vec<f64> {
    let mut rng = rng(seed);
    (0..count).map(|_| rng.random_range(lo..=hi)).collect()
}

/// The `t` in `[lo, hi]` where `f(t) = target`, for an `f` that is continuous with
/// `f(lo) ≤ target ≤ f(hi)` and crosses `target` once there (the signed distance of two convex
/// shapes as one slides along a line is convex, so it crosses a level at most once on its rising
/// side). Regula falsi with the Illinois fix; returns `None` when the bracket is invalid.
///
/// The benches use it to place shape pairs at controlled signed distances: `f(t)` is kollide's
/// exact `f64` signed distance with B translated by `t` along a direction.
pub fn find_crossing(
    mut f: impl FnMut(f64) -> f64,
    mut lo: f64,
    mut hi: f64,
    target: f64,
    tolerance: f64,
) -> Option<f64> {
    let (mut flo, mut fhi) = (f(lo) - target, f(hi) - target);
    if !(flo <= 0.0 && fhi >= 0.0) {
        return None;
    }
    let mut side = 0i8;
    for _ in 0..200 {
        if fhi - flo <= 0.0 {
            break;
        }
        let t = (lo * fhi - hi * flo) / (fhi - flo);
        let ft = f(t) - target;
        if ft.abs() <= tolerance {
            return Some(t);
        }
        if ft < 0.0 {
            (lo, flo) = (t, ft);
            if side == -1 {
                fhi *= 0.5;
            }
            side = -1;
        } else {
            (hi, fhi) = (t, ft);
            if side == 1 {
                flo *= 0.5;
            }
            side = 1;
        }
        if hi - lo <= f64::EPSILON * hi.abs().max(1.0) {
            break;
        }
    }
    let t = 0.5 * (lo + hi);
    ((f(t) - target).abs() <= tolerance).then_some(t)
}

/// A random unit vector: one seed drawn from `r`, expanded by [`unit_directions`].
pub fn random_unit<const D: usize>(r: &mut ChaCha8Rng) -> [f64; D] {
    unit_directions::<D>(r.random(), 1)[0]
}

/// A random 3D rotation as a scaled axis (each component in `[−3.1, 3.1]`).
pub fn random_rotation(r: &mut ChaCha8Rng) -> kollide::math::Vec3<f64> {
    kollide::math::Vec3::new(
        r.random_range(-3.1..3.1),
        r.random_range(-3.1..3.1),
        r.random_range(-3.1..3.1),
    )
}

/// How far B may slide from A's centre when a pair is placed (every bench shape fits in a ball of
/// radius 2 around its origin, so a slide of 4 separates any pair).
const MAX_SLIDE: f64 = 4.0;

/// Draws a 2D pair from a pool of `count` shapes and places it at the signed distance `target`:
/// A gets a random pose within 10 units of the origin, B a random angle, and B's position is A's
/// plus `t·u` for a random unit `u`, with `t` solved by [`find_crossing`] on `sd(a, pose_a, b,
/// pose_b)` (kollide's exact `f64` signed distance of shapes `a` and `b`). Returns the shape
/// indices and the poses in `f32`, or `None` when the pair cannot reach `target` (draw again).
pub fn place_pair_2d(
    r: &mut ChaCha8Rng,
    count: usize,
    target: f64,
    sd: impl Fn(usize, &kollide::math::Iso2<f64>, usize, &kollide::math::Iso2<f64>) -> f64,
) -> Option<(usize, usize, kollide::math::Iso2<f32>, kollide::math::Iso2<f32>)> {
    use kollide::math::{Iso2, Vec2};
    let (a, b) = (r.random_range(0..count), r.random_range(0..count));
    let c = Vec2::new(r.random_range(-10.0..10.0), r.random_range(-10.0..10.0));
    let pose_a = Iso2::new(c, r.random_range(-3.2..3.2));
    let angle_b = r.random_range(-3.2..3.2);
    let u = Vec2::from(random_unit::<2>(r));
    let pose_b = |t: f64| Iso2::new(c + u * t, angle_b);
    let t = find_crossing(|t| sd(a, &pose_a, b, &pose_b(t)), 0.0, MAX_SLIDE, target, 1e-10)?;
    Some((a, b, pose_a.cast::<f32>(), pose_b(t).cast::<f32>()))
}

/// [`place_pair_2d`] in 3D: A at a random pose within 10 units of the origin, B with a random
/// rotation, slid along a random unit direction until `sd` reaches `target`.
pub fn place_pair_3d(
    r: &mut ChaCha8Rng,
    count: usize,
    target: f64,
    sd: impl Fn(usize, &kollide::math::Iso3<f64>, usize, &kollide::math::Iso3<f64>) -> f64,
) -> Option<(usize, usize, kollide::math::Iso3<f32>, kollide::math::Iso3<f32>)> {
    use kollide::math::{Iso3, Vec3};
    let (a, b) = (r.random_range(0..count), r.random_range(0..count));
    let c = Vec3::new(
        r.random_range(-10.0..10.0),
        r.random_range(-10.0..10.0),
        r.random_range(-10.0..10.0),
    );
    let pose_a = Iso3::new(c, random_rotation(r));
    let rot_b = random_rotation(r);
    let u = Vec3::from(random_unit::<3>(r));
    let pose_b = |t: f64| Iso3::new(c + u * t, rot_b);
    let t = find_crossing(|t| sd(a, &pose_a, b, &pose_b(t)), 0.0, MAX_SLIDE, target, 1e-10)?;
    Some((a, b, pose_a.cast::<f32>(), pose_b(t).cast::<f32>()))
}

/// Runs one benchmark iteration: every bench's `Bencher::iter` closure calls its work through
/// this function, so that `cargo xtask bench --instructions` can read the instructions of one
/// iteration from callgrind's output as this function's inclusive cost divided by its call count,
/// whatever number of iterations criterion chose. It is never inlined (callgrind sees a call);
/// the one call costs a few instructions against the thousands of the work.
#[inline(never)]
pub fn one_iteration<R>(work: impl FnOnce() -> R) -> R {
    work()
}

/// `true` when the bench binary runs under `cargo xtask bench --instructions` (the environment
/// variable [`INSTRUCTIONS_ENV`] is set): the benches then skip their untimed extras (answer
/// comparisons, settling runs) that would only slow the run under valgrind.
pub fn counting_instructions() -> bool {
    std::env::var_os(INSTRUCTIONS_ENV).is_some()
}

/// `false` when counting instructions for another benchmark than `group/id` (the one named by
/// [`INSTRUCTIONS_ENV`]): benches whose setup is long (the world scenes) skip building the others.
pub fn wanted(group: &str, id: &str) -> bool {
    listing()
        || std::env::var(INSTRUCTIONS_ENV).map_or(true, |only| only == format!("{group}/{id}"))
}

/// `true` when criterion only lists the benchmarks (`--list`): nothing will be timed, so the
/// benches need not build their scenes.
pub fn listing() -> bool {
    std::env::args().any(|a| a == "--list")
}

/// The number of alternating rounds asked for group `group`: `KOLLIDE_ALT=<rounds>`, for every
/// group whose name contains `KOLLIDE_ALT_ONLY` (all groups when it is unset). `None` when no
/// alternating run is asked for (then criterion times the group as usual).
pub fn alternating_rounds(group: &str) -> Option<usize> {
    let rounds = std::env::var("KOLLIDE_ALT").ok()?.parse::<usize>().ok().filter(|&r| r > 0)?;
    let only = std::env::var("KOLLIDE_ALT_ONLY").unwrap_or_default();
    group.contains(&only).then_some(rounds)
}

/// Whether the library `id` takes part in an alternating run: every library unless
/// `KOLLIDE_ALT_IDS` lists the ones that do (comma-separated ids, such as `kollide,rapier`),
/// so that a variant which loads the machine (a second thread) can be left out.
pub fn alternating_id(id: &str) -> bool {
    std::env::var("KOLLIDE_ALT_IDS").map_or(true, |ids| ids.split(',').any(|i| i == id))
}

/// Times the libraries of one group in turn, `rounds` times: each round runs every library's
/// batch once, in the order given (kollide first), and prints, per library, the median batch
/// time and the median and quartiles of the per-round ratio of kollide's time to its own.
///
/// On a shared machine, separate criterion runs of two libraries meet different loads, and
/// their ratio moves by ±20 %; the libraries of one round meet nearly the same load, so the
/// median of the per-round ratios repeats far better. Each batch's answers are summed into a
/// value that is kept from the optimiser, as in criterion's loop.
pub fn alternate<F: FnMut() -> f32>(group: &str, rounds: usize, libs: &mut [(&str, F)]) {
    let mut times = vec![Vec::with_capacity(rounds); libs.len()];
    for _ in 0..rounds {
        for (k, (_, batch)) in libs.iter_mut().enumerate() {
            let t = std::time::Instant::now();
            std::hint::black_box(batch());
            times[k].push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let sorted = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v
    };
    for (k, (id, _)) in libs.iter().enumerate() {
        let ratios =
            sorted(&times[0].iter().zip(&times[k]).map(|(o, t)| o / t).collect::<Vec<_>>());
        let t = sorted(&times[k])[rounds / 2];
        let (q1, r, q3) = (ratios[rounds / 4], ratios[rounds / 2], ratios[rounds * 3 / 4]);
        eprintln!(
            "ALT {group}/{id}: median {t:.1} us; kollide/this median {r:.3} (IQR {q1:.3}-{q3:.3})"
        );
    }
}

/// The environment variable that `cargo xtask bench --instructions` sets for the bench binaries:
/// the `group/id` of the one benchmark it counts.
pub const INSTRUCTIONS_ENV: &str = "KOLLIDE_BENCH_INSTRUCTIONS";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_unit_and_deterministic() {
        let a = unit_directions::<3>(SEED, 64);
        let b = unit_directions::<3>(SEED, 64);
        assert_eq!(a, b);
        for d in &a {
            let n: f64 = d.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((n - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn points_stay_in_the_cube() {
        for p in points_in_cube::<2>(SEED, 100, 2.5) {
            assert!(p.iter().all(|x| x.abs() <= 2.5));
        }
    }

    #[test]
    fn crossing_of_a_convex_function() {
        // |t − 1| − 0.5 rises through 1e-3 at t = 1.501 (and falls through it at 0.499).
        let t = find_crossing(|t| (t - 1.0).abs() - 0.5, 1.0, 4.0, 1e-3, 1e-12).unwrap();
        assert!((t - 1.501).abs() < 1e-9);
        assert_eq!(find_crossing(|t| t, 1.0, 2.0, 0.0, 1e-12), None);
    }

    #[test]
    fn uniform_stays_in_range() {
        assert!(uniform(1, 100, 0.5, 2.0).iter().all(|x| (0.5..=2.0).contains(x)));
    }
}
