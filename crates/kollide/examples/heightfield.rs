//! A ball dropped on a heightfield, and a box sliding over a flat one, integrated by hand with
//! the composite queries (the world does not take heightfields yet).
//!
//! `cargo run --release --example heightfield`
//!
//! The ball falls onto a bowl-shaped terrain of 32 × 32 samples and comes to rest near its
//! bottom; the box slides at 5 m/s over a flat floor of 2 × 40 × 40 triangles without friction,
//! and its vertical speed stays at zero: no ghost collision on the internal edges kicks it up.
//! The integration is the simplest that shows the queries at work (semi-implicit Euler, the
//! normal velocity removed at contact, the penetration pushed out), not the solver's.

use kollide::narrowphase::composite::{composite_contact, composite_manifold3};
use kollide::prelude::*;
use kollide::shapes::HeightField;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let settings = QuerySettings::<f64>::default();
    let dt = 1.0 / 60.0;
    let g = Vec3::new(0.0, -9.81, 0.0);

    // A bowl: height grows with the squared distance from the centre.
    let n = 32;
    let size = 31.0;
    let heights: Vec<f64> = (0..n * n)
        .map(|k| {
            let (x, z) = ((k % n) as f64 - 15.5, (k / n) as f64 - 15.5);
            0.01 * (x * x + z * z)
        })
        .collect();
    let bowl = HeightField::new(n, n, heights, Vec3::new(size, 1.0, size))?;
    let ball = Ball::new(0.5)?;
    let (mut p, mut v) = (Vec3::new(6.0, 8.0, -4.0), Vec3::zeros());
    let mut deepest = 0.0f64;
    for step in 0..1200 {
        v += g * dt;
        p += v * dt;
        let pose = Iso3::translation(p.x, p.y, p.z);
        if let Some(c) = composite_contact(&Iso3::identity(), &bowl, &pose, &ball, 0.0, &settings) {
            deepest = deepest.min(c.separation);
            p -= c.normal * c.separation;
            let vn = v.dot(&c.normal);
            if vn < 0.0 {
                v -= c.normal * vn;
            }
            v *= 0.98; // rolling resistance, so that the ball settles
        }
        if step % 240 == 0 {
            println!(
                "t = {:4.1} s: ball at ({:+.2}, {:.2}, {:+.2})",
                step as f64 * dt,
                p.x,
                p.y,
                p.z
            );
        }
    }
    let from_bottom = (p.x * p.x + p.z * p.z).sqrt();
    println!(
        "ball: {from_bottom:.2} m from the bowl's bottom, deepest penetration {:.1e} m",
        -deepest
    );

    // A box sliding over a flat, finely tessellated floor.
    let floor = HeightField::new(41, 41, vec![0.0; 41 * 41], Vec3::new(20.0, 1.0, 20.0))?;
    let cube: Shape3<f64> = Cuboid::new(Vec3::repeat(0.5))?.into();
    let (mut p, mut v) = (Vec3::new(-9.0, 0.5, -3.0), Vec3::new(5.0, 0.0, 1.7));
    let mut worst_vy = 0.0f64;
    while p.x < 9.0 {
        v += g * dt;
        p += v * dt;
        let pose = Iso3::translation(p.x, p.y, p.z);
        let m = composite_manifold3::<f64, (), _>(&Iso3::identity(), &floor, &pose, &cube, 0.01);
        if let Some(sep) = m.min_separation() {
            if sep < 0.0 {
                p -= m.normal * sep;
            }
            let vn = v.dot(&m.normal);
            if vn < 0.0 {
                v -= m.normal * vn;
            }
        }
        worst_vy = worst_vy.max(v.y.abs());
    }
    println!(
        "box: slid to x = {:.2} at {:.2} m/s; largest vertical speed {worst_vy:.1e} m/s",
        p.x,
        v.norm()
    );
    assert!(from_bottom < 1.0, "the ball did not settle in the bowl");
    assert!(worst_vy < 1e-9, "the box was kicked up");
    Ok(())
}
