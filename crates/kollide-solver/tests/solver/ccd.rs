//! Continuous collision: balls, boxes and capsules fired at 500 and 2,000 m/s, at angles from 0
//! to 80 degrees, against a static wall 0.1 m thick, at 60 Hz, in 2D and 3D, `f32` and `f64`.
//! Every step the body's centre must stay on the near side of the wall (never inside it, never
//! past it), and the continuous stage must have run (the step report counts its sweeps and its
//! hits). A control with the stage switched off shows that the check catches tunnelling.

use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
use kollide_narrowphase::{QuerySettings, closest_points};
use kollide_shapes::{Ball, Capsule, Circle, Cuboid, Shape2, Shape3};
use kollide_solver::{BodyDesc, BodyKind, LaneScalar, StepSettings, World2, World3, WorldError};

const DT: f64 = 1.0 / 60.0;
/// Half the wall's thickness (m).
const WALL: f64 = 0.05;
const SPEEDS: [f64; 2] = [500.0, 2000.0];

/// The outcome of one shot: how far the body's centre got along +x (the wall's centre is at
/// x = 0), and how often the continuous stage swept and moved the body back.
#[derive(Debug, Default)]
struct Shot {
    max_x: f64,
    sweeps: usize,
    hits: usize,
}

/// How far the centre of a body may go along +x: to the wall's near face, never inside the
/// wall. (Its surface may overlap the wall for a while: a body sliding along the wall at
/// hundreds of m/s spins at the solver's limit, a quarter turn per substep, and the contact
/// follows its turning anchor; the stage keeps its centre out, see `continuous.rs`.)
fn allowed(_radius: f64) -> f64 {
    -WALL
}

fn shapes2<N: LaneScalar>() -> Vec<(&'static str, Shape2<N>, f64)> {
    let l = N::lit;
    vec![
        ("ball", Circle::new(l(0.1)).unwrap().into(), 0.1),
        ("box", Cuboid::new(Vec2::new(l(0.1), l(0.1))).unwrap().into(), 0.1),
        (
            "capsule",
            Capsule::new(Point2::new(l(0.0), l(-0.2)), Point2::new(l(0.0), l(0.2)), l(0.05))
                .unwrap()
                .into(),
            0.05,
        ),
    ]
}

fn shapes3<N: LaneScalar>() -> Vec<(&'static str, Shape3<N>, f64)> {
    let l = N::lit;
    vec![
        ("ball", Ball::new(l(0.1)).unwrap().into(), 0.1),
        ("box", Cuboid::new(Vec3::new(l(0.1), l(0.1), l(0.1))).unwrap().into(), 0.1),
        (
            "capsule",
            Capsule::new(
                Point3::new(l(0.0), l(-0.2), l(0.0)),
                Point3::new(l(0.0), l(0.2), l(0.0)),
                l(0.05),
            )
            .unwrap()
            .into(),
            0.05,
        ),
    ]
}

/// A shot in 2D: the body starts 3 m before the wall, aimed to reach it at y = 0 at `angle`
/// degrees from its normal, spinning at 20 rad/s, and flies for 30 steps.
fn shoot2<N: LaneScalar>(shape: Shape2<N>, speed: f64, angle: f64, continuous: bool) -> Shot {
    let l = N::lit;
    let mut w = World2::<N>::new(Vec2::new(l(0.0), l(-9.81))).unwrap();
    w.set_settings(StepSettings { continuous, ..StepSettings::default() }).unwrap();
    let wall = Cuboid::new(Vec2::new(l(WALL), l(200.0))).unwrap();
    w.add(BodyDesc::fixed(wall)).unwrap();
    let a = angle.to_radians();
    let start = Iso2::new(Vec2::new(l(-3.0), l(-3.0 * a.tan())), l(0.3));
    let v = Vec2::new(l(speed * a.cos()), l(speed * a.sin()));
    let h =
        w.add(BodyDesc::dynamic(shape).pose(start).linear_velocity(v).angular_velocity(l(20.0)));
    let h = h.unwrap();
    let mut shot = Shot { max_x: f64::MIN, ..Shot::default() };
    for _ in 0..30 {
        let r = w.step(l(DT)).unwrap();
        shot.sweeps += r.continuous_sweeps;
        shot.hits += r.toi_hits;
        shot.max_x = shot.max_x.max(w.body(h).unwrap().pose().translation.x.to_f64());
    }
    shot
}

/// [`shoot2`] in 3D, the shot tilted out of the xy plane by a tenth of its angle.
fn shoot3<N: LaneScalar>(shape: Shape3<N>, speed: f64, angle: f64, continuous: bool) -> Shot {
    let l = N::lit;
    let mut w = World3::<N>::new(Vec3::new(l(0.0), l(-9.81), l(0.0))).unwrap();
    w.set_settings(StepSettings { continuous, ..StepSettings::default() }).unwrap();
    let wall = Cuboid::new(Vec3::new(l(WALL), l(200.0), l(200.0))).unwrap();
    w.add(BodyDesc::fixed(wall)).unwrap();
    let a = angle.to_radians();
    let dir = Vec3::new(a.cos(), a.sin(), 0.1 * a.sin()).normalize();
    let start = Vec3::new(-3.0, -3.0 * dir.y / dir.x, -3.0 * dir.z / dir.x);
    let pose = Iso3::new(start.map(l), Vec3::new(l(0.3), l(0.2), l(0.1)));
    let desc = BodyDesc::dynamic(shape)
        .pose(pose)
        .linear_velocity((dir * speed).map(l))
        .angular_velocity(Vec3::new(l(5.0), l(20.0), l(-10.0)));
    let h = w.add(desc).unwrap();
    let mut shot = Shot { max_x: f64::MIN, ..Shot::default() };
    for _ in 0..30 {
        let r = w.step(l(DT)).unwrap();
        shot.sweeps += r.continuous_sweeps;
        shot.hits += r.toi_hits;
        shot.max_x = shot.max_x.max(w.body(h).unwrap().pose().translation.x.to_f64());
    }
    shot
}

fn angles() -> impl Iterator<Item = f64> {
    (0..=8).map(|k| f64::from(k) * 10.0)
}

fn nothing_tunnels_2d<N: LaneScalar>() {
    let (mut shots, mut stopped) = (0, 0);
    for (name, shape, radius) in shapes2::<N>() {
        for speed in SPEEDS {
            for angle in angles() {
                let shot = shoot2(shape.clone(), speed, angle, true);
                let what = format!("2D {name} at {speed} m/s, {angle}°: {shot:?}");
                assert!(shot.max_x <= allowed(radius), "{what}");
                assert!(shot.sweeps > 0, "the stage did not run: {what}");
                shots += 1;
                stopped += usize::from(shot.hits > 0);
            }
        }
    }
    // Most shots needed the stage (the rest were stopped by speculative contacts alone).
    assert!(stopped * 2 > shots, "only {stopped} of {shots} shots were moved back");
}

fn nothing_tunnels_3d<N: LaneScalar>() {
    let (mut shots, mut stopped) = (0, 0);
    for (name, shape, radius) in shapes3::<N>() {
        for speed in SPEEDS {
            for angle in angles() {
                let shot = shoot3(shape.clone(), speed, angle, true);
                let what = format!("3D {name} at {speed} m/s, {angle}°: {shot:?}");
                assert!(shot.max_x <= allowed(radius), "{what}");
                assert!(shot.sweeps > 0, "the stage did not run: {what}");
                shots += 1;
                stopped += usize::from(shot.hits > 0);
            }
        }
    }
    // Most shots needed the stage (the rest were stopped by speculative contacts alone).
    assert!(stopped * 2 > shots, "only {stopped} of {shots} shots were moved back");
}

#[test]
fn nothing_tunnels_through_a_thin_wall_2d_f64() {
    nothing_tunnels_2d::<f64>();
}

#[test]
fn nothing_tunnels_through_a_thin_wall_2d_f32() {
    nothing_tunnels_2d::<f32>();
}

#[test]
fn nothing_tunnels_through_a_thin_wall_3d_f64() {
    nothing_tunnels_3d::<f64>();
}

#[test]
fn nothing_tunnels_through_a_thin_wall_3d_f32() {
    nothing_tunnels_3d::<f32>();
}

/// The control: with the stage off, the same shots tunnel (so the checks above can fail), and
/// the report counts no sweep.
#[test]
fn without_the_continuous_stage_fast_bodies_tunnel() {
    let mut tunnelled = 0;
    let mut total = 0;
    for (_, shape, radius) in shapes2::<f64>() {
        for angle in angles() {
            let shot = shoot2(shape.clone(), 500.0, angle, false);
            assert_eq!((shot.sweeps, shot.hits), (0, 0));
            tunnelled += usize::from(shot.max_x > allowed(radius));
            total += 1;
        }
    }
    for (_, shape, radius) in shapes3::<f64>() {
        for angle in angles() {
            let shot = shoot3(shape.clone(), 2000.0, angle, false);
            tunnelled += usize::from(shot.max_x > allowed(radius));
            total += 1;
        }
    }
    assert!(tunnelled > total / 4, "only {tunnelled} of {total} tunnelled without the stage");
}

/// A slow scene never triggers the stage: a box dropped on the ground, resting.
#[test]
fn slow_bodies_are_not_swept_unless_they_are_bullets() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    w.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(10.0, 0.5)).unwrap())
            .pose(Iso2::translation(0.0, -0.5)),
    )
    .unwrap();
    let b = w
        .add(
            BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap())
                .pose(Iso2::translation(0.0, 2.0)),
        )
        .unwrap();
    let mut sweeps = 0;
    for _ in 0..120 {
        sweeps += w.step(DT).unwrap().continuous_sweeps;
    }
    assert_eq!(sweeps, 0);
    // A bullet is swept every step, however slow.
    w.set_bullet(b, true).unwrap();
    assert!(w.body(b).unwrap().is_bullet());
    assert_eq!(w.step(DT).unwrap().continuous_sweeps, 1);
    w.set_bullet(b, false).unwrap();
    assert_eq!(w.step(DT).unwrap().continuous_sweeps, 0);
}

/// Bad input: a bullet that is not dynamic, a stale handle; the world is unchanged.
#[test]
fn bullets_must_be_dynamic_and_a_refused_call_changes_nothing() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    let wall = Cuboid::new(Vec2::new(0.05, 5.0)).unwrap();
    let refused = w.add(BodyDesc::fixed(wall).bullet(true));
    let wrong = WorldError::WrongKind { needed: BodyKind::Dynamic, actual: BodyKind::Static };
    assert_eq!(refused, Err(wrong.clone()));
    assert!(w.is_empty());
    let s = w.add(BodyDesc::fixed(wall)).unwrap();
    let before = format!("{:?}", w.body(s).unwrap());
    assert_eq!(w.set_bullet(s, true), Err(wrong));
    assert_eq!(format!("{:?}", w.body(s).unwrap()), before);
    let d = w.add(BodyDesc::dynamic(Circle::new(0.1).unwrap()).bullet(true)).unwrap();
    assert!(w.body(d).unwrap().is_bullet());
    w.remove(d).unwrap();
    assert_eq!(w.set_bullet(d, false), Err(WorldError::StaleHandle));
}

/// Fast balls through a field of static posts and a pile of boxes: the continuous stage runs,
/// and the result is bit-identical with one, two and three threads.
#[test]
fn the_continuous_stage_is_bit_identical_for_any_thread_count() {
    let make = |threads: usize| {
        let mut w = World2::<f32>::new(Vec2::new(0.0, -9.81)).unwrap();
        w.set_threads(threads).unwrap();
        w.add(
            BodyDesc::fixed(Cuboid::new(Vec2::new(40.0, 0.5)).unwrap())
                .pose(Iso2::translation(0.0, -0.5)),
        )
        .unwrap();
        for k in 0..8 {
            let post = Cuboid::new(Vec2::new(0.05, 2.0)).unwrap();
            w.add(
                BodyDesc::fixed(post)
                    .pose(Iso2::new(Vec2::new(5.0 + k as f32 * 2.0, 2.0), 0.2 * k as f32)),
            )
            .unwrap();
        }
        for i in 0..40 {
            let b = Cuboid::new(Vec2::new(0.25, 0.25)).unwrap();
            let p = Iso2::translation(-6.0 + (i % 8) as f32 * 0.6, 0.25 + (i / 8) as f32 * 0.55);
            w.add(BodyDesc::dynamic(b).pose(p)).unwrap();
        }
        for i in 0..12 {
            let a = (i as f32 * 7.0).to_radians();
            let v = Vec2::new(a.cos(), a.sin()) * (300.0 + 100.0 * i as f32);
            let ball = BodyDesc::dynamic(Circle::new(0.05).unwrap())
                .pose(Iso2::translation(0.0, 0.5 + i as f32 * 0.3))
                .linear_velocity(v)
                .bullet(i % 3 == 0);
            w.add(ball).unwrap();
        }
        w
    };
    let mut worlds: Vec<_> = (1..=3).map(make).collect();
    let mut hits = 0;
    for step in 0..60 {
        let mut states = Vec::new();
        for w in &mut worlds {
            hits += w.step(1.0 / 60.0).unwrap().toi_hits;
            let state: Vec<String> = w
                .bodies()
                .map(|(_, b)| {
                    format!("{:?}{:?}{:?}", b.pose(), b.linear_velocity(), b.angular_velocity())
                })
                .collect();
            states.push(state);
        }
        assert!(states.iter().all(|s| *s == states[0]), "threads disagree at step {step}");
    }
    assert!(hits > 0, "the stage never moved a body back");
}

/// A bullet against a thin dynamic plate floating in space: as a bullet it hits the plate and
/// pushes it; as an ordinary fast body (swept only against static and kinematic bodies) it
/// passes through.
#[test]
fn a_bullet_is_swept_against_dynamic_bodies_too() {
    let shoot = |bullet: bool| {
        let mut w = World2::<f64>::new(Vec2::zeros()).unwrap();
        let plate = Cuboid::new(Vec2::new(0.05, 3.0)).unwrap();
        let p = w.add(BodyDesc::dynamic(plate).density(50.0)).unwrap();
        let a = 40f64.to_radians();
        let ball = BodyDesc::dynamic(Circle::new(0.05).unwrap())
            .pose(Iso2::translation(-3.0, -3.0 * a.tan()))
            .linear_velocity(Vec2::new(a.cos(), a.sin()) * 500.0)
            .bullet(bullet);
        let b = w.add(ball).unwrap();
        let (mut behind, mut hits) = (f64::MIN, 0);
        for _ in 0..20 {
            hits += w.step(DT).unwrap().toi_hits;
            // How deep the ball's centre is inside the plate (negative: outside).
            let (pb, pp) = (w.body(b).unwrap(), w.body(p).unwrap());
            let s = QuerySettings::default();
            let c = closest_points(
                pp.pose(),
                pp.shape().as_convex().unwrap(),
                pb.pose(),
                pb.shape().as_convex().unwrap(),
                &s,
            );
            let side = (pb.pose().translation.x - pp.pose().translation.x).signum();
            behind = behind.max(if side < 0.0 { -(c.separation + 0.05) } else { 1.0 });
        }
        (behind, hits, w.body(p).unwrap().linear_velocity().x)
    };
    let (behind, hits, plate_speed) = shoot(true);
    assert!(behind < 0.0 && hits > 0, "the bullet's centre entered the plate: {behind}");
    assert!(plate_speed > 0.0, "the plate was not pushed");
    let (through, _, _) = shoot(false);
    assert!(through > 0.0, "without the bullet flag the ball should pass: {through}");
}
