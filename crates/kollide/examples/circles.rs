//! Many 2D bodies (circles, boxes and capsules) poured into a container.
//!
//! `cargo run --release --example circles [-- --count 400 --seconds 10]`
//!
//! With `--svg DIR` it writes four frames per simulated second as SVG into `DIR`.
//!
//! Prints progress and a summary; checks that no body escaped or produced NaN.

mod common;

use kollide::prelude::*;
use kollide::solver::{BodyDesc, World2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let count: usize = common::arg("--count").map_or(Ok(400), |s| s.parse())?;
    let seconds: f64 = common::arg("--seconds").map_or(Ok(10.0), |s| s.parse())?;
    let hz = 60;
    let mut world = World2::<f32>::new(Vec2::new(0.0, -9.81))?;
    world.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(12.0, 0.5))?).pose(Iso2::translation(0.0, -0.5)),
    )?;
    for x in [-11.5f32, 11.5] {
        world.add(
            BodyDesc::fixed(Cuboid::new(Vec2::new(0.5, 40.0))?).pose(Iso2::translation(x, 40.0)),
        )?;
    }
    // A deterministic scatter (a small linear congruential generator keeps the example
    // dependency-free).
    let mut seed = 12345u32;
    let mut rnd = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut handles = Vec::new();
    for i in 0..count {
        let x = -10.0 + 20.0 * rnd();
        let y = 1.0 + (i / 20) as f32 * 1.2 + rnd() * 0.5;
        let desc = match i % 3 {
            0 => BodyDesc::dynamic(Circle::new(0.2 + 0.2 * rnd())?),
            1 => BodyDesc::dynamic(Cuboid::new(Vec2::new(0.2 + 0.2 * rnd(), 0.2 + 0.2 * rnd()))?),
            _ => BodyDesc::dynamic(Capsule::new(
                Point2::new(-0.3, 0.0),
                Point2::new(0.3, 0.0),
                0.15,
            )?),
        };
        handles
            .push(world.add(desc.pose(Iso2::new(Vec2::new(x, y), 6.0 * rnd())).restitution(0.2))?);
    }
    println!("circles: {count} bodies, {hz} Hz, {seconds} s");
    let summary = common::run(&mut world, seconds, hz, |w| {
        let top = handles
            .iter()
            .filter_map(|h| w.body(*h).ok())
            .map(|b| b.pose().translation.y)
            .fold(0.0f32, f32::max);
        format!("highest body at y = {top:.2}")
    });
    let escaped = handles
        .iter()
        .filter_map(|h| world.body(*h).ok())
        .filter(|b| {
            let p = b.pose().translation.vector;
            !(p.x.is_finite() && p.y.is_finite()) || p.x.abs() > 11.0 || p.y < -0.05
        })
        .count();
    println!("bodies outside the container or not finite: {escaped}");
    summary.print("circles", None);
    Ok(())
}
