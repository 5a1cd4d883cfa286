//! A one-way platform in 2D: a box jumps up through a platform from below, lands on it and
//! rests there. A contact hook (`World::step_with_hook`) turns the contact between the platform
//! and a body off unless the body is above it: the normal from the platform to the body points
//! up and the body is not sunk into it (a body rising through from below is inside the
//! platform, or below it, until it is through).
//!
//! `cargo run --release --example one_way_platform`
//!
//! Prints the box's height when it jumps, at the top of its jump and at the end, and whether the
//! platform let it through and then held it. `tests/examples.rs` runs [`simulate`] and asserts
//! both.

use kollide::prelude::*;
use kollide::solver::{BodyDesc, BodyHandle, PreSolve, World2};

/// The platform's top surface (m).
pub const PLATFORM_TOP: f64 = 3.1;
/// The box's half size (m).
pub const HALF: f64 = 0.5;

/// What happened.
#[derive(Debug)]
pub struct Outcome {
    /// The box's centre height at the top of its jump (m).
    pub highest: f64,
    /// The box's centre height at the end (m).
    pub final_height: f64,
    /// The box's vertical speed at the end (m/s).
    pub final_speed: f64,
    /// Contacts with the platform that the hook turned off.
    pub disabled: usize,
    /// Contacts with the platform that the hook let the solver have.
    pub enabled: usize,
}

/// The rule of a one-way platform: the contact counts only when the body is on top.
fn one_way(platform: BodyHandle, c: &mut PreSolve<'_, f64, 2>, counts: &mut (usize, usize)) {
    if c.a() != platform && c.b() != platform {
        return;
    }
    // The normal from the platform to the other body.
    let up = if c.a() == platform { c.normal() } else { -c.normal() };
    let deepest = c.manifold().contacts().iter().map(|p| p.separation).fold(f64::MAX, f64::min);
    if up.y < 0.7 || deepest < -0.05 {
        c.disable();
        counts.0 += 1;
    } else {
        counts.1 += 1;
    }
}

/// Runs the scene for 4 s: the box rests on the ground, jumps at 0.5 s with 9 m/s, passes the
/// platform and lands on it. With `one_way` off, the platform is an ordinary solid box.
pub fn simulate(one_way_on: bool) -> Result<Outcome, Box<dyn std::error::Error>> {
    let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81))?;
    let ground = Cuboid::new(Vec2::new(10.0, 0.5))?;
    world.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5)))?;
    let slab = Cuboid::new(Vec2::new(2.0, 0.1))?;
    let platform =
        world.add(BodyDesc::fixed(slab).pose(Iso2::translation(0.0, PLATFORM_TOP - 0.1)))?;
    let crate_ = Cuboid::new(Vec2::new(HALF, HALF))?;
    let b = world.add(BodyDesc::dynamic(crate_).pose(Iso2::translation(0.0, HALF)))?;
    let mass = world.body(b)?.mass();
    let mut counts = (0, 0);
    let mut highest = f64::MIN;
    let hz = 60;
    for step in 0..4 * hz {
        if step == hz / 2 {
            world.apply_impulse(b, Vec2::new(0.0, 9.0 * mass))?;
        }
        if one_way_on {
            world.step_with_hook(1.0 / hz as f64, &mut |c: &mut PreSolve<'_, f64, 2>| {
                one_way(platform, c, &mut counts)
            })?;
        } else {
            world.step(1.0 / hz as f64)?;
        }
        highest = highest.max(world.body(b)?.pose().translation.y);
    }
    let body = world.body(b)?;
    Ok(Outcome {
        highest,
        final_height: body.pose().translation.y,
        final_speed: body.linear_velocity().y,
        disabled: counts.0,
        enabled: counts.1,
    })
}

#[allow(dead_code, reason = "tests/examples.rs includes this file and calls `simulate` only")]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let o = simulate(true)?;
    println!(
        "one-way platform: top at {PLATFORM_TOP} m, a box of side {} m jumps at 9 m/s",
        2.0 * HALF
    );
    println!(
        "  highest centre   {:.3} m (the platform let it through: {})",
        o.highest,
        o.highest > PLATFORM_TOP + HALF
    );
    println!(
        "  final centre     {:.3} m, vertical speed {:.4} m/s (resting on top: {})",
        o.final_height,
        o.final_speed,
        (o.final_height - PLATFORM_TOP - HALF).abs() < 0.05
    );
    println!("  platform contacts: {} turned off by the hook, {} solved", o.disabled, o.enabled);
    let solid = simulate(false)?;
    println!("  without the hook the box bumps its head: highest centre {:.3} m", solid.highest);
    Ok(())
}
