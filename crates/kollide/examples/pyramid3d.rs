//! A 3D pyramid of cubes (square layers, base 8 by default) for 10 s.
//!
//! `cargo run --release --example pyramid3d [-- --base 8 --seconds 10]`
//!
//! With `--svg DIR` it writes four frames per simulated second as SVG into `DIR`.

mod common;

use kollide::prelude::*;
use kollide::solver::{BodyDesc, World3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base: usize = common::arg("--base").map_or(Ok(8), |s| s.parse())?;
    let seconds: f64 = common::arg("--seconds").map_or(Ok(10.0), |s| s.parse())?;
    let hz = 60;
    let mut world = World3::<f32>::new(Vec3::new(0.0, -9.81, 0.0))?;
    world.add(
        BodyDesc::fixed(Cuboid::new(Vec3::new(base as f32 + 5.0, 0.5, base as f32 + 5.0))?)
            .pose(Iso3::translation(0.0, -0.5, 0.0)),
    )?;
    let mut cubes = Vec::new();
    for layer in 0..base {
        let n = base - layer;
        for i in 0..n {
            for k in 0..n {
                let x = i as f32 - n as f32 / 2.0 + 0.5;
                let z = k as f32 - n as f32 / 2.0 + 0.5;
                let y = 0.5 + layer as f32;
                let h = world.add(
                    BodyDesc::dynamic(Cuboid::new(Vec3::repeat(0.5))?)
                        .pose(Iso3::translation(x, y, z)),
                )?;
                cubes.push((h, Vec3::new(x, y, z)));
            }
        }
    }
    println!("pyramid3d: base {base}, {} cubes, {hz} Hz, {seconds} s", cubes.len());
    let apex = cubes.last().map(|c| c.0);
    let summary =
        common::run(&mut world, seconds, hz, |w| match apex.and_then(|h| w.body(h).ok()) {
            Some(b) => {
                let p = b.pose().translation.vector;
                format!("apex at ({:+.3}, {:.3}, {:+.3})", p.x, p.y, p.z)
            }
            None => String::new(),
        });
    let drift = cubes
        .iter()
        .filter_map(|(h, start)| {
            world.body(*h).ok().map(|b| (b.pose().translation.vector - start).norm())
        })
        .fold(0.0f32, f32::max);
    summary.print("pyramid3d", Some(drift as f64));
    Ok(())
}
