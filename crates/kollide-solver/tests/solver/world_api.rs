//! The world's body API: teleports, forces, torques, impulses, kinematic targets and property
//! setters do what they say, and every refused call (bad numbers, the wrong kind of body, a
//! stale handle) returns a typed error and leaves the world bit for bit as it was (its whole
//! `Debug` text, every buffer included, hashed before and after).

use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
use kollide_narrowphase::Ray;
use kollide_shapes::{Ball, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, BodyKind, CollisionGroups, QueryFilter, StepSettings, World, World2,
    World3, WorldError,
};

mod sleeping;

/// FNV-1a of the world's whole `Debug` text.
fn hash<N: kollide_solver::LaneScalar, const D: usize>(w: &World<N, D>) -> u64
where
    kollide_solver::Dim<D>: kollide_solver::SolverDim<N, D>,
{
    let mut h = 0xcbf2_9ce4_8422_2325_u64;
    for byte in format!("{w:?}").bytes() {
        h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A ground, a dynamic box, a kinematic box and a static ball, stepped a few times so that
/// every buffer holds something.
fn scene() -> (World2<f32>, [BodyHandle; 4]) {
    let mut w = World2::<f32>::new(Vec2::new(0.0, -10.0)).unwrap();
    let s = StepSettings { contact_events: true, hit_event_threshold: Some(0.5), ..*w.settings() };
    w.set_settings(s).unwrap();
    let ground = Cuboid::new(Vec2::new(10.0, 0.5)).unwrap();
    let g = w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
    let b = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    let d = w.add(BodyDesc::dynamic(b).pose(Iso2::translation(0.0, 0.6))).unwrap();
    let k = w.add(BodyDesc::kinematic(b).pose(Iso2::translation(3.0, 2.0))).unwrap();
    let ball = Ball::new(0.5).unwrap();
    let s = w.add(BodyDesc::fixed(ball).pose(Iso2::translation(-3.0, 2.0))).unwrap();
    for _ in 0..5 {
        w.step(1.0 / 60.0).unwrap();
    }
    (w, [g, d, k, s])
}

#[test]
fn refused_calls_leave_the_world_bit_identical() {
    let (mut w, [g, d, k, s]) = scene();
    let stale = w.add(BodyDesc::fixed(Ball::new(1.0).unwrap())).unwrap();
    w.remove(stale).unwrap();
    let nan = f32::NAN;
    let before = hash(&w);
    type Call = Box<dyn Fn(&mut World2<f32>) -> Result<(), WorldError>>;
    let calls: Vec<(&str, Call)> = vec![
        ("NaN pose", Box::new(move |w| w.set_pose(d, Iso2::translation(nan, 0.0)))),
        ("far pose", Box::new(move |w| w.set_pose(d, Iso2::translation(1e6, 0.0)))),
        ("stale pose", Box::new(move |w| w.set_pose(stale, Iso2::identity()))),
        ("NaN force", Box::new(move |w| w.apply_force(d, Vec2::new(nan, 0.0)))),
        ("huge force", Box::new(move |w| w.apply_force(d, Vec2::new(1e30, 0.0)))),
        ("force on static", Box::new(move |w| w.apply_force(g, Vec2::new(1.0, 0.0)))),
        ("force on kinematic", Box::new(move |w| w.apply_force(k, Vec2::new(1.0, 0.0)))),
        (
            "NaN force point",
            Box::new(move |w| w.apply_force_at(d, Vec2::new(1.0, 0.0), Point2::new(0.0, nan))),
        ),
        ("inf torque", Box::new(move |w| w.apply_torque(d, f32::INFINITY))),
        ("huge torque", Box::new(move |w| w.apply_torque(d, 1e30))),
        ("NaN impulse", Box::new(move |w| w.apply_impulse(d, Vec2::new(0.0, nan)))),
        ("fast impulse", Box::new(move |w| w.apply_impulse(d, Vec2::new(1e8, 0.0)))),
        ("impulse on static", Box::new(move |w| w.apply_impulse(s, Vec2::new(1.0, 0.0)))),
        ("spin impulse", Box::new(move |w| w.apply_angular_impulse(d, 1e9))),
        (
            "far impulse point",
            Box::new(move |w| w.apply_impulse_at(d, Vec2::new(1.0, 0.0), Point2::new(0.0, 1e30))),
        ),
        ("target of dynamic", Box::new(move |w| w.set_kinematic_target(d, Iso2::identity()))),
        ("NaN target", Box::new(move |w| w.set_kinematic_target(k, Iso2::translation(nan, 0.0)))),
        ("negative friction", Box::new(move |w| w.set_friction(d, -0.1))),
        ("NaN friction", Box::new(move |w| w.set_friction(d, nan))),
        ("restitution 2", Box::new(move |w| w.set_restitution(d, 2.0))),
        ("negative damping", Box::new(move |w| w.set_damping(d, 0.1, -1.0))),
        ("gravity scale 1e3", Box::new(move |w| w.set_gravity_scale(d, 1e3))),
        ("zero density", Box::new(move |w| w.set_density(d, 0.0))),
        ("huge density", Box::new(move |w| w.set_density(d, 1e30))),
        ("stale friction", Box::new(move |w| w.set_friction(stale, 0.5))),
        ("stale groups", Box::new(move |w| w.set_collision_groups(stale, CollisionGroups::NONE))),
        ("stale user data", Box::new(move |w| w.set_user_data(stale, 7))),
        ("negative hit threshold", Box::new(move |w| w.set_hit_event_threshold(d, Some(-1.0)))),
        ("NaN hit threshold", Box::new(move |w| w.set_hit_event_threshold(d, Some(nan)))),
        ("huge hit threshold", Box::new(move |w| w.set_hit_event_threshold(d, Some(1e9)))),
        ("stale hit threshold", Box::new(move |w| w.set_hit_event_threshold(stale, None))),
        ("stale sensor", Box::new(move |w| w.set_sensor(stale, true))),
    ];
    for (what, call) in &calls {
        assert!(call(&mut w).is_err(), "{what} was accepted");
        assert_eq!(hash(&w), before, "{what} changed the world");
    }
    assert!(matches!(
        w.apply_force(g, Vec2::new(1.0, 0.0)),
        Err(WorldError::WrongKind { needed: BodyKind::Dynamic, actual: BodyKind::Static })
    ));
    // The same calls with good input are accepted and change it.
    w.set_friction(d, 0.3).unwrap();
    assert_ne!(hash(&w), before);
}

#[test]
fn setters_change_the_body() {
    let (mut w, [_, d, ..]) = scene();
    let m = w.body(d).unwrap().mass();
    w.set_density(d, 3.0).unwrap();
    assert!((w.body(d).unwrap().mass() - 3.0 * m).abs() < 1e-5);
    w.set_friction(d, 0.2).unwrap();
    w.set_restitution(d, 0.4).unwrap();
    w.set_damping(d, 0.5, 0.25).unwrap();
    w.set_gravity_scale(d, -1.0).unwrap();
    w.set_user_data(d, u128::MAX - 1).unwrap();
    let groups = CollisionGroups::NONE;
    w.set_collision_groups(d, groups).unwrap();
    let b = w.body(d).unwrap();
    let desc = b.desc();
    assert_eq!((desc.friction, desc.restitution), (0.2, 0.4));
    assert_eq!((desc.linear_damping, desc.angular_damping, desc.gravity_scale), (0.5, 0.25, -1.0));
    assert_eq!((b.user_data(), b.collision_groups()), (u128::MAX - 1, groups));
    // With gravity reversed and its contacts filtered out, the box rises through nothing.
    let y0 = w.body(d).unwrap().pose().translation.y;
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    let y = w.body(d).unwrap().pose().translation.y;
    assert!(y > y0 + 2.0, "{y0} -> {y}");
    assert!(w.contact_pairs().iter().all(|p| p.a != d && p.b != d));
}

#[test]
fn set_pose_teleports_and_the_queries_follow() {
    let (mut w, [_, d, ..]) = scene();
    let v = w.body(d).unwrap().linear_velocity();
    w.set_pose(d, Iso2::new(Vec2::new(50.0, 20.0), 0.3)).unwrap();
    let b = w.body(d).unwrap();
    assert_eq!(b.pose().translation.vector, Vec2::new(50.0, 20.0));
    assert_eq!(b.linear_velocity(), v, "the velocity is kept");
    let ray = Ray { origin: Point2::new(50.0, 30.0), dir: Vec2::new(0.0, -1.0) };
    let hit = w.cast_ray(&ray, 100.0, &QueryFilter::new()).unwrap().expect("the ray hits");
    assert_eq!(hit.body, d);
    let ray = Ray { origin: Point2::new(0.0, 5.0), dir: Vec2::new(0.0, -1.0) };
    let hit = w.cast_ray(&ray, 100.0, &QueryFilter::new()).unwrap().expect("the ground");
    assert_ne!(hit.body, d, "the old place is empty");
    w.step(1.0 / 60.0).unwrap();
    assert!(w.body(d).unwrap().pose().translation.y < 20.0);
}

#[test]
fn forces_and_impulses_change_velocities_by_f_dt_over_m() {
    let mut w = World2::<f64>::new(Vec2::zeros()).unwrap();
    let b = Cuboid::new(Vec2::new(0.5, 0.25)).unwrap();
    let d = w.add(BodyDesc::dynamic(b).density(2.0)).unwrap();
    let m = w.body(d).unwrap().mass(); // 2 · 1 · 0.5 = 1 kg
    let inertia = m * (1.0 + 0.25) / 12.0;
    let dt = 0.1;
    w.apply_force(d, Vec2::new(3.0, 0.0)).unwrap();
    w.apply_force(d, Vec2::new(1.0, 0.0)).unwrap();
    w.apply_torque(d, 0.5).unwrap();
    w.step(dt).unwrap();
    let body = w.body(d).unwrap();
    assert!((body.linear_velocity().x - 4.0 * dt / m).abs() < 1e-12);
    assert!((body.angular_velocity() - 0.5 * dt / inertia).abs() < 1e-9);
    // Forces last one step.
    w.step(dt).unwrap();
    assert!((w.body(d).unwrap().linear_velocity().x - 4.0 * dt / m).abs() < 1e-12);
    // An off-centre force turns the body: F = (0, 1) at (1, 0) from the centre gives τ = 1.
    let w0 = w.body(d).unwrap().angular_velocity();
    let c = w.body(d).unwrap().center_of_mass();
    w.apply_force_at(d, Vec2::new(0.0, 1.0), c + Vec2::new(1.0, 0.0)).unwrap();
    w.step(dt).unwrap();
    let dw = w.body(d).unwrap().angular_velocity() - w0;
    assert!((dw - dt / inertia).abs() < 1e-9, "{dw}");
    // Impulses act at once.
    let v0 = w.body(d).unwrap().linear_velocity();
    w.apply_impulse(d, Vec2::new(0.0, 2.0)).unwrap();
    assert!((w.body(d).unwrap().linear_velocity().y - (v0.y + 2.0 / m)).abs() < 1e-12);
    let w1 = w.body(d).unwrap().angular_velocity();
    w.apply_angular_impulse(d, 0.25).unwrap();
    assert!((w.body(d).unwrap().angular_velocity() - (w1 + 0.25 / inertia)).abs() < 1e-9);
    let c = w.body(d).unwrap().center_of_mass();
    let w2 = w.body(d).unwrap().angular_velocity();
    w.apply_impulse_at(d, Vec2::new(1.0, 0.0), c + Vec2::new(0.0, 1.0)).unwrap();
    assert!((w.body(d).unwrap().angular_velocity() - (w2 - 1.0 / inertia)).abs() < 1e-9);
}

#[test]
fn forces_and_impulses_in_3d() {
    let mut w = World3::<f32>::new(Vec3::zeros()).unwrap();
    let ball = Ball::new(0.5).unwrap();
    let d = w.add(BodyDesc::dynamic(ball)).unwrap();
    let m = w.body(d).unwrap().mass();
    let inertia = 0.4 * m * 0.25;
    w.apply_force(d, Vec3::new(0.0, 0.0, 2.0)).unwrap();
    w.apply_torque(d, Vec3::new(0.0, 1.0, 0.0)).unwrap();
    w.step(0.05).unwrap();
    let b = w.body(d).unwrap();
    assert!((b.linear_velocity().z - 2.0 * 0.05 / m).abs() < 1e-5);
    assert!((b.angular_velocity().y - 0.05 / inertia).abs() < 1e-4);
    let c = b.center_of_mass();
    w.apply_impulse_at(d, Vec3::new(1.0, 0.0, 0.0), c + Vec3::new(0.0, 0.5, 0.0)).unwrap();
    let b = w.body(d).unwrap();
    // r × p = (0, 0.5, 0) × (1, 0, 0) = (0, 0, −0.5).
    assert!((b.angular_velocity().z + 0.5 / inertia).abs() < 1e-4);
}

/// Between steps the broadphase keeps the boxes the last step fitted for the next; a
/// velocity set (or an impulse applied) in between must reach it before the pairs are found.
#[test]
fn a_velocity_set_between_steps_reaches_the_broadphase() {
    type Edit = fn(&mut World2<f32>, BodyHandle);
    let edits: [Edit; 2] = [
        |w, b| w.set_velocity(b, Vec2::new(120.0, 0.0), 0.0).unwrap(),
        |w, b| w.apply_impulse(b, Vec2::new(120.0 * std::f32::consts::PI * 0.25, 0.0)).unwrap(),
    ];
    for edit in edits {
        let mut w = World2::<f32>::new(Vec2::zeros()).unwrap();
        let ball = Ball::new(0.5).unwrap();
        let a = w.add(BodyDesc::dynamic(ball)).unwrap();
        let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(3.0, 0.0))).unwrap();
        for _ in 0..10 {
            w.step(1.0 / 60.0).unwrap();
        }
        assert!(w.contact_pairs().is_empty());
        // 2 m a step: the 2 m gap closes within this step, so the pair must be found now.
        edit(&mut w, a);
        w.step(1.0 / 60.0).unwrap();
        let found = w.contact_pairs().iter().any(|p| (p.a, p.b) == (a, b));
        assert!(found, "the pair is found in the step after the edit");
        assert!(w.body(a).unwrap().pose().translation.x < 2.0 + 1e-3, "A stops at B");
    }
}

#[test]
fn a_kinematic_body_reaches_its_target_pose_in_one_step() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let b = Cuboid::new(Vec2::new(1.0, 0.2)).unwrap();
    let k = w.add(BodyDesc::kinematic(b).pose(Iso2::translation(0.0, 1.0))).unwrap();
    let target = Iso2::new(Vec2::new(0.6, 1.3), 0.2);
    let dt = 1.0 / 30.0;
    w.set_kinematic_target(k, target).unwrap();
    w.step(dt).unwrap();
    let body = w.body(k).unwrap();
    assert_eq!(*body.pose(), target);
    assert!((body.linear_velocity() - Vec2::new(0.6, 0.3) / dt).norm() < 1e-9);
    assert!((body.angular_velocity() - 0.2 / dt).abs() < 1e-9);
    // A box on a lift goes up with it.
    let crate_ = Cuboid::new(Vec2::new(0.3, 0.3)).unwrap();
    let c = w.add(BodyDesc::dynamic(crate_).pose(Iso2::translation(0.6, 1.8))).unwrap();
    for i in 1..=60 {
        let y = 1.3 + 0.02 * i as f64;
        w.set_kinematic_target(k, Iso2::new(Vec2::new(0.6, y), 0.0)).unwrap();
        w.step(dt).unwrap();
    }
    let lift = w.body(k).unwrap().pose().translation.y;
    let top = w.body(c).unwrap().pose().translation.y;
    assert!((lift - 2.5).abs() < 1e-12);
    assert!((top - (lift + 0.2 + 0.3)).abs() < 0.05, "the crate rides the lift: {top} vs {lift}");
    // 3D: a turn about an axis.
    let mut w = World3::<f64>::new(Vec3::zeros()).unwrap();
    let k = w.add(BodyDesc::kinematic(Cuboid::new(Vec3::repeat(0.5)).unwrap())).unwrap();
    let target = Iso3::new(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.3, 0.0));
    w.set_kinematic_target(k, target).unwrap();
    w.step(0.5).unwrap();
    let body = w.body(k).unwrap();
    assert_eq!(*body.pose(), target);
    assert!((body.angular_velocity() - Vec3::new(0.0, 0.6, 0.0)).norm() < 1e-9);
    let _ = Point3::<f64>::origin();
}
