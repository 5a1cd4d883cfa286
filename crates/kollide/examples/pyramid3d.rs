//! A 3D pyramid of cubes (square layers, base 8 by default) for 10 s.
//!
//! `cargo run --release --example pyramid3d [-- --base 8 --seconds 10]`
//!
//! With `--svg DIR` it writes four frames per simulated second as SVG into `DIR`.

mod common;

use kollide::prelude::*;
use kollide::solver::{BodyDesc, World3};
use std::cell::RefCell;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base: usize = common::arg("--base").map_or(Ok(8), |s| s.parse())?;
    let seconds: f64 = common::arg("--seconds").map_or(Ok(10.0), |s| s.parse())?;
    let hz = 60;
    let mut world = World3::<f32>::new(Vec3::new(0.0, -9.81, 0.0));
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
    let world = RefCell::new(world);
    let steps = (seconds * hz as f64).round() as usize;
    let svg = common::svg_dir();
    let mut frame = 0usize;
    let (secs, contacts) = common::run(
        steps,
        hz,
        || {
            let contacts =
                world.borrow_mut().step(1.0 / hz as f32).map(|r| r.contacts).unwrap_or(0);
            if let Some(dir) = &svg {
                if frame.is_multiple_of(hz / 4) {
                    let _ = common::write_frame3(dir, frame / (hz / 4), &world.borrow());
                }
                frame += 1;
            }
            contacts
        },
        || {
            let w = world.borrow();
            match apex.and_then(|h| w.body(h).ok()) {
                Some(b) => {
                    let p = b.pose().translation.vector;
                    format!("apex at ({:+.3}, {:.3}, {:+.3})", p.x, p.y, p.z)
                }
                None => String::new(),
            }
        },
    );
    let world = world.into_inner();
    let drift = cubes
        .iter()
        .filter_map(|(h, start)| {
            world.body(*h).ok().map(|b| (b.pose().translation.vector - start).norm())
        })
        .fold(0.0f32, f32::max);
    common::Summary {
        steps,
        seconds: secs,
        bodies: world.len(),
        contacts,
        max_drift: Some(drift as f64),
    }
    .print("pyramid3d");
    Ok(())
}
