//! The pre-solve contact hook: disabling a contact lets bodies through and drops its impulses,
//! friction and restitution overrides change how it is solved, a tangent velocity carries a body
//! (2D point friction and the 3D friction patch, `f32` lanes and `f64`), the hook's setters
//! refuse bad input, and a step with a hook is deterministic for any thread count (as are the
//! events). A no-op hook changes nothing, bit for bit.

use kollide_math::{Iso2, Iso3, Vec2, Vec3};
use kollide_shapes::{Ball, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, ContactHook, Dim, LaneScalar, PreSolve, SolverDim, StepSettings, World,
    World2, World3,
};

/// FNV-1a of every body's pose and velocities, as `Debug` prints them.
fn hash<N: LaneScalar, const D: usize>(w: &World<N, D>) -> u64
where
    Dim<D>: SolverDim<N, D>,
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

fn ground_and_box() -> (World2<f64>, BodyHandle, BodyHandle) {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let ground = Cuboid::new(Vec2::new(10.0, 0.5)).unwrap();
    let g = w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
    let b = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    let b = w.add(BodyDesc::dynamic(b).pose(Iso2::translation(0.0, 0.5))).unwrap();
    (w, g, b)
}

#[test]
fn a_disabled_contact_pushes_nothing_and_keeps_its_manifold() {
    let (mut w, _, b) = ground_and_box();
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(w.contact_pairs()[0].manifold.contacts().iter().any(|c| c.user.normal > 0.0));
    let mut calls = 0;
    let mut off = |c: &mut PreSolve<'_, f64, 2>| {
        calls += 1;
        assert!(c.is_enabled() && !c.manifold().is_empty());
        c.disable();
        assert!(!c.is_enabled());
    };
    w.step_with_hook(1.0 / 60.0, &mut off).unwrap();
    let pair = &w.contact_pairs()[0];
    assert!(!pair.manifold.is_empty(), "the manifold stays");
    assert!(pair.manifold.contacts().iter().all(|c| c.user.normal == 0.0), "impulses dropped");
    for _ in 0..30 {
        w.step_with_hook(1.0 / 60.0, &mut off).unwrap();
    }
    assert!(calls >= 2);
    assert!(w.body(b).unwrap().pose().translation.y < -0.5, "it sank through the ground");
}

#[test]
fn friction_and_restitution_overrides_apply() {
    // A box sliding at 3 m/s: with the hook's zero friction it keeps its speed.
    let (mut w, _, b) = ground_and_box();
    w.set_velocity(b, Vec2::new(3.0, 0.0), 0.0).unwrap();
    let mut ice = |c: &mut PreSolve<'_, f64, 2>| {
        assert!((c.friction() - 0.6).abs() < 1e-12, "the mixed default");
        c.set_friction(0.0).unwrap();
    };
    for _ in 0..30 {
        w.step_with_hook(1.0 / 60.0, &mut ice).unwrap();
    }
    assert!((w.body(b).unwrap().linear_velocity().x - 3.0).abs() < 1e-6);
    // Without the hook, friction stops it.
    let (mut w, _, b) = ground_and_box();
    w.set_velocity(b, Vec2::new(3.0, 0.0), 0.0).unwrap();
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(w.body(b).unwrap().linear_velocity().x.abs() < 1e-3);
    // A dropped ball bounces back up with the hook's restitution 1, not at all with 0.
    for (e, bounces) in [(1.0, true), (0.0, false)] {
        let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
        let ground = Cuboid::new(Vec2::new(10.0, 0.5)).unwrap();
        w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
        let ball = Ball::new(0.25).unwrap();
        let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(0.0, 2.0))).unwrap();
        let mut bouncy = |c: &mut PreSolve<'_, f64, 2>| {
            assert_eq!(c.restitution(), 0.0);
            c.set_restitution(e).unwrap();
        };
        let mut highest_after_bounce = f64::MIN;
        let mut bounced = false;
        for _ in 0..90 {
            w.step_with_hook(1.0 / 60.0, &mut bouncy).unwrap();
            let body = w.body(b).unwrap();
            bounced |= body.linear_velocity().y > 1.0;
            if bounced {
                highest_after_bounce = highest_after_bounce.max(body.pose().translation.y);
            }
        }
        assert_eq!(bounced, bounces, "restitution {e}");
        if bounces {
            assert!(highest_after_bounce > 1.5, "{highest_after_bounce}");
        }
    }
}

#[test]
fn hook_setters_refuse_bad_input_and_change_nothing() {
    let (mut w, g, b) = ground_and_box();
    let mut checked = 0;
    let mut hook = |c: &mut PreSolve<'_, f64, 2>| {
        assert_eq!((c.a(), c.b()), (g, b));
        assert_eq!(c.body_a().kind(), kollide_solver::BodyKind::Static);
        assert_eq!(c.body_b().kind(), kollide_solver::BodyKind::Dynamic);
        assert!((c.normal() - Vec2::new(0.0, 1.0)).norm() < 1e-9);
        let before = (c.friction(), c.restitution(), c.tangent_velocity());
        assert!(c.set_friction(-1.0).is_err());
        assert!(c.set_friction(f64::NAN).is_err());
        assert!(c.set_friction(1e4).is_err());
        assert!(c.set_restitution(1.5).is_err());
        assert!(c.set_restitution(-0.1).is_err());
        assert!(c.set_tangent_velocity(Vec2::new(f64::INFINITY, 0.0)).is_err());
        assert!(c.set_tangent_velocity(Vec2::new(1e9, 0.0)).is_err());
        assert_eq!(before, (c.friction(), c.restitution(), c.tangent_velocity()));
        checked += 1;
    };
    w.step_with_hook(1.0 / 60.0, &mut hook).unwrap();
    assert_eq!(checked, 1);
}

/// A box on a static belt whose hook sets the tangent velocity `v` is carried at `v`.
fn carried_at_belt_speed<N: LaneScalar, const D: usize>(
    mut w: World<N, D>,
    belt: BodyHandle,
    b: BodyHandle,
    v: kollide_math::Vector<N, D>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let mut hook = |c: &mut PreSolve<'_, N, D>| {
        let t = if c.a() == belt { v } else { -v };
        c.set_tangent_velocity(t).unwrap();
    };
    let dt = N::lit(1.0 / 60.0);
    for _ in 0..90 {
        w.step_with_hook(dt, &mut hook).unwrap();
    }
    let got = w.body(b).unwrap().linear_velocity();
    assert!((got - v).norm() < N::lit(0.01) * v.norm(), "{got:?} vs {v:?}");
}

macro_rules! belt_tests {
    ($name2:ident, $name3:ident, $n:ty) => {
        #[test]
        fn $name2() {
            let mut w = World2::<$n>::new(Vec2::new(0.0, -10.0)).unwrap();
            let belt = Cuboid::new(Vec2::new(20.0, 0.25)).unwrap();
            let belt = w.add(BodyDesc::fixed(belt).pose(Iso2::translation(0.0, -0.25))).unwrap();
            let b = Cuboid::new(Vec2::new(0.4, 0.3)).unwrap();
            let b = w.add(BodyDesc::dynamic(b).pose(Iso2::translation(-3.0, 0.3))).unwrap();
            carried_at_belt_speed(w, belt, b, Vec2::new(-1.5, 0.0));
        }

        #[test]
        fn $name3() {
            let mut w = World3::<$n>::new(Vec3::new(0.0, -10.0, 0.0)).unwrap();
            let belt = Cuboid::new(Vec3::new(20.0, 0.25, 20.0)).unwrap();
            let belt =
                w.add(BodyDesc::fixed(belt).pose(Iso3::translation(0.0, -0.25, 0.0))).unwrap();
            let b = Cuboid::new(Vec3::new(0.4, 0.3, 0.5)).unwrap();
            let b = w.add(BodyDesc::dynamic(b).pose(Iso3::translation(0.0, 0.3, 0.0))).unwrap();
            carried_at_belt_speed(w, belt, b, Vec3::new(1.0, 0.0, -0.8));
        }
    };
}

belt_tests!(a_2d_belt_carries_a_box_f32, a_3d_belt_carries_a_box_f32, f32);
belt_tests!(a_2d_belt_carries_a_box_f64, a_3d_belt_carries_a_box_f64, f64);

/// A pile of boxes in 2D with many pairs.
fn pile() -> World2<f32> {
    let mut w = World2::new(Vec2::new(0.0, -10.0)).unwrap();
    let s = StepSettings { contact_events: true, hit_event_threshold: Some(0.5), ..*w.settings() };
    w.set_settings(s).unwrap();
    let ground = Cuboid::new(Vec2::new(100.0, 1.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -1.0))).unwrap();
    for row in 0..70 {
        for i in 0..70 - row {
            let x = i as f32 - (70 - row) as f32 / 2.0 + 0.5 + 0.01 * row as f32;
            let b = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
            w.add(BodyDesc::dynamic(b).pose(Iso2::translation(x, 0.55 + 1.02 * row as f32)))
                .unwrap();
        }
    }
    let zone = Cuboid::new(Vec2::new(5.0, 3.0)).unwrap();
    w.add(BodyDesc::fixed(zone).pose(Iso2::translation(0.0, 5.0)).sensor(true)).unwrap();
    w
}

/// A hook that changes every third contact: off, slippery, or a surface velocity.
struct Meddler;

impl ContactHook<f32, 2> for Meddler {
    fn pre_solve(&mut self, c: &mut PreSolve<'_, f32, 2>) {
        match (c.a().index() + c.b().index()) % 9 {
            0 => c.disable(),
            3 => c.set_friction(0.1).unwrap(),
            6 => c.set_tangent_velocity(Vec2::new(0.2, 0.0)).unwrap(),
            _ => {}
        }
    }
}

#[test]
fn hooks_and_events_are_the_same_for_any_thread_count() {
    let mut worlds: Vec<World2<f32>> = (1..=3)
        .map(|t| {
            let mut w = pile();
            w.set_threads(t).unwrap();
            w
        })
        .collect();
    let (mut events, mut shared) = (0, 0);
    for step in 0..30 {
        let mut seen = Vec::new();
        for w in &mut worlds {
            let report = w.step_with_hook(1.0 / 60.0, &mut Meddler).unwrap();
            shared += usize::from(report.contact_threads > 1);
            let e = w.events();
            let text = format!(
                "{:?}{:?}{:?}{:?}{:?}",
                e.contact_begin(),
                e.contact_end(),
                e.sensor_begin(),
                e.sensor_end(),
                e.hits()
            );
            seen.push((hash(w), text));
        }
        assert!(seen.iter().all(|s| *s == seen[0]), "threads disagree at step {step}");
        events += worlds[0].events().contact_begin().len();
    }
    assert!(events > 1000, "{events} contacts began");
    assert!(shared >= 30, "the contact update ran on one thread ({shared} threaded steps)");
}

#[test]
fn a_hook_that_changes_nothing_changes_nothing() {
    let (mut a, _, _) = ground_and_box();
    let (mut b, _, _) = ground_and_box();
    let mut calls = 0;
    let mut nothing = |_: &mut PreSolve<'_, f64, 2>| calls += 1;
    for _ in 0..60 {
        a.step(1.0 / 60.0).unwrap();
        b.step_with_hook(1.0 / 60.0, &mut nothing).unwrap();
        assert_eq!(hash(&a), hash(&b));
    }
    // The box rests, so it falls asleep after `time_to_sleep` (half a second), and a hook
    // sees no pair of a sleeping body.
    assert!(calls >= 30, "{calls}");
}
