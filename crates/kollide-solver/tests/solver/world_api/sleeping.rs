//! Islands and sleeping: piles fall asleep and stay put, the step leaves sleeping bodies out
//! (the report counts what it solved), and contacts, joints and every user change wake them.

use kollide_math::{Iso2, Iso3, Point2, Vec2, Vec3};
use kollide_shapes::{Ball, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, BodyKind, Dim, DistanceJoint, JointDesc, LaneScalar, SolverDim,
    StepReport, StepSettings, World, World2, World3, WorldError,
};

use super::hash;

/// Steps `w` at 60 Hz until every body in `bodies` sleeps, for at most `seconds`; returns the
/// last report and the time it took.
fn step_until_asleep<N: LaneScalar, const D: usize>(
    w: &mut World<N, D>,
    bodies: &[BodyHandle],
    seconds: f64,
) -> (StepReport, f64)
where
    Dim<D>: SolverDim<N, D>,
{
    for i in 0..(seconds * 60.0) as usize {
        let report = w.step(N::lit(1.0 / 60.0)).unwrap();
        if bodies.iter().all(|&b| w.is_sleeping(b).unwrap()) {
            return (report, (i + 1) as f64 / 60.0);
        }
    }
    let awake = bodies.iter().filter(|&&b| !w.is_sleeping(b).unwrap()).count();
    panic!("{awake} of {} bodies still awake after {seconds} s", bodies.len());
}

/// The bodies' centres of mass, as text (bit for bit).
fn centres<N: LaneScalar, const D: usize>(w: &World<N, D>, bodies: &[BodyHandle]) -> Vec<String>
where
    Dim<D>: SolverDim<N, D>,
{
    bodies.iter().map(|&b| format!("{:?}", w.body(b).unwrap().center_of_mass())).collect()
}

/// The pile falls asleep within two seconds of settling and then stays asleep and bit for bit
/// still, the step solving nothing for it; a ball fired at it wakes it and moves it.
fn sleeps_then_wakes_when_hit<N: LaneScalar, const D: usize>(
    mut w: World<N, D>,
    pile: &[BodyHandle],
    ball: BodyDesc<N, D>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let (report, took) = step_until_asleep(&mut w, pile, 6.0);
    assert!(took > 0.49, "asleep after {took} s, before time_to_sleep");
    assert_eq!(report.sleeping_bodies, pile.len());
    let before = centres(&w, pile);
    for _ in 0..30 {
        let r = w.step(N::lit(1.0 / 60.0)).unwrap();
        // The witness that the solver skipped the sleeping pile.
        assert_eq!((r.awake_bodies, r.contacts, r.touching_pairs), (0, 0, 0), "{r:?}");
        assert_eq!(r.asleep_pairs, r.pairs, "{r:?}");
    }
    assert_eq!(centres(&w, pile), before);
    assert!(pile.iter().all(|&b| w.body(b).unwrap().is_sleeping()));
    w.add(ball).unwrap();
    let mut woke = false;
    for _ in 0..60 {
        let asleep: Vec<bool> = pile.iter().map(|&b| w.is_sleeping(b).unwrap()).collect();
        w.step(N::lit(1.0 / 60.0)).unwrap();
        for (&b, was) in pile.iter().zip(asleep) {
            let (reported, awake) = (w.events().woke().contains(&b), !w.is_sleeping(b).unwrap());
            if was {
                assert_eq!(reported, awake, "the wake of {b:?}");
            }
        }
        woke |= pile.iter().any(|&b| !w.is_sleeping(b).unwrap());
    }
    assert!(woke, "the hit woke nothing");
    let moved = centres(&w, pile).iter().zip(&before).filter(|(a, b)| a != b).count();
    assert!(moved > 0, "the hit moved nothing");
}

/// A 2D pyramid of `rows` unit boxes on a ground, and its boxes.
fn pyramid2<N: LaneScalar>(rows: usize) -> (World2<N>, Vec<BodyHandle>) {
    let mut w = World2::new(Vec2::new(N::zero(), N::lit(-10.0))).unwrap();
    let ground = Cuboid::new(Vec2::new(N::lit(40.0), N::lit(0.5))).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(N::zero(), N::lit(-0.5)))).unwrap();
    let unit = Cuboid::new(Vec2::new(N::lit(0.5), N::lit(0.5))).unwrap();
    let mut boxes = Vec::new();
    for row in 0..rows {
        for i in 0..rows - row {
            let x = i as f64 - (rows - row - 1) as f64 * 0.5;
            let pose = Iso2::translation(N::lit(x), N::lit(0.5 + row as f64));
            boxes.push(w.add(BodyDesc::dynamic(unit).pose(pose)).unwrap());
        }
    }
    (w, boxes)
}

/// A 3D pyramid of three rows of unit boxes (six) on a ground, and its boxes.
fn pyramid3<N: LaneScalar>() -> (World3<N>, Vec<BodyHandle>) {
    let mut w = World3::new(Vec3::new(N::zero(), N::lit(-10.0), N::zero())).unwrap();
    let ground = Cuboid::new(Vec3::new(N::lit(20.0), N::lit(0.5), N::lit(20.0))).unwrap();
    let down = Iso3::translation(N::zero(), N::lit(-0.5), N::zero());
    w.add(BodyDesc::fixed(ground).pose(down)).unwrap();
    let unit = Cuboid::new(Vec3::new(N::lit(0.5), N::lit(0.5), N::lit(0.5))).unwrap();
    let mut boxes = Vec::new();
    for row in 0..3 {
        for i in 0..3 - row {
            let x = i as f64 * 1.05 - (2 - row) as f64 * 0.525;
            let pose = Iso3::translation(N::lit(x), N::lit(0.5 + row as f64), N::zero());
            boxes.push(w.add(BodyDesc::dynamic(unit).pose(pose)).unwrap());
        }
    }
    (w, boxes)
}

fn pyramid_2d<N: LaneScalar>() {
    let (w, boxes) = pyramid2::<N>(10);
    let ball = BodyDesc::dynamic(Ball::new(N::lit(0.25)).unwrap())
        .pose(Iso2::translation(N::lit(-8.0), N::lit(0.6)))
        .linear_velocity(Vec2::new(N::lit(30.0), N::zero()))
        .density(N::lit(20.0));
    sleeps_then_wakes_when_hit(w, &boxes, ball);
}

fn pyramid_3d<N: LaneScalar>() {
    let (w, boxes) = pyramid3::<N>();
    let ball = BodyDesc::dynamic(Ball::new(N::lit(0.25)).unwrap())
        .pose(Iso3::translation(N::lit(-6.0), N::lit(0.6), N::zero()))
        .linear_velocity(Vec3::new(N::lit(30.0), N::zero(), N::zero()))
        .density(N::lit(20.0));
    sleeps_then_wakes_when_hit(w, &boxes, ball);
}

#[test]
fn pyramid_sleeps_and_wakes_when_hit_2d() {
    pyramid_2d::<f32>();
    pyramid_2d::<f64>();
}

/// With one body kept awake the step runs in full (not skipped as a step with nothing awake
/// is): the sleeping pyramid's pairs are kept without a test and only the awake ball is solved.
#[test]
fn sleeping_bodies_are_skipped_while_others_move() {
    let (mut w, boxes) = pyramid2::<f64>(10);
    step_until_asleep(&mut w, &boxes, 6.0);
    let asleep = w.step(1.0 / 60.0).unwrap().asleep_pairs;
    assert!(asleep > boxes.len(), "{asleep}");
    let before = centres(&w, &boxes);
    let ball = BodyDesc::dynamic(Ball::new(0.5).unwrap()).can_sleep(false);
    let ball = w.add(ball.pose(Iso2::translation(20.0, 0.5))).unwrap();
    for _ in 0..60 {
        let r = w.step(1.0 / 60.0).unwrap();
        assert_eq!((r.awake_bodies, r.sleeping_bodies), (1, boxes.len()), "{r:?}");
        assert_eq!(r.asleep_pairs, asleep, "{r:?}");
        assert!(r.contacts <= 1 && r.touching_pairs <= 1, "{r:?}");
    }
    assert!(!w.is_sleeping(ball).unwrap());
    assert_eq!(centres(&w, &boxes), before);
}

#[test]
fn pyramid_sleeps_and_wakes_when_hit_3d() {
    pyramid_3d::<f32>();
    pyramid_3d::<f64>();
}

/// A stack of two boxes on a ground (f64), stepped until it sleeps: (world, ground, boxes).
fn sleeping_stack() -> (World2<f64>, BodyHandle, [BodyHandle; 2]) {
    let (mut w, boxes) = pyramid2::<f64>(1);
    let ground = w.bodies().find(|(_, b)| b.kind() == BodyKind::Static).unwrap().0;
    let unit = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    let top = w.add(BodyDesc::dynamic(unit).pose(Iso2::translation(0.0, 1.5))).unwrap();
    let stack = [boxes[0], top];
    step_until_asleep(&mut w, &stack, 4.0);
    (w, ground, stack)
}

fn all_awake(w: &World2<f64>, bodies: &[BodyHandle]) -> bool {
    bodies.iter().all(|&b| !w.is_sleeping(b).unwrap())
}

#[test]
fn a_body_dropped_on_a_sleeping_island_wakes_it() {
    let (mut w, _, stack) = sleeping_stack();
    let unit = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    w.add(BodyDesc::dynamic(unit).pose(Iso2::translation(0.2, 4.0))).unwrap();
    let mut woke = false;
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
        woke |= all_awake(&w, &stack);
    }
    assert!(woke);
}

#[test]
fn a_joint_added_or_removed_wakes_its_bodies() {
    let (mut w, _, stack) = sleeping_stack();
    let ball = Ball::new(0.2).unwrap();
    let bob = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(3.0, 1.5))).unwrap();
    step_until_asleep(&mut w, &[bob], 2.0);
    let rope = DistanceJoint::new(Point2::new(0.0, 2.0), Point2::new(3.0, 1.5));
    let j = w.add_joint(JointDesc::new(stack[1], bob, rope)).unwrap();
    assert!(all_awake(&w, &[stack[0], stack[1], bob]));
    // Jointed, they sleep as one island.
    step_until_asleep(&mut w, &[stack[0], stack[1], bob], 6.0);
    w.remove_joint(j).unwrap();
    assert!(all_awake(&w, &[stack[0], stack[1], bob]));
}

#[test]
fn set_velocity_wakes_the_island() {
    let (mut w, _, stack) = sleeping_stack();
    w.set_velocity(stack[1], Vec2::new(1.0, 0.0), 0.0).unwrap();
    assert!(all_awake(&w, &stack), "the box and what it rests on wake");
    w.step(1.0 / 60.0).unwrap();
    assert!(w.body(stack[1]).unwrap().linear_velocity().x > 0.5);
    // Impulses, forces, teleports and property changes wake too.
    type Edit = fn(&mut World2<f64>, BodyHandle) -> Result<(), WorldError>;
    let edits: [Edit; 4] = [
        |w, b| w.apply_impulse(b, Vec2::new(0.1, 0.0)),
        |w, b| w.apply_force(b, Vec2::new(1.0, 0.0)),
        |w, b| w.set_pose(b, *w.body(b).unwrap().pose()),
        |w, b| w.set_friction(b, 0.3),
    ];
    for edit in edits {
        let (mut w, _, stack) = sleeping_stack();
        edit(&mut w, stack[0]).unwrap();
        assert!(all_awake(&w, &stack));
    }
}

#[test]
fn removing_a_body_wakes_what_touched_it() {
    let (mut w, _, stack) = sleeping_stack();
    w.remove(stack[0]).unwrap();
    assert!(!w.is_sleeping(stack[1]).unwrap());
    let y = w.body(stack[1]).unwrap().pose().translation.y;
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(w.body(stack[1]).unwrap().pose().translation.y < y - 0.5, "it falls");
}

#[test]
fn changing_gravity_or_turning_sleep_off_wakes_everything() {
    let (mut w, _, stack) = sleeping_stack();
    w.set_gravity(Vec2::new(0.0, -5.0)).unwrap();
    assert!(all_awake(&w, &stack));
    step_until_asleep(&mut w, &stack, 4.0);
    let off = StepSettings { sleeping: false, ..*w.settings() };
    w.set_settings(off).unwrap();
    assert!(all_awake(&w, &stack));
    for _ in 0..180 {
        let r = w.step(1.0 / 60.0).unwrap();
        assert_eq!((r.awake_bodies, r.sleeping_bodies), (2, 0));
    }
    assert_eq!(w.sleeping_bodies(), 0);
}

#[test]
fn a_body_that_cannot_sleep_keeps_its_island_awake() {
    let (mut w, boxes) = pyramid2::<f64>(1);
    let unit = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    let restless = BodyDesc::dynamic(unit).pose(Iso2::translation(0.0, 1.5)).can_sleep(false);
    let top = w.add(restless).unwrap();
    let apart = w.add(BodyDesc::dynamic(unit).pose(Iso2::translation(5.0, 0.5))).unwrap();
    step_until_asleep(&mut w, &[apart], 2.0);
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(all_awake(&w, &[boxes[0], top]));
    assert!(w.is_sleeping(apart).unwrap());
    assert!(matches!(w.sleep(boxes[0]), Err(WorldError::CannotSleep(_))));
}

#[test]
fn refused_sleep_calls_change_nothing() {
    let (mut w, boxes) = pyramid2::<f64>(2);
    let ground = w.bodies().find(|(_, b)| b.kind() == BodyKind::Static).unwrap().0;
    for _ in 0..5 {
        w.step(1.0 / 60.0).unwrap();
    }
    let before = hash(&w);
    let wrong = Err(WorldError::WrongKind { needed: BodyKind::Dynamic, actual: BodyKind::Static });
    assert_eq!(w.sleep(ground), wrong);
    assert_eq!(hash(&w), before);
    let gone = w.add(BodyDesc::fixed(Ball::new(1.0).unwrap())).unwrap();
    w.remove(gone).unwrap();
    let before_gone = hash(&w);
    assert_eq!(w.sleep(gone), Err(WorldError::StaleHandle));
    assert_eq!(w.wake(gone), Err(WorldError::StaleHandle));
    assert_eq!(w.is_sleeping(gone), Err(WorldError::StaleHandle));
    assert_eq!(hash(&w), before_gone);
    let mut off = w.clone();
    off.set_settings(StepSettings { sleeping: false, ..*w.settings() }).unwrap();
    let before_off = hash(&off);
    assert!(matches!(off.sleep(boxes[0]), Err(WorldError::CannotSleep(_))));
    assert_eq!(hash(&off), before_off);
    let bad = StepSettings { time_to_sleep: -1.0, ..*w.settings() };
    assert!(matches!(w.set_settings(bad), Err(WorldError::OutOfRange { .. })));
    // `sleep` puts the whole island to sleep at once, and it stays put.
    w.sleep(boxes[0]).unwrap();
    assert!(boxes.iter().all(|&b| w.is_sleeping(b).unwrap()));
    let still = centres(&w, &boxes);
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(centres(&w, &boxes), still);
}

#[test]
fn sleeping_is_deterministic_across_threads() {
    let run = |threads: usize| {
        let (mut w, boxes) = pyramid2::<f32>(10);
        w.set_settings(StepSettings { colour_2d: true, ..*w.settings() }).unwrap();
        w.set_threads(threads).unwrap();
        step_until_asleep(&mut w, &boxes, 6.0);
        let ball = BodyDesc::dynamic(Ball::new(0.25).unwrap())
            .pose(Iso2::translation(-8.0, 0.6))
            .linear_velocity(Vec2::new(30.0, 0.0));
        w.add(ball).unwrap();
        for _ in 0..30 {
            w.step(1.0 / 60.0).unwrap();
        }
        // The bodies (the world's own text names its thread count).
        let bodies: Vec<_> = w.bodies().map(|(_, b)| format!("{b:?}")).collect();
        (bodies, w.sleeping_bodies())
    };
    assert_eq!(run(1), run(3));
}

/// Sleep events name every body once, in the step it fell asleep or woke, in slot order; a
/// user's wake or sleep between steps is reported by the next step; a removed body is not.
#[test]
fn sleep_events_name_each_body_once() {
    let (mut w, boxes) = pyramid2::<f64>(4);
    let mut slept: Vec<BodyHandle> = Vec::new();
    for _ in 0..360 {
        let r = w.step(1.0 / 60.0).unwrap();
        let fell = w.events().fell_asleep();
        assert_eq!(fell.len(), r.fell_asleep, "{r:?}");
        assert!(fell.is_sorted() && w.events().woke().is_empty());
        slept.extend_from_slice(fell);
    }
    slept.sort();
    assert_eq!(slept, boxes, "each box fell asleep once");
    // A quiet step (the whole world asleep) reports nothing.
    w.step(1.0 / 60.0).unwrap();
    assert!(w.events().is_empty());
    // A wake between steps is reported by the next step, for the whole island.
    w.wake(boxes[3]).unwrap();
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(w.events().woke(), &boxes[..]);
    w.step(1.0 / 60.0).unwrap();
    assert!(w.events().woke().is_empty());
    // So is a sleep call; a removed body is left out of the report.
    w.sleep(boxes[0]).unwrap();
    w.wake(boxes[0]).unwrap();
    w.remove(boxes[9]).unwrap();
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(w.events().fell_asleep(), &boxes[..9]);
    assert_eq!(w.events().woke(), &boxes[..9]);
}
