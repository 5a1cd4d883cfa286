//! A car on wheel joints (2D): a chassis on two sprung wheels, the rear one driven by a motor,
//! over a road with bumps. Prints how far it drove, its speed, and how its suspension moved.
//!
//! ```text
//! cargo run --release -p kollide-solver --example car
//! ```

use kollide_math::{Iso2, Point2, Vec2};
use kollide_shapes::{Circle, Cuboid};
use kollide_solver::{BodyDesc, JointDesc, WheelJoint, World2};

fn main() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let road = Cuboid::new(Vec2::new(200.0, 0.5)).unwrap();
    w.add(BodyDesc::fixed(road).pose(Iso2::translation(150.0, -0.5))).unwrap();
    let bump = Cuboid::new(Vec2::new(0.6, 0.08)).unwrap();
    for k in 0..10 {
        let pose = Iso2::new(Vec2::new(10.0 + 12.0 * k as f64, 0.0), 0.0);
        w.add(BodyDesc::fixed(bump).pose(pose)).unwrap();
    }
    let chassis = Cuboid::new(Vec2::new(1.2, 0.25)).unwrap();
    let car = w.add(BodyDesc::dynamic(chassis).pose(Iso2::translation(0.0, 1.0))).unwrap();
    let radius = 0.4;
    let mut wheels = Vec::new();
    for (x, driven) in [(-0.9, true), (0.9, false)] {
        let disc = Circle::new(radius).unwrap();
        let desc = BodyDesc::dynamic(disc).friction(0.9).pose(Iso2::translation(x, 0.4));
        let b = w.add(desc).unwrap();
        let mut axle = WheelJoint::new(Point2::new(x, 0.4), Vec2::y()).limit(-0.25, 0.1);
        if driven {
            axle = axle.motor(-20.0, 40.0);
        }
        w.add_joint(JointDesc::new(car, b, axle)).unwrap();
        wheels.push((b, x));
    }
    let (mut low, mut high) = (f64::MAX, f64::MIN);
    let mut tilt = 0.0_f64;
    for _ in 0..600 {
        w.step(1.0 / 60.0).unwrap();
        let body = w.body(car).unwrap();
        tilt = tilt.max(body.pose().rotation.angle().abs());
        for &(b, _) in &wheels {
            let centre = Point2::from(w.body(b).unwrap().pose().translation.vector);
            let local = body.pose().inverse_transform_point(&centre);
            low = low.min(local.y);
            high = high.max(local.y);
        }
    }
    let body = w.body(car).unwrap();
    let p = body.pose().translation;
    println!("car: 2 wheels on sprung wheel joints (4 Hz), rear motor 20 rad/s, 10 bumps, 10 s");
    println!(
        "  drove to x = {:.1} m at {:.2} m/s (motor speed × radius = {:.1} m/s)",
        p.x,
        body.linear_velocity().x,
        20.0 * radius
    );
    println!(
        "  wheel centres {low:.3} to {high:.3} m from the chassis (at rest -0.6; limits -0.85 and -0.5)"
    );
    println!("  tilted by at most {tilt:.3} rad");
}
