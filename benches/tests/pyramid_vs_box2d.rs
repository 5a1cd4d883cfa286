//! Physics checked against physics: the base-20 pyramid in kollide and in Box2D v3
//! (through `boxdd`), side by side.
//!
//! Twenty rows of unit boxes placed exactly touching on a static ground box, gravity 9.81, 60 Hz
//! with 4 substeps, friction 0.6, density 1, no sleeping, 10 simulated seconds. After that every
//! box is measured against where it was placed: how far it moved and how far it turned. The
//! issue asks for at most 3 cm and 0.2°; kollide must also do at least as well as Box2D v3 on
//! the same scene (Box2D: about 2.9 cm and 0.16°, its edge boxes tilting on their soft
//! supports).

use kollide::math::{Iso2, Vec2};
use kollide::shapes::Cuboid;
use kollide::solver::{BodyDesc, World2};

#[path = "../common/box2d_boxes.rs"]
mod box2d_boxes;
use box2d_boxes::{Box2dBoxes, box2d_boxes};

const BASE: usize = 20;
const STEPS: usize = 600;
const DT: f64 = 1.0 / 60.0;
const GRAVITY: f64 = -9.81;

/// Where the boxes start: row by row from the bottom, left to right.
fn centres() -> Vec<[f64; 2]> {
    let mut out = Vec::new();
    for row in 0..BASE {
        for i in 0..BASE - row {
            out.push([i as f64 - (BASE - row) as f64 / 2.0 + 0.5, 0.5 + row as f64]);
        }
    }
    out
}

/// The largest displacement (m) and rotation (degrees) of any box: `(centre, angle)` at the end
/// against the start.
fn worst(start: &[[f64; 2]], end: &[([f64; 2], f64)]) -> (f64, f64) {
    start.iter().zip(end).fold((0.0f64, 0.0f64), |(m, r), (s, (p, angle))| {
        let moved = ((p[0] - s[0]).powi(2) + (p[1] - s[1]).powi(2)).sqrt();
        (m.max(moved), r.max(angle.to_degrees().abs()))
    })
}

fn kollide_pyramid(start: &[[f64; 2]]) -> Vec<([f64; 2], f64)> {
    let mut w = World2::<f64>::new(Vec2::new(0.0, GRAVITY)).unwrap();
    let ground = Cuboid::new(Vec2::new(50.0, 0.5)).expect("extents");
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).expect("ground");
    let boxes: Vec<_> = start
        .iter()
        .map(|c| {
            let cube = Cuboid::new(Vec2::new(0.5, 0.5)).expect("extents");
            w.add(BodyDesc::dynamic(cube).pose(Iso2::translation(c[0], c[1]))).expect("a box")
        })
        .collect();
    for _ in 0..STEPS {
        w.step(DT).expect("a valid step");
    }
    boxes
        .iter()
        .map(|&h| {
            let pose = w.body(h).expect("live body").pose();
            ([pose.translation.x, pose.translation.y], pose.rotation.angle())
        })
        .collect()
}

fn box2d_pyramid(start: &[[f64; 2]]) -> Vec<([f64; 2], f64)> {
    let centres = start.iter().map(|c| [c[0] as f32, c[1] as f32]);
    let Box2dBoxes { mut world, boxes } =
        box2d_boxes(GRAVITY as f32, [50.0, 0.5], [0.0, -0.5], 0.5, centres);
    for _ in 0..STEPS {
        let done = world.step(DT as f32, 4).expect("a valid step");
        assert!(done.post_step_error().is_none(), "Box2D reported a post-step error");
    }
    boxes
        .iter()
        .map(|&id| {
            let b = world.body(id).expect("live body");
            let p = b.position().expect("a position");
            let r = b.rotation().expect("a rotation");
            ([f64::from(p.x), f64::from(p.y)], f64::from(r.sine()).atan2(f64::from(r.cosine())))
        })
        .collect()
}

#[test]
fn base_twenty_pyramid_stands_at_least_as_well_as_in_box2d() {
    let start = centres();
    let (k_move, k_rot) = worst(&start, &kollide_pyramid(&start));
    let (b_move, b_rot) = worst(&start, &box2d_pyramid(&start));
    eprintln!(
        "base-20 pyramid after 10 s: kollide moved {k_move:.4} m, turned {k_rot:.3}°; \
         Box2D v3 moved {b_move:.4} m, turned {b_rot:.3}°"
    );
    assert!(k_move < 0.03, "a box moved {k_move} m");
    assert!(k_rot < 0.2, "a box turned {k_rot}°");
    assert!(k_move <= b_move, "kollide's boxes moved more than Box2D's: {k_move} > {b_move}");
    assert!(k_rot <= b_rot, "kollide's boxes turned more than Box2D's: {k_rot} > {b_rot}");
}
