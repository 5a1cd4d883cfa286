//! The contact solver on four `f32` lanes against the same solver on one lane: every number of
//! every body must agree after every step, and the four-lane run must have solved bundles
//! (so that the comparison fails if the SIMD path stops running).

use kollide_math::Scalar;
use kollide_solver::{Dim, SolverDim, World};

/// Steps two copies of a world, one on SIMD lanes and one on a single lane, and requires every
/// number `state` reads to be equal after every step (a zero velocity may differ in its sign:
/// a masked lane adds a zero impulse where one lane adds nothing, and `+0 == −0`), and the SIMD
/// run to have solved bundles of lanes.
fn same_with_and_without_simd<N: Scalar, const D: usize>(
    make: impl Fn() -> World<N, D>,
    state: impl Fn(&World<N, D>) -> Vec<N>,
    steps: usize,
) where
    Dim<D>: SolverDim<N, D>,
{
    let mut simd = make();
    let mut one_lane = make();
    one_lane.set_simd_lanes(false);
    let dt = N::lit(1.0 / 60.0);
    let mut bundles = 0;
    for step in 0..steps {
        bundles += simd.step(dt).unwrap().simd_bundles;
        let report = one_lane.step(dt).unwrap();
        assert_eq!(report.simd_bundles, 0, "the one-lane run solved SIMD bundles");
        assert!(state(&simd) == state(&one_lane), "the SIMD solver diverged at step {step}");
    }
    assert!(bundles > 0, "the SIMD run solved no bundles");
}

/// Two-dimensional worlds.
/// The comparisons both dimensions run, in a module that defines `pyramid(base)`, `jumble(seed)`
/// and `same_with_and_without_simd(make, steps)`: a pyramid of base `$base`, `$seeds` jumbles,
/// and a jumble without warm starting and with bounces.
macro_rules! comparisons {
    ($base:expr, $seeds:expr) => {
        #[test]
        fn simd_matches_one_lane_on_a_pyramid() {
            same_with_and_without_simd(|| pyramid($base), 200);
        }

        #[test]
        fn simd_matches_one_lane_on_a_jumble() {
            for seed in 0..$seeds {
                same_with_and_without_simd(|| jumble(seed), 300);
            }
        }

        #[test]
        fn simd_matches_one_lane_without_warm_starting_and_with_bounces() {
            let make = || {
                let mut w = jumble(7);
                let settings = kollide_solver::StepSettings {
                    warm_starting: false,
                    restitution_threshold: 0.2,
                    ..*w.settings()
                };
                w.set_settings(settings).unwrap();
                w
            };
            same_with_and_without_simd(make, 300);
        }
    };
}

mod two_d {

    use kollide_math::{Iso2, Point2, Vec2};
    use kollide_shapes::{Capsule, Circle, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use kollide_solver::{BodyDesc, World2};

    /// Every body's pose and velocities.
    fn state(w: &World2<f32>) -> Vec<f32> {
        w.bodies()
            .flat_map(|(_, b)| {
                let (p, v) = (b.pose(), b.linear_velocity());
                [p.translation.x, p.translation.y, p.rotation.re, p.rotation.im, v.x, v.y]
                    .into_iter()
                    .chain([b.angular_velocity()])
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn pyramid(base: usize) -> World2<f32> {
        let mut w = World2::new(Vec2::new(0.0, -9.81)).unwrap();
        let ground = Cuboid::new(Vec2::new(50.0, 0.5)).unwrap();
        w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
        for row in 0..base {
            for i in 0..base - row {
                let x = i as f32 - (base - row) as f32 / 2.0 + 0.5;
                let cube = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
                let pose = Iso2::translation(x, 0.5 + row as f32);
                w.add(BodyDesc::dynamic(cube).pose(pose)).unwrap();
            }
        }
        w
    }

    /// Boxes, circles and capsules with random poses, velocities, friction and restitution
    /// dropped into a container: one- and two-point manifolds, speculative contacts, bounces.
    fn jumble(seed: u64) -> World2<f32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = World2::new(Vec2::new(0.0, -9.81)).unwrap();
        let wall = |hx: f32, hy: f32, x: f32, y: f32| {
            BodyDesc::fixed(Cuboid::new(Vec2::new(hx, hy)).unwrap()).pose(Iso2::translation(x, y))
        };
        w.add(wall(20.0, 0.5, 0.0, -0.5)).unwrap();
        w.add(wall(0.5, 10.0, -6.0, 10.0)).unwrap();
        w.add(wall(0.5, 10.0, 6.0, 10.0)).unwrap();
        for i in 0..60 {
            let mut r = |lo: f32, hi: f32| rng.random_range(lo..hi);
            let desc = match i % 3 {
                0 => BodyDesc::dynamic(Circle::new(r(0.1, 0.5)).unwrap()),
                1 => BodyDesc::dynamic(Cuboid::new(Vec2::new(r(0.1, 0.6), r(0.1, 0.6))).unwrap()),
                _ => {
                    let (a, b) = (Point2::new(r(-0.4, -0.1), 0.0), Point2::new(r(0.1, 0.4), 0.0));
                    BodyDesc::dynamic(Capsule::new(a, b, r(0.05, 0.3)).unwrap())
                }
            };
            let pose = Iso2::new(Vec2::new(r(-5.0, 5.0), r(1.0, 15.0)), r(-3.0, 3.0));
            let v = Vec2::new(r(-5.0, 5.0), r(-10.0, 5.0));
            let desc = desc.pose(pose).linear_velocity(v).restitution(r(0.0, 0.6));
            w.add(desc.friction(r(0.0, 1.0))).unwrap();
        }
        w
    }

    fn same_with_and_without_simd(make: impl Fn() -> World2<f32>, steps: usize) {
        super::same_with_and_without_simd(make, state, steps);
    }

    comparisons!(14, 4);
}

/// Three-dimensional worlds.
mod three_d {
    use kollide_math::{Iso3, Vec3};
    use kollide_shapes::{Ball, Capsule, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use kollide_solver::{BodyDesc, World3};

    /// Every body's pose and velocities.
    fn state(w: &World3<f32>) -> Vec<f32> {
        w.bodies()
            .flat_map(|(_, b)| {
                let (p, v, o) = (b.pose(), b.linear_velocity(), b.angular_velocity());
                let (t, q) = (p.translation.vector, p.rotation.coords);
                [t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, o.x, o.y, o.z]
            })
            .collect()
    }

    /// Square layers of unit cubes, `base` on a side at the bottom.
    fn pyramid(base: usize) -> World3<f32> {
        let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
        let ground = Cuboid::new(Vec3::new(50.0, 0.5, 50.0)).unwrap();
        w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -0.5, 0.0))).unwrap();
        for layer in 0..base {
            let n = base - layer;
            for i in 0..n {
                for j in 0..n {
                    let x = i as f32 - n as f32 / 2.0 + 0.5;
                    let z = j as f32 - n as f32 / 2.0 + 0.5;
                    let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
                    let pose = Iso3::translation(x, 0.5 + layer as f32, z);
                    w.add(BodyDesc::dynamic(cube).pose(pose)).unwrap();
                }
            }
        }
        w
    }

    /// Boxes, balls and capsules with random poses, velocities, friction and restitution
    /// dropped into a box: manifolds of one to four points, speculative contacts, bounces.
    fn jumble(seed: u64) -> World3<f32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
        let wall = |h: Vec3<f32>, p: Vec3<f32>| {
            BodyDesc::fixed(Cuboid::new(h).unwrap()).pose(Iso3::translation(p.x, p.y, p.z))
        };
        w.add(wall(Vec3::new(20.0, 0.5, 20.0), Vec3::new(0.0, -0.5, 0.0))).unwrap();
        w.add(wall(Vec3::new(0.5, 10.0, 5.0), Vec3::new(-4.0, 10.0, 0.0))).unwrap();
        w.add(wall(Vec3::new(0.5, 10.0, 5.0), Vec3::new(4.0, 10.0, 0.0))).unwrap();
        w.add(wall(Vec3::new(5.0, 10.0, 0.5), Vec3::new(0.0, 10.0, -4.0))).unwrap();
        w.add(wall(Vec3::new(5.0, 10.0, 0.5), Vec3::new(0.0, 10.0, 4.0))).unwrap();
        for i in 0..60 {
            let mut r = |lo: f32, hi: f32| rng.random_range(lo..hi);
            let desc = match i % 3 {
                0 => BodyDesc::dynamic(Ball::<f32, 3>::new(r(0.1, 0.5)).unwrap()),
                1 => {
                    let h = Vec3::new(r(0.1, 0.6), r(0.1, 0.6), r(0.1, 0.6));
                    BodyDesc::dynamic(Cuboid::new(h).unwrap())
                }
                _ => {
                    let capsule = Capsule::<f32, 3>::new_axis(r(0.1, 0.4), r(0.05, 0.3));
                    BodyDesc::dynamic(capsule.unwrap())
                }
            };
            let t = Vec3::new(r(-3.0, 3.0), r(1.0, 15.0), r(-3.0, 3.0));
            let axis = Vec3::new(r(-3.0, 3.0), r(-3.0, 3.0), r(-3.0, 3.0));
            let v = Vec3::new(r(-5.0, 5.0), r(-10.0, 5.0), r(-5.0, 5.0));
            let desc = desc.pose(Iso3::new(t, axis)).linear_velocity(v).restitution(r(0.0, 0.6));
            w.add(desc.friction(r(0.0, 1.0))).unwrap();
        }
        w
    }

    fn same_with_and_without_simd(make: impl Fn() -> World3<f32>, steps: usize) {
        super::same_with_and_without_simd(make, state, steps);
    }

    /// The physics tests run in `f64` (the scalar loop); this is the `f32` stack on the SIMD
    /// path: ten cubes for 10 s, the top one within 1 mm of its column.
    #[test]
    fn simd_stack_of_ten_cubes_stands() {
        let mut w = pyramid(0);
        let cube = || Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
        let top = (0..10)
            .map(|i| {
                let pose = Iso3::translation(0.0, 0.5 + i as f32, 0.0);
                w.add(BodyDesc::dynamic(cube()).pose(pose)).unwrap()
            })
            .last()
            .unwrap();
        for _ in 0..600 {
            w.step(1.0 / 60.0).unwrap();
        }
        let t = w.body(top).unwrap().pose().translation.vector;
        let drift = (t.x * t.x + t.z * t.z).sqrt();
        assert!(drift < 1e-3, "drifted {drift} m");
        assert!(9.5 - t.y < 0.05, "sank {} m", 9.5 - t.y);
    }

    comparisons!(6, 3);
}
