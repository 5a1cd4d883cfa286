//! A ragdoll (3D): a torso, a head on a ball joint, upper arms and thighs on ball joints,
//! forearms and shins on hinges with limits, dropped onto the ground from 3 m with a spin.
//! Prints where it came to rest and how far its joints opened.
//!
//! ```text
//! cargo run --release -p kollide-solver --example ragdoll
//! ```

use kollide_math::{Iso3, Point3, Vec3};
use kollide_shapes::{Ball, Capsule, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, JointDesc, JointHandle, JointKind, RevoluteJoint, SphericalJoint, World3,
};

/// A capsule limb from `a` to `b` (world points at rest), radius `r`.
fn limb(w: &mut World3<f64>, a: Point3<f64>, b: Point3<f64>, r: f64) -> BodyHandle {
    let centre = Point3::from((a.coords + b.coords) * 0.5);
    let half = (b - a).norm() * 0.5;
    // A capsule along its local y axis, turned onto `a → b`.
    let shape = Capsule::new(Point3::new(0.0, -half, 0.0), Point3::new(0.0, half, 0.0), r).unwrap();
    let turn = kollide_math::Rot3::rotation_between(&Vec3::y(), &(b - a)).unwrap_or_else(|| {
        kollide_math::Rot3::from_axis_angle(&Vec3::x_axis(), std::f64::consts::PI)
    });
    let pose = Iso3::from_parts(centre.coords.into(), turn);
    w.add(BodyDesc::dynamic(shape).pose(pose).angular_velocity(Vec3::new(0.0, 0.0, 1.0))).unwrap()
}

fn main() {
    let mut w = World3::<f64>::new(Vec3::new(0.0, -10.0, 0.0)).unwrap();
    let ground = Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -0.5, 0.0))).unwrap();
    let y = 3.0;
    let p = |x: f64, dy: f64| Point3::new(x, y + dy, 0.0);
    let torso = w
        .add(
            BodyDesc::dynamic(Cuboid::new(Vec3::new(0.2, 0.3, 0.1)).unwrap())
                .pose(Iso3::translation(0.0, y, 0.0))
                .angular_velocity(Vec3::new(0.0, 0.0, 1.0)),
        )
        .unwrap();
    let head = w
        .add(BodyDesc::dynamic(Ball::new(0.12).unwrap()).pose(Iso3::translation(
            0.0,
            y + 0.45,
            0.0,
        )))
        .unwrap();
    let mut joints: Vec<JointHandle> = Vec::new();
    let mut join = |w: &mut World3<f64>, a: BodyHandle, b: BodyHandle, kind: JointKind<f64, 3>| {
        joints.push(w.add_joint(JointDesc::new(a, b, kind)).unwrap());
    };
    join(&mut w, torso, head, SphericalJoint::new(p(0.0, 0.33)).into());
    let mut parts = vec![torso, head];
    for side in [-1.0, 1.0] {
        let upper_arm = limb(&mut w, p(0.28 * side, 0.25), p(0.28 * side, -0.05), 0.05);
        let forearm = limb(&mut w, p(0.28 * side, -0.08), p(0.28 * side, -0.38), 0.045);
        let thigh = limb(&mut w, p(0.1 * side, -0.35), p(0.1 * side, -0.75), 0.07);
        let shin = limb(&mut w, p(0.1 * side, -0.78), p(0.1 * side, -1.18), 0.06);
        join(&mut w, torso, upper_arm, SphericalJoint::new(p(0.28 * side, 0.27)).into());
        let elbow = RevoluteJoint::hinge(p(0.28 * side, -0.065), Vec3::x()).limit(0.0, 2.5);
        join(&mut w, upper_arm, forearm, elbow.into());
        join(&mut w, torso, thigh, SphericalJoint::new(p(0.1 * side, -0.32)).into());
        let knee = RevoluteJoint::hinge(p(0.1 * side, -0.765), Vec3::x()).limit(-2.5, 0.0);
        join(&mut w, thigh, shin, knee.into());
        parts.extend([upper_arm, forearm, thigh, shin]);
    }
    let mut widest = 0.0_f64;
    for _ in 0..300 {
        w.step(1.0 / 60.0).unwrap();
        for &j in &joints {
            let joint = w.joint(j).unwrap();
            let a = w.body(joint.body_a()).unwrap().pose().transform_point(&joint.local_anchor_a());
            let b = w.body(joint.body_b()).unwrap().pose().transform_point(&joint.local_anchor_b());
            widest = widest.max((a - b).norm());
        }
    }
    let speed =
        parts.iter().map(|&b| w.body(b).unwrap().linear_velocity().norm()).fold(0.0, f64::max);
    let lowest =
        parts.iter().map(|&b| w.body(b).unwrap().pose().translation.y).fold(f64::MAX, f64::min);
    let t = w.body(torso).unwrap().pose().translation;
    println!("ragdoll: 10 bodies, 9 joints (5 ball, 4 limited hinges), dropped from {y} m, 5 s");
    println!(
        "  torso at ({:.2}, {:.2}, {:.2}), lowest part's centre at {lowest:.3} m",
        t.x, t.y, t.z
    );
    println!("  fastest part {speed:.3} m/s; joints opened by at most {widest:.4} m");
}
