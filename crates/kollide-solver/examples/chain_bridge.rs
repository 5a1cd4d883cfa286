//! A chain bridge (2D): forty planks hinged end to end between two posts, with a few crates
//! dropped on it. Prints how far the bridge sagged, how far its joints opened and where the
//! crates came to rest.
//!
//! ```text
//! cargo run --release -p kollide-solver --example chain_bridge
//! ```

use kollide_math::{Iso2, Point2, Vec2};
use kollide_shapes::Cuboid;
use kollide_solver::{BodyDesc, BodyHandle, JointDesc, RevoluteJoint, World2};

fn main() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let (planks, length) = (40, 0.5);
    let span = planks as f64 * length;
    let post = Cuboid::new(Vec2::new(0.25, 2.0)).unwrap();
    let left = w.add(BodyDesc::fixed(post).pose(Iso2::translation(-0.25, -2.0))).unwrap();
    let right = w.add(BodyDesc::fixed(post).pose(Iso2::translation(span + 0.25, -2.0))).unwrap();
    let plank = Cuboid::new(Vec2::new(length / 2.0, 0.05)).unwrap();
    let mut prev = left;
    let mut joints = Vec::new();
    let mut bridge: Vec<BodyHandle> = Vec::new();
    for i in 0..planks {
        let x = (i as f64 + 0.5) * length;
        let b = w
            .add(BodyDesc::dynamic(plank).density(20.0).pose(Iso2::translation(x, -0.05)))
            .unwrap();
        let hinge = RevoluteJoint::new(Point2::new(i as f64 * length, -0.05));
        joints.push(w.add_joint(JointDesc::new(prev, b, hinge)).unwrap());
        bridge.push(b);
        prev = b;
    }
    let end = RevoluteJoint::new(Point2::new(span, -0.05));
    joints.push(w.add_joint(JointDesc::new(prev, right, end)).unwrap());
    let crate_shape = Cuboid::new(Vec2::new(0.4, 0.4)).unwrap();
    let crates: Vec<BodyHandle> = (0..5)
        .map(|k| {
            let p = Iso2::translation(3.0 + 3.5 * k as f64, 3.0 + k as f64);
            w.add(BodyDesc::dynamic(crate_shape).pose(p)).unwrap()
        })
        .collect();
    let mut widest = 0.0_f64;
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        for &j in &joints {
            let joint = w.joint(j).unwrap();
            let a = w.body(joint.body_a()).unwrap().pose().transform_point(&joint.local_anchor_a());
            let b = w.body(joint.body_b()).unwrap().pose().transform_point(&joint.local_anchor_b());
            widest = widest.max((a - b).norm());
        }
    }
    let lowest =
        bridge.iter().map(|&b| w.body(b).unwrap().pose().translation.y).fold(0.0, f64::min);
    println!("chain bridge: {planks} planks over {span} m, 5 crates, 10 s at 60 Hz");
    println!("  lowest plank at {lowest:.3} m (sag), joints opened by at most {widest:.4} m");
    for (k, &c) in crates.iter().enumerate() {
        let body = w.body(c).unwrap();
        let p = body.pose().translation;
        let v = body.linear_velocity().norm();
        println!("  crate {k}: at ({:.2}, {:.2}), speed {v:.3} m/s", p.x, p.y);
    }
}
