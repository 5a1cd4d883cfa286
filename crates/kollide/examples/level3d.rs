//! Bodies on level geometry in 3D: boxes, balls and L-shaped compounds dropped on a rolling
//! triangle mesh and on a heightfield bowl, and a frictionless box sliding over a flat
//! tessellated floor.
//!
//! `cargo run --release --example level3d`
//!
//! Prints how deep the deepest contact with the ground is at the end, how fast the fastest body still moves
//! (balls keep rolling on slopes: there is no rolling resistance), and how far the slide was
//! kicked off the floor by internal edges. The ghost-collision check is asserted in
//! `kollide-solver`'s `tests/solver/level.rs`.

use std::sync::Arc;

use kollide::prelude::*;

/// A mesh of `n × n` cells of side `cell`, centred on the origin, its height given by `y(x, z)`;
/// its triangles face up.
fn terrain(n: usize, cell: f64, y: impl Fn(f64, f64) -> f64) -> Result<TriMesh<f64>, TriMeshError> {
    let half = n as f64 * cell / 2.0;
    let mut vertices = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let (x, z) = (i as f64 * cell - half, j as f64 * cell - half);
            vertices.push(Point3::new(x, y(x, z), z));
        }
    }
    let at = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut indices = Vec::new();
    for j in 0..n {
        for i in 0..n {
            indices.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            indices.push([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)]);
        }
    }
    TriMesh::new(vertices, indices)
}

/// Drops a grid of bodies on `ground` and runs `seconds`; returns the deepest contact with the
/// ground at the end and the fastest body then (a ball may still roll on a slope).
fn settle(
    ground: BodyDesc<f64, 3>,
    seconds: f64,
) -> Result<(f64, f64), Box<dyn std::error::Error>> {
    let mut world = World3::new(Vec3::new(0.0, -9.81, 0.0))?;
    let ground = world.add(ground)?;
    let bar: Shape3<f64> = Cuboid::new(Vec3::new(0.6, 0.15, 0.2))?.into();
    let post: Shape3<f64> = Cuboid::new(Vec3::new(0.15, 0.4, 0.2))?.into();
    let l_shape = Arc::new(Compound3::new(vec![
        (Iso3::identity(), bar),
        (Iso3::translation(0.45, 0.55, 0.0), post),
    ])?);
    let mut bodies = Vec::new();
    for k in 0..36 {
        let (x, z) = ((k % 6) as f64 * 2.0 - 5.0, (k / 6) as f64 * 2.0 - 5.0);
        let shape: BodyShape3<f64> = match k % 3 {
            0 => Cuboid::new(Vec3::new(0.4, 0.3, 0.5))?.into(),
            1 => Ball::new(0.4)?.into(),
            _ => l_shape.clone().into(),
        };
        let pose =
            Iso3::new(Vec3::new(x, 4.0 + 0.2 * k as f64, z), Vec3::new(0.3, 0.2 * k as f64, 0.1));
        bodies.push(world.add(BodyDesc::dynamic(shape).pose(pose))?);
    }
    for _ in 0..(seconds * 60.0) as usize {
        world.step(1.0 / 60.0)?;
    }
    let deepest = world
        .contact_pairs()
        .iter()
        .filter(|pair| pair.a == ground || pair.b == ground)
        .filter_map(|pair| pair.manifold.min_separation())
        .fold(0.0f64, f64::min);
    let fastest = bodies
        .iter()
        .filter_map(|&h| world.body(h).ok())
        .map(|b| b.linear_velocity().norm())
        .fold(0.0, f64::max);
    Ok((-deepest, fastest))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rolling = terrain(24, 1.0, |x, z| 0.4 * (0.5 * x).sin() * (0.4 * z).cos())?;
    println!("mesh: {} triangles", rolling.triangle_count());
    let (depth, speed) = settle(BodyDesc::fixed(rolling), 6.0)?;
    println!(
        "36 bodies on a rolling mesh after 6 s: deepest contact {depth:.1e} m, fastest {speed:.2e} m/s"
    );

    let n = 33;
    let heights: Vec<f64> = (0..n * n)
        .map(|k| {
            let (x, z) = ((k % n) as f64 - 16.0, (k / n) as f64 - 16.0);
            0.01 * (x * x + z * z)
        })
        .collect();
    let bowl = HeightField::new(n, n, heights, Vec3::new(32.0, 1.0, 32.0))?;
    let (depth, speed) = settle(BodyDesc::fixed(bowl), 6.0)?;
    println!(
        "36 bodies in a heightfield bowl after 6 s: deepest contact {depth:.1e} m, fastest {speed:.2e} m/s"
    );

    // A frictionless box sliding at 5 m/s over a flat mesh of 2 × 20 × 20 triangles.
    let mut world = World3::new(Vec3::new(0.0, -9.81, 0.0))?;
    world.add(BodyDesc::fixed(terrain(20, 1.0, |_, _| 0.0)?).friction(0.0))?;
    let cube = world.add(
        BodyDesc::dynamic(Cuboid::new(Vec3::repeat(0.5))?)
            .pose(Iso3::translation(-8.0, 0.5, -2.0))
            .friction(0.0)
            .linear_velocity(Vec3::new(5.0, 0.0, 1.7)),
    )?;
    let (mut vy, mut spin) = (0.0f64, 0.0f64);
    for _ in 0..150 {
        world.step(1.0 / 60.0)?;
        let b = world.body(cube)?;
        vy = vy.max(b.linear_velocity().y.abs());
        spin = spin.max(b.angular_velocity().norm());
    }
    let b = world.body(cube)?;
    println!(
        "box sliding over 800 triangles: largest |vy| {vy:.1e} m/s, largest |ω| {spin:.1e} rad/s, ends at x = {:.2} m",
        b.pose().translation.vector.x
    );
    Ok(())
}
