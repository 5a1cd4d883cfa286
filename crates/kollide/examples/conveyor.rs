//! A conveyor belt in 2D: a box dropped on a static belt is carried along at the belt's speed.
//! A contact hook (`World::step_with_hook`) gives the contacts between the belt and a body a
//! tangent velocity: friction then drives the body's surface to slide at the belt speed
//! relative to the belt instead of sticking to it (Box2D v3's tangent speed does the same).
//!
//! `cargo run --release --example conveyor`
//!
//! Prints the box's speed along the belt each half second and at the end.
//! `tests/examples.rs` runs [`simulate`] and asserts that the box moves at the belt speed.

use kollide::prelude::*;
use kollide::solver::{BodyDesc, PreSolve, World2};

/// The belt's surface speed (m/s, to the right).
pub const BELT_SPEED: f64 = 2.0;

/// What happened.
#[derive(Debug)]
pub struct Outcome {
    /// The box's horizontal speed every half second (m/s).
    pub speeds: Vec<f64>,
    /// The box's horizontal position at the end (m).
    pub x: f64,
    /// The box's vertical position at the end (m).
    pub y: f64,
}

/// Drops a box on the left end of the belt and runs 3 s.
pub fn simulate() -> Result<Outcome, Box<dyn std::error::Error>> {
    let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81))?;
    let belt_shape = Cuboid::new(Vec2::new(8.0, 0.25))?;
    let belt = world.add(BodyDesc::fixed(belt_shape).pose(Iso2::translation(0.0, -0.25)))?;
    let crate_ = Cuboid::new(Vec2::new(0.4, 0.4))?;
    let b = world.add(BodyDesc::dynamic(crate_).pose(Iso2::translation(-6.0, 0.6)))?;
    let belt_velocity = Vec2::new(BELT_SPEED, 0.0);
    let mut hook = |c: &mut PreSolve<'_, f64, 2>| {
        // The tangent velocity is B's surface relative to A's: a belt that is A carries B
        // with +v, a belt that is B with −v.
        let v = if c.a() == belt {
            belt_velocity
        } else if c.b() == belt {
            -belt_velocity
        } else {
            return;
        };
        c.set_tangent_velocity(v).expect("the belt speed is inside the envelope");
    };
    let hz = 60;
    let mut speeds = Vec::new();
    for step in 1..=3 * hz {
        world.step_with_hook(1.0 / hz as f64, &mut hook)?;
        if step % (hz / 2) == 0 {
            speeds.push(world.body(b)?.linear_velocity().x);
        }
    }
    let p = world.body(b)?.pose().translation;
    Ok(Outcome { speeds, x: p.x, y: p.y })
}

#[allow(dead_code, reason = "tests/examples.rs includes this file and calls `simulate` only")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let o = simulate()?;
    println!("conveyor: a belt running at {BELT_SPEED} m/s, a box dropped on its left end");
    for (i, v) in o.speeds.iter().enumerate() {
        println!("  t = {:.1} s: box speed {v:.4} m/s", 0.5 * (i + 1) as f64);
    }
    println!("  final position x = {:.3} m, y = {:.3} m (carried {:.3} m)", o.x, o.y, o.x + 6.0);
    Ok(())
}
