//! The 3D world: the same solver as 2D through `Dim<3>`, checked on resting, stacking, a small
//! pyramid, restitution and determinism.

use kollide_math::{Iso3, Vec3};
use kollide_shapes::{Ball, Cuboid};
use kollide_solver::{BodyDesc, BodyHandle, StepSettings, World3};

const DT: f64 = 1.0 / 60.0;

fn world() -> World3<f64> {
    let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
    w.add(
        BodyDesc::fixed(Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap())
            .pose(Iso3::translation(0.0, -0.5, 0.0)),
    )
    .unwrap();
    w
}

fn cube(w: &mut World3<f64>, x: f64, y: f64, z: f64) -> BodyHandle {
    w.add(
        BodyDesc::dynamic(Cuboid::new(Vec3::repeat(0.5)).unwrap()).pose(Iso3::translation(x, y, z)),
    )
    .unwrap()
}

fn run(w: &mut World3<f64>, seconds: f64) {
    for _ in 0..(seconds / DT).round() as usize {
        w.step(DT).unwrap();
    }
}

#[test]
fn dropped_cube_rests_at_the_right_height() {
    let mut w = world();
    let c = w
        .add(
            BodyDesc::dynamic(Cuboid::new(Vec3::repeat(0.5)).unwrap())
                .pose(Iso3::new(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, 0.3, 0.0))),
        )
        .unwrap();
    run(&mut w, 3.0);
    let b = w.body(c).unwrap();
    assert!(
        (b.pose().translation.vector.y - 0.5).abs() < 0.01,
        "{}",
        b.pose().translation.vector.y
    );
    assert!(b.linear_velocity().norm() < 1e-3);
    assert!(b.angular_velocity().norm() < 1e-3);
}

#[test]
fn stack_of_ten_cubes_stands() {
    let mut w = world();
    let cubes: Vec<_> = (0..10).map(|i| cube(&mut w, 0.0, 0.5 + i as f64, 0.0)).collect();
    run(&mut w, 10.0);
    let top = w.body(cubes[9]).unwrap().pose().translation.vector;
    let drift = (top.x * top.x + top.z * top.z).sqrt();
    eprintln!("3D stack of 10: sideways {drift:.2e} m, sunk {:.4} m", 9.5 - top.y);
    assert!(drift < 1e-3, "drifted {drift} m");
    assert!(9.5 - top.y < 0.05);
}

#[test]
fn small_pyramid_stands() {
    let mut w = world();
    let mut boxes = Vec::new();
    let base = 6;
    for row in 0..base {
        for i in 0..(base - row) {
            let x = i as f64 - (base - row) as f64 / 2.0 + 0.5;
            let y = 0.5 + row as f64;
            boxes.push((cube(&mut w, x, y, 0.0), Vec3::new(x, y, 0.0)));
        }
    }
    run(&mut w, 5.0);
    for (h, start) in boxes {
        let p = w.body(h).unwrap().pose().translation.vector;
        assert!((p - start).norm() < 0.03, "moved {:?}", p - start);
    }
}

#[test]
fn a_ball_bounces_with_restitution_one() {
    let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
    w.add(
        BodyDesc::fixed(Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap())
            .pose(Iso3::translation(0.0, -0.5, 0.0))
            .restitution(1.0),
    )
    .unwrap();
    let b = w
        .add(
            BodyDesc::dynamic(Ball::new(0.25).unwrap())
                .pose(Iso3::translation(0.0, 2.25, 0.0))
                .restitution(1.0),
        )
        .unwrap();
    let mut bounced = false;
    let mut apex: f64 = 0.0;
    for _ in 0..240 {
        w.step(DT).unwrap();
        let body = w.body(b).unwrap();
        if body.linear_velocity().y > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(body.pose().translation.vector.y);
        }
    }
    assert!(apex - 0.25 >= 0.95 * 2.0, "rebounded to {}", apex - 0.25);
}

#[test]
fn same_scene_twice_is_bit_identical() {
    let run_once = || {
        let mut w = world();
        for i in 0..20 {
            w.add(BodyDesc::dynamic(Cuboid::new(Vec3::new(0.4, 0.3, 0.5)).unwrap()).pose(
                Iso3::new(
                    Vec3::new((i % 3) as f64 * 0.3, 1.0 + i as f64, 0.1 * i as f64),
                    Vec3::new(0.1 * i as f64, 0.2, 0.0),
                ),
            ))
            .unwrap();
        }
        run(&mut w, 2.0);
        w.bodies()
            .map(|(_, b)| b.pose().translation.vector.x.to_bits() ^ b.pose().rotation.w.to_bits())
            .fold(0u64, |h, x| h.rotate_left(5) ^ x)
    };
    assert_eq!(run_once(), run_once());
}

/// A unit cube on a slope of angle θ (about the z axis) with friction μ (both bodies). Returns
/// its displacement down the slope after `t` seconds beyond the part due to its velocity when
/// timing starts (0.1 s after release, once the contact has settled).
fn slide(theta: f64, mu: f64, t: f64) -> f64 {
    let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
    let axis = Vec3::z() * theta;
    let rot = Iso3::rotation(axis);
    let slope = Cuboid::new(Vec3::new(50.0, 0.5, 50.0)).unwrap();
    let at = |y: f64| Iso3::new(rot * Vec3::new(0.0, y, 0.0), axis);
    w.add(BodyDesc::fixed(slope).pose(at(-0.5)).friction(mu)).unwrap();
    let cube = Cuboid::new(Vec3::repeat(0.5)).unwrap();
    let b = w.add(BodyDesc::dynamic(cube).pose(at(0.5)).friction(mu)).unwrap();
    run(&mut w, 0.1);
    let p0 = w.body(b).unwrap().pose().translation.vector;
    let v0 = w.body(b).unwrap().linear_velocity();
    run(&mut w, t);
    let down = rot * Vec3::new(-1.0, 0.0, 0.0);
    let d = (w.body(b).unwrap().pose().translation.vector - p0).dot(&down);
    d - v0.dot(&down) * t
}

#[test]
fn friction_holds_or_slides_with_the_right_acceleration() {
    // Friction acts on the whole face (a patch at the points' centroid, see the solver's
    // notes): the same Coulomb law as point by point.
    let theta = 20f64.to_radians();
    let held = slide(theta, 0.5, 2.0);
    assert!(held.abs() < 1e-3, "cube with μ > tanθ slid {held} m");
    let (mu, t) = (0.2, 2.0);
    let d = slide(theta, mu, t);
    let expected = 9.81 * (theta.sin() - mu * theta.cos());
    let a = 2.0 * d / (t * t);
    eprintln!("3D slope: a = {a:.4} vs {expected:.4}");
    assert!((a - expected).abs() / expected < 0.02, "a = {a}, expected {expected}");
}

/// A unit cube resting on the ground, spun about the vertical at `spin` rad/s with friction
/// `mu`; returns its spin and its sideways drift after `t` seconds.
fn spin_down(mu: f64, spin: f64, t: f64) -> (f64, f64) {
    let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
    let ground = Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -0.5, 0.0)).friction(mu)).unwrap();
    let cube = Cuboid::new(Vec3::repeat(0.5)).unwrap();
    let b = w.add(BodyDesc::dynamic(cube).pose(Iso3::translation(0.0, 0.5, 0.0)).friction(mu));
    let b = b.unwrap();
    // Settle, then spin.
    run(&mut w, 0.5);
    let desc = w.body(b).unwrap().desc().clone().angular_velocity(Vec3::new(0.0, spin, 0.0));
    w.remove(b).unwrap();
    let b = w.add(desc).unwrap();
    run(&mut w, t);
    let body = w.body(b).unwrap();
    let p = body.pose().translation.vector;
    (body.angular_velocity().y, (p.x * p.x + p.z * p.z).sqrt())
}

#[test]
fn twist_friction_stops_a_spinning_cube_at_the_coulomb_rate() {
    // The twist limit is μ Σ λᵢ rᵢ: with the four corners at r = √2/2 from the centre, the
    // cube (I = m/6) spins down at α = μ g (√2/2) · 6, as it would with friction at each corner.
    let (mu, spin) = (0.6, 5.0);
    let alpha = mu * 9.81 * 0.5f64.sqrt() * 6.0;
    let (w_half, _) = spin_down(mu, spin, 0.1);
    let expected = spin - alpha * 0.1;
    eprintln!("spin after 0.1 s: {w_half:.4} rad/s vs {expected:.4}");
    assert!((w_half - expected).abs() < 0.05 * spin, "spin {w_half}, expected {expected}");
    let (w_end, drift) = spin_down(mu, spin, 1.0);
    assert!(w_end.abs() < 1e-3, "still spinning at {w_end} rad/s");
    assert!(drift < 1e-3, "drifted {drift} m while spinning down");
    // Without friction nothing resists the spin.
    let (w_free, _) = spin_down(0.0, spin, 1.0);
    assert!((w_free - spin).abs() < 1e-3 * spin, "frictionless spin fell to {w_free}");
}

/// Square layers of unit cubes, `base` on a side at the bottom, run for `seconds`; returns the
/// cubes' final positions.
fn cube_pyramid(base: usize, seconds: f64, reuse: f64) -> Vec<Vec3<f64>> {
    let mut w = world();
    let settings = StepSettings { manifold_reuse_distance: reuse, ..*w.settings() };
    w.set_settings(settings).unwrap();
    let mut boxes = Vec::new();
    for layer in 0..base {
        let n = base - layer;
        for i in 0..n {
            for k in 0..n {
                let x = i as f64 - n as f64 / 2.0 + 0.5;
                let z = k as f64 - n as f64 / 2.0 + 0.5;
                boxes.push(cube(&mut w, x, 0.5 + layer as f64, z));
            }
        }
    }
    run(&mut w, seconds);
    boxes.iter().map(|&h| w.body(h).unwrap().pose().translation.vector).collect()
}

#[test]
fn reusing_manifolds_changes_a_pyramid_by_less_than_the_tolerance() {
    // Manifolds kept while the bodies move less than 1 mm relative to each other (the default)
    // against computed every step: the same pyramid within a fraction of a millimetre.
    let kept = cube_pyramid(5, 3.0, 1e-3);
    let fresh = cube_pyramid(5, 3.0, 0.0);
    let worst = kept.iter().zip(&fresh).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
    eprintln!("pyramid with and without manifold reuse: {worst:.2e} m apart at most");
    assert!(worst < 5e-4, "{worst} m apart");
}
