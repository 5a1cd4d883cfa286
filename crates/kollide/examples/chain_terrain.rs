//! A 2D chain terrain: circles, boxes and capsules roll and slide down a hilly chain of 400
//! one-sided segments into a valley, and a frictionless capsule slides over a flat stretch.
//!
//! `cargo run --release --example chain_terrain`
//!
//! Prints where the bodies came to rest and how far the sliding capsule was kicked off the
//! ground by the chain's internal vertices (Box2D's ghost vertices play the same role).

use kollide::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World2::new(Vec2::new(0.0, -9.81))?;
    // Hills either side of a valley, then a flat run. The chain runs right to left, so that
    // the right of its direction of travel, its front, faces up.
    let points: Vec<Point2<f64>> = (0..=400)
        .map(|k| {
            let x = 60.0 - 0.3 * k as f64;
            let hills = if x < 30.0 { 0.02 * x * x + 0.8 * (0.7 * x).sin() } else { 18.0 };
            Point2::new(x, hills)
        })
        .collect();
    let lowest = points.iter().map(|p| p.y).fold(f64::MAX, f64::min);
    let ground = world.add(BodyDesc::fixed(Polyline::open(points, None, None)?))?;
    let mut bodies = Vec::new();
    for k in 0..30 {
        let x = -25.0 + 1.7 * k as f64;
        let shape: Shape2<f64> = match k % 3 {
            0 => Circle::new(0.4)?.into(),
            1 => Cuboid::new(Vec2::new(0.4, 0.3))?.into(),
            _ => Capsule::new(Point2::new(-0.4, 0.0), Point2::new(0.4, 0.0), 0.25)?.into(),
        };
        let pose = Iso2::new(Vec2::new(x, 0.02 * x * x + 4.0), 0.3 * k as f64);
        bodies.push(world.add(BodyDesc::dynamic(shape).pose(pose))?);
    }
    let slider = world.add(
        BodyDesc::dynamic(Capsule::new(Point2::new(-0.5, 0.0), Point2::new(0.5, 0.0), 0.25)?)
            .pose(Iso2::translation(32.0, 18.25))
            .friction(0.0)
            .linear_velocity(Vec2::new(6.0, 0.0)),
    )?;
    let (mut vy, mut touching) = (0.0f64, 0usize);
    for step in 0..600 {
        world.step(1.0 / 60.0)?;
        if step < 240 {
            let b = world.body(slider)?;
            vy = vy.max(b.linear_velocity().y.abs());
            touching +=
                usize::from(world.contact_pairs().iter().any(|p| p.a == ground && p.b == slider));
        }
    }
    let heights: Vec<f64> = bodies
        .iter()
        .filter_map(|&h| world.body(h).ok())
        .map(|b| b.pose().translation.vector.y)
        .collect();
    let fastest = bodies
        .iter()
        .filter_map(|&h| world.body(h).ok())
        .map(|b| b.linear_velocity().norm())
        .fold(0.0, f64::max);
    let highest = heights.iter().copied().fold(f64::MIN, f64::max);
    println!(
        "30 bodies after 10 s: all between y = {lowest:.2} (the valley floor) and {highest:.2} m, fastest {fastest:.2e} m/s"
    );
    println!(
        "capsule sliding over the flat run: on the ground {touching} of 240 steps, largest |vy| {vy:.1e} m/s"
    );
    Ok(())
}
