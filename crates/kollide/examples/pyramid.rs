//! A 2D pyramid of boxes (base 20 by default) standing on the ground for 10 s.
//!
//! `cargo run --release --example pyramid [-- --base 20 --seconds 10]`
//!
//! With `--svg DIR` it writes four frames per simulated second as SVG into `DIR`.
//!
//! Prints progress every simulated second and a summary: the largest distance any box moved
//! from where it was placed, and the time per step.

mod common;

use kollide::prelude::*;
use kollide::solver::{BodyDesc, World2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base: usize = common::arg("--base").map_or(Ok(20), |s| s.parse())?;
    let seconds: f64 = common::arg("--seconds").map_or(Ok(10.0), |s| s.parse())?;
    let hz = 60;
    let mut world = World2::<f32>::new(Vec2::new(0.0, -9.81))?;
    world.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(base as f32 + 10.0, 0.5))?)
            .pose(Iso2::translation(0.0, -0.5)),
    )?;
    let mut boxes = Vec::new();
    for row in 0..base {
        for i in 0..(base - row) {
            let x = i as f32 - (base - row) as f32 / 2.0 + 0.5;
            let y = 0.5 + row as f32;
            let h = world.add(
                BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5))?).pose(Iso2::translation(x, y)),
            )?;
            boxes.push((h, Vec2::new(x, y)));
        }
    }
    println!("pyramid: base {base}, {} boxes, {hz} Hz, {seconds} s", boxes.len());
    let apex = boxes.last().map(|b| b.0);
    let summary =
        common::run(&mut world, seconds, hz, |w| match apex.and_then(|h| w.body(h).ok()) {
            Some(b) => {
                format!("apex at ({:+.3}, {:.3})", b.pose().translation.x, b.pose().translation.y)
            }
            None => String::new(),
        });
    let drift = boxes
        .iter()
        .filter_map(|(h, start)| {
            world.body(*h).ok().map(|b| (b.pose().translation.vector - start).norm())
        })
        .fold(0.0f32, f32::max);
    summary.print("pyramid", Some(drift as f64));
    Ok(())
}
