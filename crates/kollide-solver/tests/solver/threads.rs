//! Threads: a step gives bit-identical results with any thread count, and the threaded paths
//! really run (the report says how many threads the contact update and the solver used).
//!
//! The pinned hashes fix the reference scenes' state after a number of steps. A change that
//! alters the solver's arithmetic on purpose changes them: the failure message prints the new
//! value to pin, after checking that the scene still behaves (the physics tests).

use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
use kollide_shapes::Cuboid;
use kollide_solver::{
    BodyDesc, JointDesc, RevoluteJoint, SphericalJoint, StepSettings, World, World2, World3,
};

/// FNV-1a over every body's pose and velocities as `Debug` prints them (the shortest decimal
/// that reads back to the same bits, so equal text is equal bits), in slot order.
fn hash<const D: usize>(w: &World<f32, D>) -> u64
where
    kollide_solver::Dim<D>: kollide_solver::SolverDim<f32, D>,
{
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for (_, b) in w.bodies() {
        let text = format!("{:?}{:?}{:?}", b.pose(), b.linear_velocity(), b.angular_velocity());
        for byte in text.bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// A 2D pyramid of unit boxes, base `base`, on a ground box.
fn pyramid2(base: usize) -> World2<f32> {
    let mut w = World2::new(Vec2::new(0.0, -10.0)).unwrap();
    let ground = Cuboid::new(Vec2::new(100.0, 1.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -1.0))).unwrap();
    for row in 0..base {
        for i in 0..base - row {
            let x = (i as f32 - (base - row) as f32 / 2.0 + 0.5) * 1.0;
            let y = 0.5 + row as f32;
            let b = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
            w.add(BodyDesc::dynamic(b).pose(Iso2::translation(x, y))).unwrap();
        }
    }
    w
}

/// A 3D pyramid of unit cubes, square layers of side `base`.
fn pyramid3(base: usize) -> World3<f32> {
    let mut w = World3::new(Vec3::new(0.0, -10.0, 0.0)).unwrap();
    let ground = Cuboid::new(Vec3::new(50.0, 1.0, 50.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -1.0, 0.0))).unwrap();
    for layer in 0..base {
        let side = base - layer;
        for i in 0..side {
            for k in 0..side {
                let at = |j: usize| j as f32 - side as f32 / 2.0 + 0.5;
                let p = Iso3::translation(at(i), 0.5 + layer as f32, at(k));
                let b = Cuboid::new(Vec3::repeat(0.5)).unwrap();
                w.add(BodyDesc::dynamic(b).pose(p)).unwrap();
            }
        }
    }
    w
}

/// Steps `make()` with 1, 2 and 3 threads and returns the common hash; every run must agree
/// after every step, and the threaded runs must have shared the contact update, and the
/// solver's passes when `threaded_solve`. Unless `fast_bodies`, no body may be fast enough
/// to be swept by continuous collision.
fn same_for_any_thread_count<const D: usize>(
    make: impl Fn() -> World<f32, D>,
    steps: usize,
    threaded_solve: bool,
    fast_bodies: bool,
) -> u64
where
    kollide_solver::Dim<D>: kollide_solver::SolverDim<f32, D>,
{
    let mut worlds: Vec<_> = (1..=3)
        .map(|t| {
            let mut w = make();
            w.set_threads(t).unwrap();
            w
        })
        .collect();
    let (mut shared, mut solved) = (0, 0);
    for step in 0..steps {
        let mut hashes = Vec::new();
        for w in &mut worlds {
            let report = w.step(1.0 / 60.0).unwrap();
            assert!(report.contact_threads <= w.threads());
            // No body of the pinned pyramids is fast: continuous collision never runs in them.
            if !fast_bodies {
                assert_eq!(report.continuous_sweeps, 0, "a body was swept at step {step}");
            }
            assert!(report.solve_threads <= w.threads());
            if w.threads() > 1 && report.contact_threads > 1 {
                shared += 1;
            }
            if w.threads() > 1 && report.solve_threads > 1 {
                solved += 1;
            }
            hashes.push(hash(w));
        }
        assert!(hashes.iter().all(|&h| h == hashes[0]), "threads disagree at step {step}");
    }
    assert!(shared >= steps, "the contact update ran on one thread ({shared} threaded steps)");
    if threaded_solve {
        // Both threaded worlds, every step.
        assert_eq!(solved, 2 * steps, "the solver ran on one thread ({solved} threaded steps)");
    }
    hash(&worlds[0])
}

#[test]
fn a_2d_pyramid_is_bit_identical_with_one_two_and_three_threads() {
    // Pair-order waves are too small to share: only the contact update runs threaded.
    let h = same_for_any_thread_count(|| pyramid2(80), 20, false, false);
    assert_eq!(h, 0x25ad_ff5c_7c3c_d2de, "pin the 2D reference hash: {h:#x}");
}

#[test]
fn a_coloured_2d_pyramid_solves_on_threads_bit_identically() {
    let coloured = || {
        let mut w = pyramid2(80);
        w.set_settings(StepSettings { colour_2d: true, ..*w.settings() }).unwrap();
        w
    };
    let h = same_for_any_thread_count(coloured, 20, true, false);
    assert_eq!(h, 0xbf8b_3cb1_42d9_759c, "pin the coloured 2D reference hash: {h:#x}");
}

#[test]
fn a_3d_pyramid_is_bit_identical_with_one_two_and_three_threads() {
    let h = same_for_any_thread_count(|| pyramid3(14), 20, true, false);
    assert_eq!(h, 0x14a8_263b_c740_fc23, "pin the 3D reference hash: {h:#x}");
}

/// Adds `count` chains of eight links, hinged from pins above the pyramid and released
/// horizontally so that they swing into it (2D).
fn chains2(mut w: World2<f32>, count: usize) -> World2<f32> {
    let link = Cuboid::new(Vec2::new(0.25, 0.1)).unwrap();
    for c in 0..count {
        let (x0, y) = (-30.0 + 12.0 * c as f32, 40.0);
        let mut prev = w.add(BodyDesc::fixed(link).pose(Iso2::translation(x0 - 0.25, y))).unwrap();
        for i in 0..8 {
            let x = x0 + 0.25 + 0.5 * i as f32;
            let b = w.add(BodyDesc::dynamic(link).pose(Iso2::translation(x, y))).unwrap();
            let hinge = RevoluteJoint::new(Point2::new(x - 0.25, y));
            w.add_joint(JointDesc::new(prev, b, hinge)).unwrap();
            prev = b;
        }
    }
    w
}

/// Adds `count` chains of eight cubes joined by spherical joints above the pyramid (3D).
fn chains3(mut w: World3<f32>, count: usize) -> World3<f32> {
    let cube = Cuboid::new(Vec3::repeat(0.25)).unwrap();
    for c in 0..count {
        let (x0, y, z) = (-5.0 + 2.5 * c as f32, 13.0, 0.3 * c as f32);
        let pin = Iso3::translation(x0 - 0.5, y, z);
        let mut prev = w.add(BodyDesc::fixed(cube).pose(pin)).unwrap();
        for i in 0..8 {
            let x = x0 + 0.5 * i as f32;
            let b = w.add(BodyDesc::dynamic(cube).pose(Iso3::translation(x, y, z))).unwrap();
            let ball = SphericalJoint::new(Point3::new(x - 0.25, y, z));
            w.add_joint(JointDesc::new(prev, b, ball)).unwrap();
            prev = b;
        }
    }
    w
}

#[test]
fn a_coloured_2d_pyramid_with_chains_is_bit_identical_with_one_two_and_three_threads() {
    let scene = || {
        let mut w = chains2(pyramid2(80), 6);
        w.set_settings(StepSettings { colour_2d: true, ..*w.settings() }).unwrap();
        w
    };
    let h = same_for_any_thread_count(scene, 60, true, true);
    assert_eq!(h, 0x148f_95b9_7c64_6c9d, "pin the jointed 2D reference hash: {h:#x}");
}

#[test]
fn a_3d_pyramid_with_chains_is_bit_identical_with_one_two_and_three_threads() {
    let h = same_for_any_thread_count(|| chains3(pyramid3(14), 4), 60, true, true);
    assert_eq!(h, 0xb43b_f8ee_2c3b_0dff, "pin the jointed 3D reference hash: {h:#x}");
}

#[test]
fn thread_counts_out_of_range_are_refused_and_change_nothing() {
    let mut w = pyramid2(3);
    w.set_threads(2).unwrap();
    assert!(w.set_threads(0).is_err());
    assert!(w.set_threads(usize::MAX).is_err());
    assert_eq!(w.threads(), 2);
}
