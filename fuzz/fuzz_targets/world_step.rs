//! A world stepped with bodies, gravity, velocities and time steps from raw numbers: no panic,
//! and every accepted configuration stays finite (a rejected call returns an error).
#![no_main]

use kollide::prelude::*;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;
use common::Bytes;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let gravity = Vec3::new(b.num(20.0) as f32, b.num(20.0) as f32, b.num(20.0) as f32);
    let Ok(mut world) = World3::<f32>::new(gravity) else {
        return;
    };
    let ground = Cuboid::new(Vec3::new(10.0f32, 0.5, 10.0)).expect("valid");
    if world.add(BodyDesc::fixed(ground)).is_err() {
        return;
    }
    let count = b.byte() % 5;
    for _ in 0..count {
        let mut n = |lim: f64| b.num(lim) as f32;
        let shape: Shape3<f32> = match n(10.0).abs() as u32 % 3 {
            0 => match Ball::new(n(2.0).abs()) {
                Ok(s) => s.into(),
                Err(_) => continue,
            },
            1 => match Cuboid::new(Vec3::new(n(2.0).abs(), n(2.0).abs(), n(2.0).abs())) {
                Ok(s) => s.into(),
                Err(_) => continue,
            },
            _ => match Capsule::new(
                Point3::new(0.0, -n(1.0).abs(), 0.0),
                Point3::new(0.0, n(1.0).abs(), 0.0),
                n(1.0).abs(),
            ) {
                Ok(s) => s.into(),
                Err(_) => continue,
            },
        };
        let pose = Iso3::new(Vec3::new(n(5.0), n(5.0), n(5.0)), Vec3::new(n(3.0), n(3.0), n(3.0)));
        let desc = BodyDesc::dynamic(shape)
            .pose(pose)
            .linear_velocity(Vec3::new(n(10.0), n(10.0), n(10.0)))
            .density(n(1e3).abs());
        let _ = world.add(desc);
    }
    for _ in 0..(b.byte() % 30) {
        let dt = b.num(0.05) as f32;
        if world.step(dt).is_err() {
            continue;
        }
        for (_, body) in world.bodies() {
            let p = body.pose();
            assert!(
                p.translation.vector.iter().all(|x| x.is_finite()),
                "a body became non-finite: {p:?}"
            );
            assert!(
                p.rotation.coords.iter().all(|x| x.is_finite()),
                "a body became non-finite: {p:?}"
            );
        }
    }
});
