//! A fixed run of the world step for instruction counts and wall times: Box2D's large pyramid
//! (`World2<f32>`, base 100; `2dc`: with `StepSettings::colour_2d`), the base-10 cube pyramid
//! (`World3<f32>`) or Box2D's joint grid (`grid`: 100 × 100 discs, 19,800 revolute joints), `settle` steps, then
//! `count` steps inside [`counted_steps`] (a symbol of its own for callgrind's
//! `--toggle-collect`). Sleeping is off, as in the world benches: every body is stepped.
//!
//! With `sway` instead of a thread count it runs 600 steps (10 s) and prints how the apex (the
//! last box) sagged and swayed, as the world bench's settling run does.
//!
//! ```text
//! cargo run --release -p kollide-solver --example step_run -- 2d <threads> [settle] [count]
//! cargo run --release -p kollide-solver --example step_run -- grid <threads> [settle] [count]
//! cargo run --release -p kollide-solver --example step_run -- 2d sway
//! valgrind --tool=callgrind --toggle-collect='*counted_steps*' target/release/examples/step_run 2d 1
//! ```

use std::time::Instant;

use kollide_math::{Iso2, Iso3, Point2, Vec2, Vec3};
use kollide_shapes::{Circle, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, CollisionGroups, JointDesc, RevoluteJoint, StepSettings, World, World2,
    World3,
};

/// Box2D's `large_pyramid`: row `i` holds `100 − i` boxes of half-size 0.5, on a 200 × 2 ground.
fn pyramid2() -> World2<f32> {
    let (base, half) = (100, 0.5_f32);
    let mut w = World2::new(Vec2::new(0.0, -10.0)).unwrap();
    w.set_settings(StepSettings { sleeping: false, ..*w.settings() }).unwrap();
    let ground = Cuboid::new(Vec2::new(100.0, 1.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -1.0))).unwrap();
    let cube = Cuboid::new(Vec2::new(half, half)).unwrap();
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * half;
        for j in i..base {
            let x = (i as f32 + 1.0) * half + 2.0 * (j - i) as f32 * half - half * base as f32;
            w.add(BodyDesc::dynamic(cube).pose(Iso2::translation(x, y))).unwrap();
        }
    }
    w
}

/// Square layers of unit cubes, base 10, on a 30 × 2 × 30 ground.
fn pyramid3() -> World3<f32> {
    let (base, half) = (10, 0.5_f32);
    let mut w = World3::new(Vec3::new(0.0, -10.0, 0.0)).unwrap();
    w.set_settings(StepSettings { sleeping: false, ..*w.settings() }).unwrap();
    let ground = Cuboid::new(Vec3::new(15.0, 1.0, 15.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -1.0, 0.0))).unwrap();
    let cube = Cuboid::new(Vec3::repeat(half)).unwrap();
    for layer in 0..base {
        let n = base - layer;
        for i in 0..n {
            for k in 0..n {
                let at = |j: usize| (j as f32 - n as f32 / 2.0 + 0.5) * 2.0 * half;
                let p = Iso3::translation(at(i), (2.0 * layer as f32 + 1.0) * half, at(k));
                w.add(BodyDesc::dynamic(cube).pose(p)).unwrap();
            }
        }
    }
    w
}

/// Box2D's `joint_grid` benchmark: discs of radius 0.4 a metre apart in a 100 × 100 grid, each
/// hinged to its neighbours above and to the left, hanging from seven static discs in the top
/// row; the discs do not collide with each other.
fn joint_grid() -> World2<f32> {
    let n = 100;
    let mut w = World2::new(Vec2::new(0.0, -10.0)).unwrap();
    w.set_settings(StepSettings { sleeping: false, ..*w.settings() }).unwrap();
    let disc = Circle::new(0.4).unwrap();
    let groups = CollisionGroups::new(2, !2);
    let mut bodies: Vec<BodyHandle> = Vec::with_capacity(n * n);
    for k in 0..n {
        for i in 0..n {
            let fixed = i == 0 && k + 3 >= n / 2 && k <= n / 2 + 3;
            let desc = if fixed { BodyDesc::fixed(disc) } else { BodyDesc::dynamic(disc) };
            let (x, y) = (k as f32, -(i as f32));
            let b = w.add(desc.pose(Iso2::translation(x, y)).collision_groups(groups)).unwrap();
            if i > 0 {
                let hinge = RevoluteJoint::new(Point2::new(x, y + 0.5));
                w.add_joint(JointDesc::new(bodies[bodies.len() - 1], b, hinge)).unwrap();
            }
            if k > 0 {
                let hinge = RevoluteJoint::new(Point2::new(x - 0.5, y));
                w.add_joint(JointDesc::new(bodies[bodies.len() - n], b, hinge)).unwrap();
            }
            bodies.push(b);
        }
    }
    w
}

/// The same world with its contacts ordered by graph colouring ([`StepSettings::colour_2d`]).
fn coloured(mut w: World2<f32>) -> World2<f32> {
    w.set_settings(StepSettings { colour_2d: true, ..*w.settings() }).unwrap();
    w
}

/// The steps that are counted.
#[inline(never)]
fn counted_steps<const D: usize>(w: &mut World<f32, D>, count: usize)
where
    kollide_solver::Dim<D>: kollide_solver::SolverDim<f32, D>,
{
    for _ in 0..count {
        std::hint::black_box(w.step(1.0 / 60.0).unwrap());
    }
}

/// Settles, then runs and times the counted steps; prints ms a step and the last report.
fn run<const D: usize>(mut w: World<f32, D>, threads: usize, settle: usize, count: usize)
where
    kollide_solver::Dim<D>: kollide_solver::SolverDim<f32, D>,
{
    w.set_threads(threads).unwrap();
    for _ in 0..settle {
        w.step(1.0 / 60.0).unwrap();
    }
    let t = Instant::now();
    counted_steps(&mut w, count);
    let ms = t.elapsed().as_secs_f64() * 1e3 / count as f64;
    let report = w.step(1.0 / 60.0).unwrap();
    println!("{D}D threads {threads}: {ms:.3} ms a step; {report:?}");
}

/// Runs 10 s and prints the apex's sag, its sway at the end and its largest sway on the way.
fn sway<const D: usize>(
    mut w: World<f32, D>,
    centre: impl Fn(&World<f32, D>, BodyHandle) -> kollide_math::Vector<f32, D>,
) where
    kollide_solver::Dim<D>: kollide_solver::SolverDim<f32, D>,
{
    let apex = w.bodies().last().expect("a box").0;
    let at = |w: &World<f32, D>| centre(w, apex);
    let start = at(&w);
    let sideways = |p: &kollide_math::Vector<f32, D>| {
        (0..D).filter(|&k| k != 1).map(|k| (p[k] - start[k]).powi(2)).sum::<f32>().sqrt()
    };
    let mut peak = 0.0f32;
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        peak = peak.max(sideways(&at(&w)));
    }
    let p = at(&w);
    println!(
        "{D}D apex sag {:.4} m, sway {:.2e} m, at most {peak:.2e} m",
        start[1] - p[1],
        sideways(&p)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(2).map(String::as_str) == Some("sway") {
        match args.get(1).map(String::as_str) {
            Some("3d") => sway(pyramid3(), |w, h| w.body(h).unwrap().pose().translation.vector),
            Some("2dc") => {
                sway(coloured(pyramid2()), |w, h| w.body(h).unwrap().pose().translation.vector)
            }
            _ => sway(pyramid2(), |w, h| w.body(h).unwrap().pose().translation.vector),
        }
        return;
    }
    let arg = |i: usize, default: usize| args.get(i).map_or(default, |s| s.parse().unwrap());
    let (threads, settle, count) = (arg(2, 1), arg(3, 60), arg(4, 20));
    match args.get(1).map(String::as_str) {
        Some("3d") => run(pyramid3(), threads, settle, count),
        Some("2dc") => run(coloured(pyramid2()), threads, settle, count),
        Some("grid") => run(joint_grid(), threads, settle, count),
        _ => run(pyramid2(), threads, settle, count),
    }
}
