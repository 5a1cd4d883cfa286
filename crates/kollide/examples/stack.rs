//! A 2D stack of 10 boxes on the ground for 10 s.
//!
//! `cargo run --release --example stack`
//!
//! With `--svg DIR` it writes four frames per simulated second as SVG into `DIR`.
//!
//! Prints progress and a summary with how far the top box drifted sideways and sank.

mod common;

use kollide::prelude::*;
use kollide::solver::{BodyDesc, World2};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let hz = 60;
    let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81))?;
    world.add(
        BodyDesc::fixed(Cuboid::new(Vec2::new(20.0, 0.5))?).pose(Iso2::translation(0.0, -0.5)),
    )?;
    let mut boxes = Vec::new();
    for i in 0..10 {
        let y = 0.5 + i as f64;
        boxes.push(world.add(
            BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5))?).pose(Iso2::translation(0.0, y)),
        )?);
    }
    let top = boxes[9];
    println!("stack: 10 boxes, {hz} Hz, 10 s");
    let summary = common::run(&mut world, 10.0, hz, |w| {
        let p = w.body(top).map(|b| b.pose().translation.vector).unwrap_or_default();
        format!("top box at ({:+.2e}, {:.4})", p.x, p.y)
    });
    let p = world.body(top)?.pose().translation.vector;
    println!("top box: sideways {:.2e} m, sunk {:.4} m", p.x.abs(), 9.5 - p.y);
    summary.print("stack", Some((p - Vec2::new(0.0, 9.5)).norm()));
    Ok(())
}
