//! A 3D stack of 10 cubes on the ground for 10 s.
//!
//! `cargo run --release --example stack3d`
//!
//! With `--svg DIR` it writes four frames per simulated second as SVG into `DIR`.

mod common;

use kollide::prelude::*;
use kollide::solver::{BodyDesc, World3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let hz = 60;
    let mut world = World3::<f64>::new(Vec3::new(0.0, -9.81, 0.0))?;
    world.add(
        BodyDesc::fixed(Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?)
            .pose(Iso3::translation(0.0, -0.5, 0.0)),
    )?;
    let mut cubes = Vec::new();
    for i in 0..10 {
        cubes.push(world.add(
            BodyDesc::dynamic(Cuboid::new(Vec3::repeat(0.5))?).pose(Iso3::translation(
                0.0,
                0.5 + i as f64,
                0.0,
            )),
        )?);
    }
    let top = cubes[9];
    println!("stack3d: 10 cubes, {hz} Hz, 10 s");
    let summary = common::run(&mut world, 10.0, hz, |w| {
        let p = w.body(top).map(|b| b.pose().translation.vector).unwrap_or_default();
        format!("top cube at ({:+.2e}, {:.4}, {:+.2e})", p.x, p.y, p.z)
    });
    let p = world.body(top)?.pose().translation.vector;
    let sideways = (p.x * p.x + p.z * p.z).sqrt();
    println!("top cube: sideways {sideways:.2e} m, sunk {:.4} m", 9.5 - p.y);
    summary.print("stack3d", Some((p - Vec3::new(0.0, 9.5, 0.0)).norm()));
    Ok(())
}
