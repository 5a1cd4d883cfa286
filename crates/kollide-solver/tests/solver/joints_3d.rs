//! 3D joints checked against physics: a pendulum's period on a hinge and on a ball joint
//! against the physical-pendulum formula (f32 and f64), a hinge that keeps its axis under a
//! load across it, a hinge motor, a hinge limit, a fixed-joint cantilever, a distance rod, a
//! chain of ball joints stretching as its soft joints predict, and bad input refused with the
//! world unchanged.

use kollide_math::{Iso3, Point3, Vec3};
use kollide_shapes::{Ball, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, DistanceJoint, JointDesc, JointKind, LaneScalar, PrismaticJoint,
    RevoluteJoint, SphericalJoint, WeldJoint, World3, WorldError,
};

const G: f64 = 10.0;
const DT: f64 = 1.0 / 60.0;

fn world<N: LaneScalar>() -> World3<N> {
    World3::new(Vec3::new(N::zero(), N::lit(-G), N::zero())).unwrap()
}

fn pos<N: LaneScalar>(w: &World3<N>, h: BodyHandle) -> Vec3<N> {
    w.body(h).unwrap().pose().translation.vector
}

fn pin<N: LaneScalar>(w: &mut World3<N>, at: [f64; 3]) -> BodyHandle {
    let shape = Ball::new(N::lit(0.05)).unwrap();
    let p = Iso3::translation(N::lit(at[0]), N::lit(at[1]), N::lit(at[2]));
    w.add(BodyDesc::fixed(shape).pose(p)).unwrap()
}

fn point<N: LaneScalar>(p: [f64; 3]) -> Point3<N> {
    Point3::new(N::lit(p[0]), N::lit(p[1]), N::lit(p[2]))
}

/// A ball of radius `r` hung at distance `l` below a pivot at `(0, 5, 0)` by `joint` (made
/// from the pivot), released at `theta0` in the x-y plane: its period against
/// `2π √(I_pivot / (m g l)) (1 + θ₀²/16)`, `I_pivot = (2/5) m r² + m l²`.
fn pendulum_period<N: LaneScalar>(joint: impl Fn(Point3<N>) -> JointKind<N, 3>, tolerance: f64) {
    let (l, r, theta0) = (1.0, 0.1, 0.1_f64);
    let mut w = world::<N>();
    let top = pin(&mut w, [0.0, 5.0, 0.0]);
    let start = [l * theta0.sin(), 5.0 - l * theta0.cos(), 0.0];
    let p = Iso3::translation(N::lit(start[0]), N::lit(start[1]), N::lit(start[2]));
    let bob = w.add(BodyDesc::dynamic(Ball::new(N::lit(r)).unwrap()).pose(p)).unwrap();
    w.add_joint(JointDesc::new(top, bob, joint(point([0.0, 5.0, 0.0])))).unwrap();
    let mut xs = Vec::new();
    for i in 0..600 {
        w.step(N::lit(DT)).unwrap();
        xs.push(((i + 1) as f64 * DT, pos(&w, bob).x.to_f64()));
    }
    let crossings: Vec<f64> = xs
        .windows(2)
        .filter(|w| w[0].1 > 0.0 && w[1].1 <= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * w[0].1 / (w[0].1 - w[1].1))
        .collect();
    assert!(crossings.len() >= 4, "the pendulum did not swing: {} crossings", crossings.len());
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
    let inertia = 0.4 * r * r + l * l;
    let expected =
        2.0 * std::f64::consts::PI * (inertia / (G * l)).sqrt() * (1.0 + theta0 * theta0 / 16.0);
    let error = (period - expected).abs() / expected;
    assert!(error < tolerance, "period {period:.5} s, expected {expected:.5} s ({error:.2e})");
    let bob_at = pos(&w, bob);
    let d = (bob_at - Vec3::new(N::zero(), N::lit(5.0), N::zero())).norm().to_f64();
    assert!((d - l).abs() < 1e-3, "rod length {d}");
    assert!(bob_at.z.to_f64().abs() < 1e-4, "the swing left its plane: z = {}", bob_at.z);
}

fn hinge<N: LaneScalar>(p: Point3<N>) -> JointKind<N, 3> {
    RevoluteJoint::hinge(p, Vec3::z()).into()
}

fn ball<N: LaneScalar>(p: Point3<N>) -> JointKind<N, 3> {
    SphericalJoint::new(p).into()
}

#[test]
fn a_hinged_pendulum_swings_with_the_physical_pendulum_period_f64() {
    pendulum_period::<f64>(hinge, 1e-4);
}

#[test]
fn a_hinged_pendulum_swings_with_the_physical_pendulum_period_f32() {
    pendulum_period::<f32>(hinge, 1e-4);
}

#[test]
fn a_ball_jointed_pendulum_swings_with_the_physical_pendulum_period_f64() {
    pendulum_period::<f64>(ball, 1e-4);
}

#[test]
fn a_ball_jointed_pendulum_swings_with_the_physical_pendulum_period_f32() {
    pendulum_period::<f32>(ball, 1e-4);
}

/// A door (a 1 × 2 × 0.1 box) hinged at its left edge about the vertical axis, spun about it:
/// gravity pulls across the axis, and the hinge must keep the door upright while it turns.
#[test]
fn a_hinge_keeps_its_axis_under_a_load_across_it() {
    let mut w = world::<f64>();
    let frame = pin(&mut w, [0.0, 0.0, 0.0]);
    let door = Cuboid::new(Vec3::new(0.5, 1.0, 0.05)).unwrap();
    let d = w
        .add(
            BodyDesc::dynamic(door)
                .pose(Iso3::translation(0.5, 0.0, 0.0))
                .linear_velocity(Vec3::new(0.0, 0.0, -1.0))
                .angular_velocity(Vec3::new(0.0, 2.0, 0.0)),
        )
        .unwrap();
    w.add_joint(JointDesc::new(frame, d, RevoluteJoint::hinge(Point3::origin(), Vec3::y())))
        .unwrap();
    let mut turned = 0.0_f64;
    for _ in 0..120 {
        w.step(DT).unwrap();
        let body = w.body(d).unwrap();
        let up = body.pose().rotation * Vec3::y();
        assert!(up.y > 0.999, "the door tilted: its up axis is {up:?}");
        let c = body.pose().translation.vector;
        assert!(c.y.abs() < 0.01, "the door sagged to {}", c.y);
        assert!(((c.x * c.x + c.z * c.z).sqrt() - 0.5).abs() < 0.01, "the door left its hinge");
        turned = turned.max(body.pose().rotation.angle());
    }
    assert!(turned > 1.5, "the door turned only {turned} rad");
    // It turns freely: no torque about the axis, so its spin is kept.
    let spin = w.body(d).unwrap().angular_velocity();
    assert!((spin.y - 2.0).abs() < 0.02, "spin {spin:?}");
}

#[test]
fn a_hinge_motor_reaches_its_speed() {
    let mut w = World3::<f64>::new(Vec3::zeros()).unwrap();
    let axle = pin(&mut w, [0.0, 0.0, 0.0]);
    let wheel = w.add(BodyDesc::dynamic(Ball::new(0.5).unwrap())).unwrap();
    let axis = Vec3::new(1.0, 1.0, 0.0);
    let motor = RevoluteJoint::hinge(Point3::origin(), axis).motor(3.0, 1000.0);
    w.add_joint(JointDesc::new(axle, wheel, motor)).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let spin = w.body(wheel).unwrap().angular_velocity();
    let expected = axis.normalize() * 3.0;
    assert!((spin - expected).norm() < 0.03, "spin {spin:?}, expected {expected:?}");
}

#[test]
fn a_hinge_limit_holds_the_angle() {
    for (limit, deepest) in [(0.5, -0.5), (std::f64::consts::PI, -1.5)] {
        let mut w = world::<f64>();
        let top = pin(&mut w, [0.0, 0.0, 0.0]);
        let bar = Cuboid::new(Vec3::new(0.5, 0.05, 0.05)).unwrap();
        let b = w.add(BodyDesc::dynamic(bar).pose(Iso3::translation(0.5, 0.0, 0.0))).unwrap();
        let hinge = RevoluteJoint::hinge(Point3::origin(), Vec3::z()).limit(-limit, limit);
        w.add_joint(JointDesc::new(top, b, hinge)).unwrap();
        let mut lowest = 0.0_f64;
        for _ in 0..180 {
            w.step(DT).unwrap();
            let tip = w.body(b).unwrap().pose().transform_point(&Point3::new(0.5, 0.0, 0.0));
            lowest = lowest.min(tip.y.atan2(tip.x));
        }
        if limit < 1.0 {
            assert!(lowest > -0.52 && lowest < -0.48, "the bar reached {lowest}, limit -0.5");
        } else {
            assert!(lowest < deepest, "the free bar reached only {lowest}");
        }
    }
}

#[test]
fn fixed_joints_hold_a_cantilever() {
    let mut w = world::<f64>();
    let wall = pin(&mut w, [0.0, 0.0, 0.0]);
    let beam = Cuboid::new(Vec3::new(0.5, 0.05, 0.05)).unwrap();
    let mut prev = wall;
    for i in 0..4 {
        let p = Iso3::translation(0.5 + i as f64, 0.0, 0.0);
        let b = w.add(BodyDesc::dynamic(beam).pose(p)).unwrap();
        let weld = WeldJoint::new(Point3::new(i as f64, 0.0, 0.0));
        w.add_joint(JointDesc::new(prev, b, weld)).unwrap();
        prev = b;
    }
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let p = pos(&w, prev);
    assert!(p.y.abs() < 0.3 && (p.x - 3.5).abs() < 0.05 && p.z.abs() < 1e-6, "tip at {p:?}");
    assert!(w.body(prev).unwrap().pose().rotation.angle() < 0.15);
}

#[test]
fn a_prismatic_joint_slides_along_its_axis_without_turning() {
    // A bar hung off-centre on a slider along (1, −1, 1)/√3: gravity pulls along the axis at
    // g/√3 and twists the bar, which must neither turn nor leave the axis.
    let mut w = world::<f64>();
    let frame = pin(&mut w, [0.0, 0.0, 0.0]);
    let bar = Cuboid::new(Vec3::new(0.5, 0.05, 0.05)).unwrap();
    let b = w.add(BodyDesc::dynamic(bar).pose(Iso3::translation(0.5, 0.0, 0.0))).unwrap();
    let axis = Vec3::new(1.0, -1.0, 1.0).normalize();
    let slide = PrismaticJoint::new(Point3::origin(), axis).limit(-5.0, 2.0);
    w.add_joint(JointDesc::new(frame, b, slide)).unwrap();
    let start = pos(&w, b);
    // Off the axis and turned by less than a millimetre and a milliradian: the soft rows'
    // static error under the bar's weight.
    let off = |w: &World3<f64>| {
        let moved = pos(w, b) - start;
        ((moved - axis * moved.dot(&axis)).norm(), w.body(b).unwrap().pose().rotation.angle())
    };
    for i in 1..=45 {
        w.step(DT).unwrap();
        let (across, angle) = off(&w);
        assert!(across < 1e-3 && angle < 1e-3, "step {i}: off the axis {across} m, turned {angle}");
    }
    let (t, along) = (0.75, (pos(&w, b) - start).dot(&axis));
    let expected = 0.5 * G / 3.0_f64.sqrt() * t * t;
    assert!((along - expected).abs() < 0.02 * expected, "slid {along} m, expected {expected}");
    // The limit stops it at 2 m.
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let along = (pos(&w, b) - start).dot(&axis);
    assert!((along - 2.0).abs() < 0.02, "stopped at {along} m, limit 2 m");
    let (across, angle) = off(&w);
    assert!(across < 1e-3 && angle < 1e-3, "at the limit: off the axis {across} m, turned {angle}");
}

#[test]
fn a_distance_rod_keeps_its_length() {
    let mut w = world::<f64>();
    let top = pin(&mut w, [0.0, 0.0, 0.0]);
    let p = Iso3::translation(1.0, 0.0, 0.5);
    let b = w.add(BodyDesc::dynamic(Ball::new(0.1).unwrap()).pose(p)).unwrap();
    let rod = DistanceJoint::new(Point3::origin(), Point3::new(1.0, 0.0, 0.5));
    w.add_joint(JointDesc::new(top, b, rod)).unwrap();
    let length = 1.25_f64.sqrt();
    let mut lowest = 0.0_f64;
    for _ in 0..180 {
        w.step(DT).unwrap();
        let d = pos(&w, b).norm();
        assert!((d - length).abs() < 5e-3 * length, "rod length {d}, rest {length}");
        lowest = lowest.min(pos(&w, b).y);
    }
    assert!(lowest < -0.9, "the ball did not swing down: {lowest}");
}

#[test]
fn a_chain_of_ball_joints_stretches_as_its_soft_joints_predict() {
    // Twenty 0.5 m links of cubes (0.125 kg) hanging from a pin: each joint's static stretch
    // is its load over `m_eff ω²` (see the 2D chain test).
    let n = 20;
    let mut w = world::<f64>();
    let mut prev = pin(&mut w, [0.0, 0.0, 0.0]);
    let cube = Cuboid::new(Vec3::repeat(0.25)).unwrap();
    let mut links = Vec::new();
    for i in 0..n {
        let p = Iso3::translation(0.0, -0.25 - 0.5 * i as f64, 0.0);
        let b = w.add(BodyDesc::dynamic(cube).pose(p)).unwrap();
        let joint = SphericalJoint::new(Point3::new(0.0, -0.5 * i as f64, 0.0));
        w.add_joint(JointDesc::new(prev, b, joint)).unwrap();
        links.push(b);
        prev = b;
    }
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let bottom =
        w.body(links[n - 1]).unwrap().pose().transform_point(&Point3::new(0.0, -0.25, 0.0));
    let stretch = -bottom.y - 0.5 * n as f64;
    let omega2 = (2.0 * std::f64::consts::PI * 60.0).powi(2);
    let predicted = (n as f64 + (1..n).map(|i| 2.0 * (n - i) as f64).sum::<f64>()) * G / omega2;
    assert!(
        (stretch - predicted).abs() < 0.2 * predicted,
        "stretch {stretch}, predicted {predicted}"
    );
}

#[test]
fn bad_3d_joints_are_refused_and_change_nothing() {
    let mut w = world::<f64>();
    let a = pin(&mut w, [0.0, 0.0, 0.0]);
    let b = w
        .add(BodyDesc::dynamic(Ball::new(0.1).unwrap()).pose(Iso3::translation(1.0, 0.0, 0.0)))
        .unwrap();
    w.add_joint(JointDesc::new(a, b, RevoluteJoint::hinge(Point3::origin(), Vec3::z()))).unwrap();
    w.step(DT).unwrap();
    let before = format!("{w:?}");
    let nan = f64::NAN;
    let o = Point3::origin();
    let cases: Vec<(JointDesc<f64, 3>, WorldError)> = vec![
        (JointDesc::new(a, a, SphericalJoint::new(o)), WorldError::SameBody),
        (
            JointDesc::new(a, b, RevoluteJoint::hinge(o, Vec3::zeros())),
            WorldError::OutOfRange {
                what: "axis length",
                value: 0.0,
                min: f64::EPSILON.sqrt(),
                max: f64::MAX,
            },
        ),
        (
            JointDesc::new(a, b, RevoluteJoint::hinge(o, Vec3::new(nan, 0.0, 1.0))),
            WorldError::NonFinite("axis"),
        ),
        (
            JointDesc::new(a, b, RevoluteJoint::hinge(o, Vec3::z()).limit(1.0, -1.0)),
            WorldError::BadRange { what: "angle limit", lower: 1.0, upper: -1.0 },
        ),
        (
            JointDesc::new(a, b, RevoluteJoint::hinge(o, Vec3::z()).limit(-4.0, 1.0)),
            WorldError::OutOfRange {
                what: "angle limit",
                value: -4.0,
                min: -std::f64::consts::PI,
                max: std::f64::consts::PI,
            },
        ),
        (
            JointDesc::new(a, b, WeldJoint::new(Point3::new(0.0, nan, 0.0))),
            WorldError::NonFinite("anchor"),
        ),
        (
            JointDesc::new(a, b, DistanceJoint::new(o, Point3::new(f64::INFINITY, 0.0, 0.0))),
            WorldError::NonFinite("anchor b"),
        ),
    ];
    for (i, (desc, expected)) in cases.into_iter().enumerate() {
        assert_eq!(w.add_joint(desc).unwrap_err(), expected, "case {i}");
        assert_eq!(format!("{w:?}"), before, "case {i} changed the world");
    }
}
