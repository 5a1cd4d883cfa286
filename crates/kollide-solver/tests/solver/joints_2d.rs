//! 2D joints checked against physics: a pendulum's period against the physical-pendulum
//! formula (f32 and f64), a 100-link chain's stretch, Box2D's joint grid staying stable, a
//! motor reaching its speed and a torque-limited motor's acceleration, limits, distance joints
//! (rod, rope, spring), a weld, collide-connected, and bad input refused with the world
//! unchanged.

use kollide_math::{Iso2, Point2, Scalar, Vec2};
use kollide_shapes::{Circle, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, CollisionGroups, DistanceJoint, JointDesc, JointHandle, Motor,
    PrismaticJoint, RevoluteJoint, Spring, StepSettings, WeldJoint, WheelJoint, World2, WorldError,
};

const G: f64 = 10.0;

fn world<N: Scalar + kollide_solver::LaneScalar>() -> World2<N> {
    World2::new(Vec2::new(N::zero(), N::lit(-G))).unwrap()
}

fn pos<N: Scalar + kollide_solver::LaneScalar>(w: &World2<N>, h: BodyHandle) -> Vec2<N> {
    w.body(h).unwrap().pose().translation.vector
}

fn pin<N: Scalar + kollide_solver::LaneScalar>(w: &mut World2<N>, x: f64, y: f64) -> BodyHandle {
    let shape = Circle::new(N::lit(0.05)).unwrap();
    w.add(BodyDesc::fixed(shape).pose(Iso2::translation(N::lit(x), N::lit(y)))).unwrap()
}

/// Times (s) at which `x` crossed zero downwards, linearly interpolated.
fn down_crossings(xs: &[(f64, f64)]) -> Vec<f64> {
    xs.windows(2)
        .filter(|w| w[0].1 > 0.0 && w[1].1 <= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * w[0].1 / (w[0].1 - w[1].1))
        .collect()
}

/// A disc of radius `r` hinged at distance `l` from its centre, released at `theta0`: its
/// period against `2π √(I_pivot / (m g l)) (1 + θ₀²/16)`.
fn pendulum_period<N: Scalar + kollide_solver::LaneScalar>(tolerance: f64) {
    let (l, r, theta0) = (1.0, 0.1, 0.1_f64);
    let mut w = world::<N>();
    let top = pin(&mut w, 0.0, 5.0);
    let (x0, y0) = (l * theta0.sin(), 5.0 - l * theta0.cos());
    let bob = w
        .add(
            BodyDesc::dynamic(Circle::new(N::lit(r)).unwrap())
                .pose(Iso2::translation(N::lit(x0), N::lit(y0))),
        )
        .unwrap();
    w.add_joint(JointDesc::new(top, bob, RevoluteJoint::new(Point2::new(N::zero(), N::lit(5.0)))))
        .unwrap();
    let dt = 1.0 / 60.0;
    let mut xs = Vec::new();
    for i in 0..600 {
        w.step(N::lit(dt)).unwrap();
        xs.push(((i + 1) as f64 * dt, pos(&w, bob).x.to_f64()));
    }
    let crossings = down_crossings(&xs);
    assert!(crossings.len() >= 4, "the pendulum did not swing: {} crossings", crossings.len());
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    let inertia = r * r / 2.0 + l * l; // per unit mass, about the pivot
    let expected =
        2.0 * std::f64::consts::PI * (inertia / (G * l)).sqrt() * (1.0 + theta0 * theta0 / 16.0);
    let error = (period - expected).abs() / expected;
    assert!(error < tolerance, "period {period:.5} s, expected {expected:.5} s ({error:.2e})");
    // The hinge held: the bob stays at the rod's length.
    let d = (pos(&w, bob) - Vec2::new(N::zero(), N::lit(5.0))).norm().to_f64();
    assert!((d - l).abs() < 1e-3, "rod length {d}");
}

#[test]
fn a_pendulum_swings_with_the_physical_pendulum_period_f64() {
    pendulum_period::<f64>(1e-4);
}

#[test]
fn a_pendulum_swings_with_the_physical_pendulum_period_f32() {
    pendulum_period::<f32>(1e-4);
}

/// A chain of `n` links (boxes 0.5 m long, 0.05 kg) hinged end to end from a pin, hanging
/// straight down at rest (`hanging`) or released horizontally, stepped for `seconds` with
/// `substeps` and joints of `hertz`; returns the largest gap between linked ends, and the
/// chain's total stretch (the sum of the gaps).
fn chain(n: usize, hanging: bool, seconds: f64, substeps: u32, hertz: f64) -> (f64, f64) {
    let mut w = world::<f64>();
    w.set_settings(StepSettings { substeps, ..*w.settings() }).unwrap();
    let top = pin(&mut w, 0.0, 0.0);
    let link = Cuboid::new(Vec2::new(0.25, 0.05)).unwrap();
    // Link `i` spans `[0.5 i, 0.5 (i + 1)]` along the chain's direction `dir`.
    let (dir, turn) = if hanging {
        (Vec2::new(0.0, -1.0), -std::f64::consts::FRAC_PI_2)
    } else {
        (Vec2::new(1.0, 0.0), 0.0)
    };
    let mut prev = top;
    let mut links = Vec::new();
    for i in 0..n {
        let centre = dir * (0.25 + 0.5 * i as f64);
        let b = w.add(BodyDesc::dynamic(link).pose(Iso2::new(centre, turn))).unwrap();
        let hinge = RevoluteJoint::new(Point2::from(dir * (0.5 * i as f64)));
        w.add_joint(JointDesc::new(prev, b, hinge).constraint_softness(hertz, 2.0)).unwrap();
        links.push(b);
        prev = b;
    }
    for _ in 0..(seconds * 60.0) as usize {
        w.step(1.0 / 60.0).unwrap();
    }
    let end =
        |h: BodyHandle, x: f64| w.body(h).unwrap().pose().transform_point(&Point2::new(x, 0.0));
    let mut gaps = vec![(end(links[0], -0.25) - Point2::origin()).norm()];
    for pair in links.windows(2) {
        gaps.push((end(pair[1], -0.25) - end(pair[0], 0.25)).norm());
    }
    let lowest = links.iter().map(|&h| pos(&w, h).y).fold(f64::MAX, f64::min);
    assert!(lowest < -0.2 * n as f64, "the chain is not hanging: its lowest point is at {lowest}");
    (gaps.iter().copied().fold(0.0, f64::max), gaps.iter().sum())
}

/// The static stretch of a hanging chain of `n` links of mass `m` held by soft joints of
/// `hertz` (Box2D v3's soft constraint under a steady load `T` settles at `T / (m_eff ω²)`,
/// `ω = 2π f`): joint `i` from the top carries `(n − i) m g`, with the effective mass `m` at the
/// pin and `m / 2` between two links.
fn soft_chain_stretch(n: usize, hertz: f64) -> f64 {
    let omega2 = (2.0 * std::f64::consts::PI * hertz).powi(2);
    let m = 0.05;
    let mut stretch = n as f64 * m * G / (m * omega2);
    for i in 1..n {
        stretch += (n - i) as f64 * m * G / (0.5 * m * omega2);
    }
    stretch
}

#[test]
fn a_hundred_link_chain_stretches_as_its_soft_joints_predict() {
    // At the defaults (4 substeps at 60 Hz: joints of 60 Hz, the cap of a quarter of the
    // substep rate) the 50 m chain hanging from its top carries up to 100 times a link's
    // weight and stretches by 0.70 m in all (1.4 %), as Box2D v3's soft joints would.
    let (worst, total) = chain(100, true, 10.0, 4, 60.0);
    let predicted = soft_chain_stretch(100, 60.0);
    assert!(total < 1.0, "the 50 m chain stretched by {total} m");
    assert!(
        (total - predicted).abs() < 0.3 * predicted,
        "stretch {total} m, predicted {predicted} m"
    );
    assert!(worst < 0.03, "a joint opened by {worst} m");
    // Twice the substeps lets the joints be twice as stiff: a quarter of the stretch.
    let (_, stiff) = chain(100, true, 10.0, 8, 120.0);
    let predicted = soft_chain_stretch(100, 120.0);
    assert!(stiff < 0.25, "the stiffer chain stretched by {stiff} m");
    assert!(
        (stiff - predicted).abs() < 0.3 * predicted,
        "stretch {stiff} m, predicted {predicted} m"
    );
}

#[test]
fn a_hundred_link_chain_swinging_down_stays_together() {
    // Released horizontally, the chain whips; its joints open more under the swing's load,
    // and close again.
    let (worst, total) = chain(100, false, 10.0, 4, 60.0);
    assert!(total < 5.0 && worst < 0.1, "stretch {total} m in all, {worst} m at worst");
}

/// Box2D's `joint_grid` benchmark scene at size `n`: discs of radius 0.4 a metre apart, each
/// hinged to its neighbours below and to the right, hanging from seven static discs in the top
/// row; the discs do not collide with each other.
fn joint_grid<N: Scalar + kollide_solver::LaneScalar>(n: usize) -> World2<N> {
    let mut w = world::<N>();
    let disc = Circle::new(N::lit(0.4)).unwrap();
    let groups = CollisionGroups::new(2, !2);
    let mut bodies: Vec<BodyHandle> = Vec::with_capacity(n * n);
    for k in 0..n {
        for i in 0..n {
            let fixed = i == 0 && k + 3 >= n / 2 && k <= n / 2 + 3;
            let p = Iso2::translation(N::lit(k as f64), N::lit(-(i as f64)));
            let desc = if fixed { BodyDesc::fixed(disc) } else { BodyDesc::dynamic(disc) };
            let b = w.add(desc.pose(p).collision_groups(groups)).unwrap();
            let here = Point2::new(N::lit(k as f64), N::lit(-(i as f64)));
            if i > 0 {
                let above = bodies[bodies.len() - 1];
                let anchor = here + Vec2::new(N::zero(), N::lit(0.5));
                w.add_joint(JointDesc::new(above, b, RevoluteJoint::new(anchor))).unwrap();
            }
            if k > 0 {
                let left = bodies[bodies.len() - n];
                let anchor = here - Vec2::new(N::lit(0.5), N::zero());
                w.add_joint(JointDesc::new(left, b, RevoluteJoint::new(anchor))).unwrap();
            }
            bodies.push(b);
        }
    }
    w
}

/// Kinetic plus potential energy (per the world's gravity) of every dynamic body.
fn energy(w: &World2<f32>) -> f64 {
    w.bodies()
        .filter(|(_, b)| b.mass() > 0.0)
        .map(|(_, b)| {
            let m = f64::from(b.mass());
            let v = f64::from(b.linear_velocity().norm());
            let c = b.center_of_mass();
            0.5 * m * v * v + m * G * f64::from(c.y)
        })
        .sum()
}

#[test]
fn the_joint_grid_stays_stable() {
    let mut w = joint_grid::<f32>(30);
    assert_eq!(w.joints().count(), 2 * 30 * 29);
    let start = energy(&w);
    let mut lowest = f64::MAX;
    for step in 0..300 {
        let report = w.step(1.0 / 60.0).unwrap();
        assert_eq!(report.pairs, 0, "the grid's discs do not collide");
        for (_, b) in w.bodies() {
            let p = b.pose().translation.vector;
            assert!(p.x.is_finite() && p.y.is_finite(), "NaN at step {step}");
        }
        let e = energy(&w);
        // Joints and gravity only: energy can only be lost (rotation adds little).
        assert!(e <= start + 1e-3 * start.abs(), "energy grew at step {step}: {e} > {start}");
        lowest = lowest.min(e);
    }
    assert!(lowest < start - 100.0, "the grid did not move: energy {lowest} vs {start}");
    // Every hinge still holds.
    for (_, j) in w.joints() {
        let a = w.body(j.body_a()).unwrap().pose().transform_point(&j.local_anchor_a());
        let b = w.body(j.body_b()).unwrap().pose().transform_point(&j.local_anchor_b());
        assert!((a - b).norm() < 0.05, "a joint opened by {}", (a - b).norm());
    }
}

/// A wheel pinned at its centre, in zero gravity.
fn wheel(motor: Motor<f64>) -> (World2<f64>, BodyHandle, JointHandle) {
    let mut w = World2::new(Vec2::zeros()).unwrap();
    let axle = pin(&mut w, 0.0, 0.0);
    let wheel = w.add(BodyDesc::dynamic(Circle::new(0.5).unwrap())).unwrap();
    let hinge = RevoluteJoint::new(Point2::origin()).motor(motor.speed, motor.max_force);
    let j = w.add_joint(JointDesc::new(axle, wheel, hinge)).unwrap();
    (w, wheel, j)
}

#[test]
fn a_motor_reaches_its_speed() {
    let (mut w, wheel, j) = wheel(Motor { speed: 3.0, max_force: 1000.0 });
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    let spin = w.body(wheel).unwrap().angular_velocity();
    assert!((spin - 3.0).abs() < 0.03, "spin {spin} rad/s");
    // A new speed is reached too.
    w.set_joint_motor(j, Some(Motor { speed: -2.0, max_force: 1000.0 })).unwrap();
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
    }
    let spin = w.body(wheel).unwrap().angular_velocity();
    assert!((spin + 2.0).abs() < 0.02, "spin {spin} rad/s");
}

#[test]
fn a_weak_motor_accelerates_at_torque_over_inertia() {
    let torque = 0.5;
    let (mut w, wheel, _) = wheel(Motor { speed: 100.0, max_force: torque });
    let inertia = {
        let b = w.body(wheel).unwrap();
        b.mass() * 0.5 * 0.5 / 2.0
    };
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    let spin = w.body(wheel).unwrap().angular_velocity();
    let expected = torque / inertia * 1.0;
    assert!((spin - expected).abs() < 1e-3 * expected, "spin {spin}, expected {expected}");
}

/// A bar hinged at its left end, released horizontally, its angle limited to `limit`;
/// returns the lowest and highest angle it reached.
fn limited_bar(limit: [f64; 2]) -> (f64, f64) {
    let mut w = world::<f64>();
    let top = pin(&mut w, 0.0, 0.0);
    let bar = Cuboid::new(Vec2::new(0.5, 0.05)).unwrap();
    let b = w.add(BodyDesc::dynamic(bar).pose(Iso2::translation(0.5, 0.0))).unwrap();
    let hinge = RevoluteJoint::new(Point2::origin()).limit(limit[0], limit[1]);
    w.add_joint(JointDesc::new(top, b, hinge)).unwrap();
    let (mut lo, mut hi) = (0.0_f64, 0.0_f64);
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
        let angle = w.body(b).unwrap().pose().rotation.angle();
        lo = lo.min(angle);
        hi = hi.max(angle);
    }
    (lo, hi)
}

#[test]
fn a_limit_holds_the_angle() {
    let (lo, _) = limited_bar([-0.5, 0.5]);
    assert!(lo > -0.52, "the bar fell to {lo} rad past its limit of -0.5");
    assert!(lo < -0.48, "the bar never reached its limit: {lo}");
    // Without a limit it swings through the bottom.
    let (lo, _) = limited_bar([-std::f64::consts::PI, std::f64::consts::PI]);
    assert!(lo < -1.5, "the unlimited bar reached only {lo}");
}

/// A ball hung from a pin by a distance joint, released sideways; returns its distance from
/// the pin over 3 s (smallest, largest).
fn hung_ball(joint: DistanceJoint<f64, 2>, start: (f64, f64)) -> (f64, f64) {
    let mut w = world::<f64>();
    let top = pin(&mut w, 0.0, 0.0);
    let ball = Circle::new(0.1).unwrap();
    let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(start.0, start.1))).unwrap();
    w.add_joint(JointDesc::new(top, b, joint)).unwrap();
    let (mut lo, mut hi) = (f64::MAX, 0.0_f64);
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
        let d = pos(&w, b).norm();
        lo = lo.min(d);
        hi = hi.max(d);
    }
    (lo, hi)
}

#[test]
fn distance_joints_hold_a_rod_a_rope_and_a_spring() {
    let origin = Point2::origin();
    // A rod keeps its length.
    let (lo, hi) = hung_ball(DistanceJoint::new(origin, Point2::new(1.0, 0.0)), (1.0, 0.0));
    assert!(lo > 0.995 && hi < 1.005, "rod length in [{lo}, {hi}]");
    // A rope of at most 2 m lets a ball at 1 m fall to 2 m, and not further.
    let rope = DistanceJoint::new(origin, Point2::new(0.0, -1.0)).spring(0.0, 0.0).range(0.0, 2.0);
    let (lo, hi) = hung_ball(rope, (0.0, -1.0));
    assert!(hi > 1.98 && hi < 2.01, "rope stretched to {hi}");
    assert!(lo < 1.01, "the ball started at 1 m: {lo}");
    // A soft spring of rest length 1 sags by about m g / k under the ball's weight.
    let spring = DistanceJoint::new(origin, Point2::new(0.0, -1.0)).spring(1.0, 1.0);
    let (_, hi) = hung_ball(spring, (0.0, -1.0));
    // Critically damped, it settles at the static sag `m g / k` (`k = m ω²`) without
    // overshooting.
    let sag = G / (2.0 * std::f64::consts::PI).powi(2);
    assert!(
        (hi - (1.0 + sag)).abs() < 0.01 * sag,
        "the spring stretched to {hi}, its static sag is {sag}"
    );
}

#[test]
fn a_weld_holds_a_cantilever() {
    let mut w = world::<f64>();
    let wall = pin(&mut w, 0.0, 0.0);
    let beam = Cuboid::new(Vec2::new(0.5, 0.05)).unwrap();
    let mut prev = wall;
    let mut last = wall;
    for i in 0..4 {
        let b =
            w.add(BodyDesc::dynamic(beam).pose(Iso2::translation(0.5 + i as f64, 0.0))).unwrap();
        w.add_joint(JointDesc::new(prev, b, WeldJoint::new(Point2::new(i as f64, 0.0)))).unwrap();
        prev = b;
        last = b;
    }
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    let p = pos(&w, last);
    assert!(p.y.abs() < 0.3 && (p.x - 3.5).abs() < 0.05, "the beam's tip sagged to {p:?}");
    let angle = w.body(last).unwrap().pose().rotation.angle();
    assert!(angle.abs() < 0.15, "the tip turned by {angle}");
}

/// A box on a prismatic joint along `axis` from a pin at the origin, in `gravity`; steps
/// `steps` times and returns the box's offset from where it started, its rotation angle and
/// the largest distance it strayed from the axis.
fn slider(
    axis: Vec2<f64>,
    gravity: Vec2<f64>,
    joint: impl Fn(PrismaticJoint<f64, 2>) -> PrismaticJoint<f64, 2>,
    velocity: f64,
    steps: usize,
) -> (Vec2<f64>, f64, f64) {
    let mut w = World2::new(gravity).unwrap();
    let frame = pin(&mut w, 0.0, 0.0);
    let start = Vec2::new(0.3, 0.2);
    let cube = Cuboid::new(Vec2::new(0.2, 0.1)).unwrap();
    let desc = BodyDesc::dynamic(cube)
        .pose(Iso2::translation(start.x, start.y))
        .linear_velocity(axis.normalize() * velocity);
    let b = w.add(desc).unwrap();
    let slide = joint(PrismaticJoint::new(Point2::new(0.3, 0.2), axis));
    w.add_joint(JointDesc::new(frame, b, slide)).unwrap();
    let across = Vec2::new(-axis.y, axis.x).normalize();
    let mut strayed = 0.0_f64;
    for _ in 0..steps {
        w.step(1.0 / 60.0).unwrap();
        strayed = strayed.max((pos(&w, b) - start).dot(&across).abs());
    }
    (pos(&w, b) - start, w.body(b).unwrap().pose().rotation.angle(), strayed)
}

#[test]
fn a_prismatic_joint_slides_down_an_incline_at_g_sin_theta() {
    // Along a 30° incline the box accelerates at g sin 30° = 5 m/s²: 2.5 m in 1 s.
    let theta = 30.0_f64.to_radians();
    let down = Vec2::new(theta.cos(), -theta.sin());
    let (moved, angle, strayed) = slider(down, Vec2::new(0.0, -G), |j| j, 0.0, 60);
    let along = moved.dot(&down);
    assert!((along - 2.5).abs() < 0.02 * 2.5, "slid {along} m, expected 2.5 m");
    assert!(strayed < 1e-3 && angle.abs() < 1e-3, "left the axis by {strayed} m, turned {angle}");
}

#[test]
fn a_prismatic_limit_motor_and_spring_act_along_the_axis() {
    let x = Vec2::x();
    // The limit stops the fall at 0.5 m.
    let (moved, _, _) = slider(-Vec2::y(), Vec2::new(0.0, -G), |j| j.limit(-1.0, 0.5), 0.0, 120);
    assert!((moved.y + 0.5).abs() < 0.02, "stopped at {}", moved.y);
    // A motor drives it at 2 m/s in zero gravity.
    let (moved, _, _) = slider(x, Vec2::zeros(), |j| j.motor(2.0, 1000.0), 0.0, 60);
    assert!((moved.x - 2.0).abs() < 0.05, "moved {} m in 1 s at 2 m/s", moved.x);
    // A 1 Hz spring with no damping brings it back through the start after half a period.
    let (moved, _, _) = slider(x, Vec2::zeros(), |j| j.spring(1.0, 0.0), 1.0, 60);
    assert!(moved.x.abs() < 0.02, "after one period the spring left it at {}", moved.x);
    // A quarter period in, it is near its amplitude `v / ω` (a little short of it: the soft
    // step's implicit spring loses some energy every substep, as Box2D's does).
    let (moved, _, _) = slider(x, Vec2::zeros(), |j| j.spring(1.0, 0.0), 1.0, 15);
    let amplitude = 1.0 / (2.0 * std::f64::consts::PI);
    assert!((moved.x - amplitude).abs() < 0.06 * amplitude, "quarter period at {}", moved.x);
}

#[test]
fn a_car_on_wheel_joints_drives_at_its_motor_speed() {
    let mut w = world::<f64>();
    let ground = Cuboid::new(Vec2::new(100.0, 0.5)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
    let chassis = Cuboid::new(Vec2::new(1.0, 0.2)).unwrap();
    let car = w.add(BodyDesc::dynamic(chassis).pose(Iso2::translation(0.0, 0.9))).unwrap();
    let (radius, speed) = (0.4, 5.0); // the wheels' motors turn clockwise: forwards, +x
    let mut wheels = Vec::new();
    for x in [-0.8, 0.8] {
        let wheel = Circle::new(radius).unwrap();
        let b =
            w.add(BodyDesc::dynamic(wheel).friction(1.0).pose(Iso2::translation(x, 0.4))).unwrap();
        let axle = WheelJoint::new(Point2::new(x, 0.4), Vec2::y()).motor(-speed, 50.0);
        w.add_joint(JointDesc::new(car, b, axle)).unwrap();
        wheels.push((b, x));
    }
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
    }
    let body = w.body(car).unwrap();
    let v = body.linear_velocity().x;
    assert!((v - speed * radius).abs() < 0.05 * speed * radius, "the car drives at {v} m/s");
    assert!(body.pose().rotation.angle().abs() < 0.05, "the car tipped");
    for (b, x) in wheels {
        // Each wheel stays on its suspension axis, under the chassis.
        let local = body.pose().inverse_transform_point(&Point2::from(pos(&w, b)));
        assert!((local.x - x).abs() < 0.01, "a wheel left its axis: {local:?}");
        assert!(local.y < -0.5 + 0.05 && local.y > -0.5 - 0.3, "suspension at {}", local.y);
    }
}

#[test]
fn jointed_bodies_do_not_collide_unless_asked() {
    for collide in [false, true] {
        let mut w = world::<f64>();
        let cube = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
        let a = w.add(BodyDesc::fixed(cube)).unwrap();
        let b = w.add(BodyDesc::dynamic(cube).pose(Iso2::translation(0.6, 0.0))).unwrap();
        let hinge = RevoluteJoint::new(Point2::new(0.3, 0.0));
        w.add_joint(JointDesc::new(a, b, hinge).collide_connected(collide)).unwrap();
        let report = w.step(1.0 / 60.0).unwrap();
        assert_eq!(report.touching_pairs, usize::from(collide), "collide_connected {collide}");
    }
}

#[test]
fn removing_a_body_removes_its_joints() {
    let mut w = world::<f64>();
    let a = pin(&mut w, 0.0, 0.0);
    let b = w
        .add(BodyDesc::dynamic(Circle::new(0.1).unwrap()).pose(Iso2::translation(1.0, 0.0)))
        .unwrap();
    let c = w
        .add(BodyDesc::dynamic(Circle::new(0.1).unwrap()).pose(Iso2::translation(2.0, 0.0)))
        .unwrap();
    let j1 = w.add_joint(JointDesc::new(a, b, RevoluteJoint::new(Point2::origin()))).unwrap();
    let j2 = w.add_joint(JointDesc::new(b, c, RevoluteJoint::new(Point2::new(1.0, 0.0)))).unwrap();
    let j3 = w
        .add_joint(JointDesc::new(
            a,
            c,
            DistanceJoint::new(Point2::origin(), Point2::new(2.0, 0.0)),
        ))
        .unwrap();
    w.remove(b).unwrap();
    assert_eq!(w.joint(j1).unwrap_err(), WorldError::StaleJoint);
    assert_eq!(w.joint(j2).unwrap_err(), WorldError::StaleJoint);
    assert!(w.joint(j3).is_ok());
    assert_eq!(w.joints().count(), 1);
    w.step(1.0 / 60.0).unwrap();
    w.remove_joint(j3).unwrap();
    assert_eq!(w.remove_joint(j3).unwrap_err(), WorldError::StaleJoint);
}

/// The world's whole state as text (`Debug` prints the shortest decimal that reads back to
/// the same bits, so equal text is equal bits).
fn state(w: &World2<f64>) -> String {
    format!("{w:?}")
}

/// Whether an error is the one a case expects.
type Expected = fn(&WorldError) -> bool;

#[test]
fn bad_joints_are_refused_and_change_nothing() {
    let mut w = world::<f64>();
    let a = pin(&mut w, 0.0, 0.0);
    let b = w
        .add(BodyDesc::dynamic(Circle::new(0.1).unwrap()).pose(Iso2::translation(1.0, 0.0)))
        .unwrap();
    let gone = w.add(BodyDesc::dynamic(Circle::new(0.1).unwrap())).unwrap();
    w.remove(gone).unwrap();
    let j = w.add_joint(JointDesc::new(a, b, RevoluteJoint::new(Point2::origin()))).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let before = state(&w);
    let hinge = || RevoluteJoint::new(Point2::origin());
    let nan = f64::NAN;
    let cases: Vec<(JointDesc<f64, 2>, Expected)> = vec![
        (JointDesc::new(b, b, hinge()), |e| *e == WorldError::SameBody),
        (JointDesc::new(a, gone, hinge()), |e| *e == WorldError::StaleHandle),
        (JointDesc::new(a, b, RevoluteJoint::new(Point2::new(nan, 0.0))), |e| {
            matches!(e, WorldError::NonFinite(_))
        }),
        (JointDesc::new(a, b, RevoluteJoint::new(Point2::new(1e30, 0.0))), |e| {
            matches!(e, WorldError::OutOfRange { .. })
        }),
        (JointDesc::new(a, b, RevoluteJoint::about(Point2::origin(), 0.0)), |e| {
            matches!(e, WorldError::OutOfRange { what: "axis length", .. })
        }),
        (JointDesc::new(a, b, RevoluteJoint::about(Point2::origin(), nan)), |e| {
            *e == WorldError::NonFinite("axis")
        }),
        (JointDesc::new(a, b, hinge().limit(0.5, -0.5)), |e| {
            matches!(e, WorldError::BadRange { what: "angle limit", .. })
        }),
        (JointDesc::new(a, b, hinge().spring(-1.0, 1.0)), |e| {
            matches!(e, WorldError::OutOfRange { what: "spring hertz", .. })
        }),
        (JointDesc::new(a, b, hinge().motor(1.0, -5.0)), |e| {
            matches!(e, WorldError::OutOfRange { what: "motor max force", .. })
        }),
        (JointDesc::new(a, b, PrismaticJoint::new(Point2::origin(), Vec2::zeros())), |e| {
            matches!(e, WorldError::OutOfRange { what: "axis length", .. })
        }),
        (
            JointDesc::new(a, b, PrismaticJoint::new(Point2::origin(), Vec2::x()).limit(1.0, 0.0)),
            |e| matches!(e, WorldError::BadRange { what: "translation limit", .. }),
        ),
        (JointDesc::new(a, b, hinge()).constraint_softness(-1.0, 1.0), |e| {
            matches!(e, WorldError::OutOfRange { what: "constraint hertz", .. })
        }),
        (
            JointDesc::new(
                a,
                b,
                DistanceJoint::new(Point2::origin(), Point2::new(1.0, 0.0)).range(2.0, 1.0),
            ),
            |e| matches!(e, WorldError::BadRange { what: "length range", .. }),
        ),
        (
            JointDesc::new(
                a,
                b,
                DistanceJoint::new(Point2::origin(), Point2::new(1.0, 0.0)).length(-1.0),
            ),
            |e| matches!(e, WorldError::OutOfRange { what: "length", .. }),
        ),
    ];
    for (i, (desc, expected)) in cases.into_iter().enumerate() {
        let e = w.add_joint(desc).unwrap_err();
        assert!(expected(&e), "case {i}: unexpected error {e:?}");
        assert_eq!(state(&w), before, "case {i} changed the world");
    }
    // Setters: out-of-order limits, bad motors and springs, the wrong kind, a stale handle.
    let e = w.set_joint_limit(j, Some([1.0, -1.0])).unwrap_err();
    assert!(matches!(e, WorldError::BadRange { .. }), "{e:?}");
    let e = w.set_joint_motor(j, Some(Motor { speed: nan, max_force: 1.0 })).unwrap_err();
    assert!(matches!(e, WorldError::NonFinite(_)), "{e:?}");
    let e = w.set_joint_spring(j, Some(Spring { hertz: 1.0, damping_ratio: -1.0 })).unwrap_err();
    assert!(matches!(e, WorldError::OutOfRange { .. }), "{e:?}");
    let weld = w.add_joint(JointDesc::new(a, b, WeldJoint::new(Point2::origin()))).unwrap();
    let before = state(&w);
    assert_eq!(w.set_joint_motor(weld, None).unwrap_err(), WorldError::NotInJoint("motor"));
    assert_eq!(state(&w), before, "a refused setter changed the world");
    w.remove_joint(weld).unwrap();
    assert_eq!(w.set_joint_limit(weld, None).unwrap_err(), WorldError::StaleJoint);
    // A good change is taken.
    w.set_joint_limit(j, Some([-1.0, 1.0])).unwrap();
    assert_ne!(
        state(&w),
        state(&{
            let mut w2 = w.clone();
            w2.set_joint_limit(j, None).unwrap();
            w2
        })
    );
}
