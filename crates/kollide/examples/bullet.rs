//! A bullet against a thin wall in 2D: a 5 cm ball fired at 500 m/s at a static wall 0.1 m
//! thick, at 0°, 30°, 45° and 60° from the wall's normal. In one step at 60 Hz the ball flies
//! 8.3 m, over 80 times its own size: the speculative contacts, computed at the start of the
//! step, stop it head-on but miss the wall at an angle, and the ball tunnels. The continuous
//! stage of the step sweeps the ball over its motion, finds the time of impact (conservative
//! advancement, `kollide_narrowphase::time_of_impact`) and moves it back there; the next step's
//! contact stops it. Each shot is fired with the stage on (the default) and off.
//!
//! `cargo run --release --example bullet`
//!
//! Prints, for each angle, where the ball ended and how fast it goes, with and without the
//! continuous stage. `tests/examples.rs` runs [`simulate`] and asserts that no ball crosses the
//! wall with the stage on, and that some do with it off.

use kollide::prelude::*;
use kollide::solver::{BodyDesc, StepSettings, World2};

/// The wall's half thickness (m); its centre is at x = 0.
pub const WALL: f64 = 0.05;
/// The ball's radius (m).
pub const RADIUS: f64 = 0.05;
/// The muzzle speed (m/s).
pub const SPEED: f64 = 500.0;

/// What happened to one shot.
#[derive(Debug)]
pub struct Outcome {
    /// The largest x the ball's centre reached in any step (m).
    pub max_x: f64,
    /// Where the ball's centre ended (m).
    pub x: f64,
    /// How high it ended (m): a ball stopped at an angle slides up the wall and over it.
    pub y: f64,
    /// Its speed at the end (m/s).
    pub speed: f64,
    /// Steps in which the continuous stage swept the ball.
    pub sweeps: usize,
    /// Steps in which it moved the ball back to a time of impact.
    pub hits: usize,
}

/// Fires the ball from 3 m before the wall at `angle` degrees from its normal, aimed at the
/// wall's middle, and runs 1 s at 60 Hz, with the continuous stage on or off.
pub fn simulate(angle: f64, continuous: bool) -> Result<Outcome, Box<dyn std::error::Error>> {
    let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81))?;
    world.set_settings(StepSettings { continuous, ..StepSettings::default() })?;
    world.add(BodyDesc::fixed(Cuboid::new(Vec2::new(WALL, 20.0))?))?;
    let a = angle.to_radians();
    let start = Iso2::translation(-3.0, -3.0 * a.tan());
    let velocity = Vec2::new(a.cos(), a.sin()) * SPEED;
    let ball = BodyDesc::dynamic(Circle::new(RADIUS)?).pose(start).linear_velocity(velocity);
    // A bullet is swept every step, however slowly it moves (at this speed it would be swept
    // anyway: it moves far more than its size in a step).
    let ball = world.add(ball.bullet(true))?;
    let mut o = Outcome { max_x: f64::MIN, x: 0.0, y: 0.0, speed: 0.0, sweeps: 0, hits: 0 };
    for _ in 0..60 {
        let report = world.step(1.0 / 60.0)?;
        o.sweeps += report.continuous_sweeps;
        o.hits += report.toi_hits;
        o.max_x = o.max_x.max(world.body(ball)?.pose().translation.x);
    }
    let b = world.body(ball)?;
    (o.x, o.y) = (b.pose().translation.x, b.pose().translation.y);
    o.speed = b.linear_velocity().norm();
    Ok(o)
}

#[allow(dead_code, reason = "tests/examples.rs includes this file and calls `simulate` only")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "bullet: a {RADIUS} m ball at {SPEED} m/s against a static wall {} m thick",
        2.0 * WALL
    );
    for angle in [0.0, 30.0, 45.0, 60.0] {
        for continuous in [true, false] {
            let o = simulate(angle, continuous)?;
            let side = if o.max_x > 0.0 { "CROSSED the wall" } else { "stayed in front" };
            println!(
                "  {angle:>2}°, continuous {:<3}: {side}, ends at ({:7.3}, {:6.2}) m, \
                 |v| = {:6.2} m/s ({} sweeps, {} moved back)",
                if continuous { "on" } else { "off" },
                o.x,
                o.y,
                o.speed,
                o.sweeps,
                o.hits
            );
        }
    }
    Ok(())
}
