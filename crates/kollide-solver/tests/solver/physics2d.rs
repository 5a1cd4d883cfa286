//! The 2D world checked against physics: resting, stacking, a pyramid, friction on a slope,
//! restitution, momentum, determinism, bad input and a soak test.

use kollide_math::{Iso2, Point2, Vec2};
use kollide_shapes::{Capsule, Circle, Cuboid, Segment};
use kollide_solver::{BodyDesc, BodyHandle, World2, WorldError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DT: f64 = 1.0 / 60.0;
const G: f64 = 9.81;

fn world() -> World2<f64> {
    World2::new(Vec2::new(0.0, -G)).unwrap()
}

fn ground(w: &mut World2<f64>) -> BodyHandle {
    w.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(50.0, 0.5)).unwrap())
            .pose(Iso2::translation(0.0, -0.5)),
    )
    .unwrap()
}

fn unit_box(w: &mut World2<f64>, x: f64, y: f64) -> BodyHandle {
    w.add(
        BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap()).pose(Iso2::translation(x, y)),
    )
    .unwrap()
}

fn pos(w: &World2<f64>, h: BodyHandle) -> Vec2<f64> {
    w.body(h).unwrap().pose().translation.vector
}

fn run(w: &mut World2<f64>, seconds: f64) {
    for _ in 0..(seconds / DT).round() as usize {
        w.step(DT).unwrap();
    }
}

#[test]
fn dropped_box_comes_to_rest_at_the_right_height() {
    let mut w = world();
    ground(&mut w);
    let b = unit_box(&mut w, 0.0, 3.0);
    run(&mut w, 3.0);
    let p = pos(&w, b);
    assert!((p.y - 0.5).abs() < 0.01, "rest height {}", p.y);
    let body = w.body(b).unwrap();
    assert!(body.linear_velocity().norm() < 1e-3, "still moving: {:?}", body.linear_velocity());
    assert!(body.angular_velocity().abs() < 1e-3);
}

#[test]
fn stack_of_ten_boxes_stands() {
    let mut w = world();
    ground(&mut w);
    let boxes: Vec<_> = (0..10).map(|i| unit_box(&mut w, 0.0, 0.5 + i as f64)).collect();
    run(&mut w, 10.0);
    let top = pos(&w, boxes[9]);
    let sink = 9.5 - top.y;
    eprintln!("stack of 10: top sideways {:.2e} m, sunk {:.4} m", top.x.abs(), sink);
    assert!(top.x.abs() < 1e-3, "top box drifted {} m sideways", top.x);
    // Box2D v3 and rapier2d sink 32.5 mm here (Box2D's slop is 5 mm per contact, 50 mm over
    // these 10 contacts); kollide must sink less.
    assert!(sink < 0.0325, "sunk {sink}");
}

#[test]
fn pyramid_of_base_twenty_stands() {
    let mut w = world();
    ground(&mut w);
    let mut boxes = Vec::new();
    let base = 20;
    for row in 0..base {
        for i in 0..(base - row) {
            let x = (i as f64) - (base - row) as f64 / 2.0 + 0.5;
            let y = 0.5 + row as f64;
            boxes.push((unit_box(&mut w, x, y), Vec2::new(x, y)));
        }
    }
    run(&mut w, 10.0);
    let mut worst_move: f64 = 0.0;
    let mut worst_rot: f64 = 0.0;
    for (h, start) in &boxes {
        let b = w.body(*h).unwrap();
        worst_move = worst_move.max((b.pose().translation.vector - start).norm());
        worst_rot = worst_rot.max(b.pose().rotation.angle().abs().to_degrees());
    }
    eprintln!("pyramid 20: worst move {worst_move:.4} m, worst rotation {worst_rot:.4}°");
    assert!(worst_move < 0.03, "a box moved {worst_move} m");
    // Box2D v3 on this scene (f32, 30 Hz): 2.93 cm and 0.156°; kollide: 2.65 cm and 0.052°.
    assert!(worst_rot < 0.2, "a box rotated {worst_rot}°");
}

/// A box on a slope of angle θ with friction μ (both bodies). Returns the box's displacement
/// along the slope after `t` seconds, starting from rest.
fn slide(theta: f64, mu: f64, t: f64) -> f64 {
    let mut w = world();
    let rot = Iso2::rotation(theta);
    w.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(50.0, 0.5)).unwrap())
            .pose(Iso2::new(rot * Vec2::new(0.0, -0.5), theta))
            .friction(mu),
    )
    .unwrap();
    let start = rot * Vec2::new(0.0, 0.5);
    let b = w
        .add(
            BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap())
                .pose(Iso2::new(start, theta))
                .friction(mu),
        )
        .unwrap();
    // Let the contact settle for a moment, then measure from there.
    run(&mut w, 0.1);
    let p0 = pos(&w, b);
    let v0 = w.body(b).unwrap().linear_velocity();
    run(&mut w, t);
    let down = rot * Vec2::new(-1.0, 0.0);
    let d = (pos(&w, b) - p0).dot(&down);
    // Remove the part due to the initial velocity: d = v0·t + a t²/2.
    d - v0.dot(&down) * t
}

#[test]
fn friction_holds_or_slides_with_the_right_acceleration() {
    let theta = 20f64.to_radians();
    // μ > tan θ: stays.
    let held = slide(theta, 0.5, 2.0);
    assert!(held.abs() < 1e-3, "box with μ > tanθ slid {held} m");
    // μ < tan θ: slides with a = g (sin θ − μ cos θ), within 2%.
    let mu = 0.2;
    let t = 2.0;
    let d = slide(theta, mu, t);
    let a_expected = G * (theta.sin() - mu * theta.cos());
    let a = 2.0 * d / (t * t);
    eprintln!("slope: a = {a:.4} vs {a_expected:.4}");
    assert!((a - a_expected).abs() / a_expected < 0.02, "a = {a}, expected {a_expected}");
}

fn bounce(e: f64) -> f64 {
    let mut w = world();
    w.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(50.0, 0.5)).unwrap())
            .pose(Iso2::translation(0.0, -0.5))
            .restitution(e),
    )
    .unwrap();
    let ball = w
        .add(
            BodyDesc::dynamic(Circle::new(0.25).unwrap())
                .pose(Iso2::translation(0.0, 2.25))
                .restitution(e),
        )
        .unwrap();
    // Fall, bounce, and track the highest point after the first bounce.
    let mut bounced = false;
    let mut apex: f64 = 0.0;
    for _ in 0..240 {
        w.step(DT).unwrap();
        let v = w.body(ball).unwrap().linear_velocity().y;
        let y = pos(&w, ball).y;
        if v > 0.0 {
            bounced = true;
        }
        if bounced {
            apex = apex.max(y);
        }
    }
    apex - 0.25
}

#[test]
fn restitution_one_bounces_back_and_zero_does_not() {
    let h = bounce(1.0);
    assert!(h >= 0.95 * 2.0, "e = 1 rebounded to {h} of 2.0 m");
    let h0 = bounce(0.0);
    assert!(h0 < 0.01, "e = 0 bounced to {h0} m");
}

#[test]
fn frictionless_collision_conserves_momentum() {
    let mut w = World2::<f64>::new(Vec2::zeros()).unwrap();
    let a = w
        .add(
            BodyDesc::dynamic(Circle::new(0.5).unwrap())
                .pose(Iso2::translation(-2.0, 0.1))
                .linear_velocity(Vec2::new(3.0, 0.0))
                .friction(0.0)
                .restitution(0.5),
        )
        .unwrap();
    let b = w
        .add(
            BodyDesc::dynamic(Cuboid::new(Vec2::new(0.4, 0.6)).unwrap())
                .pose(Iso2::translation(1.0, 0.0))
                .linear_velocity(Vec2::new(-1.0, 0.0))
                .density(2.0)
                .friction(0.0),
        )
        .unwrap();
    let momentum = |w: &World2<f64>| {
        let (ba, bb) = (w.body(a).unwrap(), w.body(b).unwrap());
        ba.linear_velocity() * ba.mass() + bb.linear_velocity() * bb.mass()
    };
    let p0 = momentum(&w);
    run(&mut w, 2.0);
    let p1 = momentum(&w);
    assert!((p1 - p0).norm() < 1e-4, "momentum {p0:?} → {p1:?}");
    // They did collide.
    assert!(w.body(a).unwrap().linear_velocity().x < 3.0);
}

fn scene_hash(seed: u64) -> u64 {
    let mut w = world();
    ground(&mut w);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..40 {
        let x = rng.random_range(-3.0..3.0);
        let y = 1.0 + i as f64 * 0.8;
        let desc = match i % 3 {
            0 => BodyDesc::dynamic(Circle::new(rng.random_range(0.2..0.5)).unwrap()),
            1 => BodyDesc::dynamic(
                Cuboid::new(Vec2::new(rng.random_range(0.2..0.6), rng.random_range(0.2..0.6)))
                    .unwrap(),
            ),
            _ => BodyDesc::dynamic(
                Capsule::new(Point2::new(-0.3, 0.0), Point2::new(0.3, 0.0), 0.2).unwrap(),
            ),
        };
        w.add(desc.pose(Iso2::new(Vec2::new(x, y), rng.random_range(-1.0..1.0)))).unwrap();
    }
    run(&mut w, 3.0);
    // FNV-1a over the bits of every body state.
    let mut hash = 0xcbf29ce484222325u64;
    for (_, b) in w.bodies() {
        let p = b.pose();
        for x in [
            p.translation.vector.x,
            p.translation.vector.y,
            p.rotation.re,
            p.rotation.im,
            b.linear_velocity().x,
            b.linear_velocity().y,
            b.angular_velocity(),
        ] {
            for byte in x.to_bits().to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x100000001b3);
            }
        }
    }
    hash
}

#[test]
fn the_same_scene_twice_is_bit_identical() {
    assert_eq!(scene_hash(7), scene_hash(7));
    assert_ne!(scene_hash(7), scene_hash(8));
}

#[test]
fn bad_bodies_are_rejected_and_the_world_is_unchanged() {
    let mut w = world();
    ground(&mut w);
    let b = unit_box(&mut w, 0.0, 1.0);
    let before = w.len();
    let bx = || Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    let bad = [
        BodyDesc::dynamic(bx()).pose(Iso2::translation(f64::NAN, 0.0)),
        BodyDesc::dynamic(bx()).linear_velocity(Vec2::new(f64::INFINITY, 0.0)),
        BodyDesc::dynamic(bx()).angular_velocity(f64::NAN),
        BodyDesc::dynamic(bx()).density(0.0),
        BodyDesc::dynamic(bx()).density(-1.0),
        BodyDesc::dynamic(bx()).density(f64::NAN),
        BodyDesc::dynamic(bx()).friction(-0.1),
        BodyDesc::dynamic(bx()).restitution(f64::NAN),
        BodyDesc::dynamic(Segment::new(Point2::origin(), Point2::new(1.0, 0.0)).unwrap()),
    ];
    for desc in bad {
        assert!(w.add(desc).is_err());
    }
    assert_eq!(w.len(), before);
    assert!(matches!(w.step(0.0), Err(WorldError::BadTimeStep(_))));
    assert!(matches!(w.step(f64::NAN), Err(WorldError::BadTimeStep(_))));
    assert!(w.set_velocity(b, Vec2::new(f64::NAN, 0.0), 0.0).is_err());
    // Stale handles are detected.
    let removed = w.remove(b).unwrap();
    assert_eq!(removed.mass(), 1.0);
    assert!(matches!(w.body(b), Err(WorldError::StaleHandle)));
    let c = unit_box(&mut w, 0.0, 1.0);
    assert_eq!(c.index(), b.index());
    assert!(w.body(b).is_err() && w.body(c).is_ok());
}

#[test]
fn soak_random_scenes_never_produce_nan_or_lose_bodies() {
    for seed in 0..3u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = world();
        // A container: ground and two walls taller than the highest spawn point.
        ground(&mut w);
        for x in [-6.0, 6.0] {
            w.add(
                BodyDesc::fixed(Cuboid::new(Vec2::new(0.5, 30.0)).unwrap())
                    .pose(Iso2::translation(x, 30.0)),
            )
            .unwrap();
        }
        let mut handles = Vec::new();
        for i in 0..60 {
            let desc = match i % 3 {
                0 => BodyDesc::dynamic(Circle::new(rng.random_range(0.1..0.5)).unwrap()),
                1 => BodyDesc::dynamic(
                    Cuboid::new(Vec2::new(rng.random_range(0.1..0.6), rng.random_range(0.1..0.6)))
                        .unwrap(),
                ),
                _ => BodyDesc::dynamic(
                    Capsule::new(
                        Point2::new(-0.4, 0.0),
                        Point2::new(0.4, 0.0),
                        rng.random_range(0.05..0.3),
                    )
                    .unwrap(),
                ),
            };
            let pose = Iso2::new(
                Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(1.0..30.0)),
                rng.random_range(-3.0..3.0),
            );
            let v = Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-20.0..5.0));
            handles.push(
                w.add(desc.pose(pose).linear_velocity(v).restitution(rng.random_range(0.0..0.5)))
                    .unwrap(),
            );
        }
        for _ in 0..2_000 {
            w.step(DT).unwrap();
        }
        assert_eq!(w.len(), 63);
        for h in handles {
            let b = w.body(h).unwrap();
            let p = b.pose().translation.vector;
            assert!(p.x.is_finite() && p.y.is_finite() && b.angular_velocity().is_finite());
            assert!(p.y > -0.05, "seed {seed}: a body fell through the ground: {p:?}");
            assert!(p.x.abs() < 5.6, "seed {seed}: a body left the container: {p:?}");
        }
    }
}
