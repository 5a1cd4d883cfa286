//! Joints that drive a body or bound its swing: the motor joint reaching its target pose and
//! its force bound (a weak joint lets the body fall at `g − F/m`), the mouse joint pulling a
//! point onto its target (within the spring's sag `g/ω²`) and its force bound, both in 2D and
//! 3D; the ball joint's cone limit holding a swinging rod within its cone (and the same rod
//! swinging past it without the limit); and bad input refused with the world unchanged.

use kollide_math::{Iso2, Iso3, Point2, Point3, Rot2, Rot3, Vec2, Vec3};
use kollide_shapes::{Ball, Circle, Cuboid};
use kollide_solver::{
    BodyDesc, BodyHandle, JointDesc, LaneScalar, MotorJoint, MouseJoint, RevoluteJoint,
    SphericalJoint, World2, World3, WorldError,
};

const G: f64 = 10.0;
const DT: f64 = 1.0 / 60.0;

/// A 2D world with a static pin at the origin and a dynamic unit box (mass 1) at `(0, 1)`.
fn box_world2<N: LaneScalar>() -> (World2<N>, BodyHandle, BodyHandle) {
    let mut w = World2::new(Vec2::new(N::zero(), N::lit(-G))).unwrap();
    let pin = w.add(BodyDesc::fixed(Circle::new(N::lit(0.05)).unwrap())).unwrap();
    let unit = Cuboid::new(Vec2::new(N::lit(0.5), N::lit(0.5))).unwrap();
    let pose = Iso2::translation(N::zero(), N::one());
    let b = w.add(BodyDesc::dynamic(unit).pose(pose)).unwrap();
    (w, pin, b)
}

/// The same in 3D: a unit cube (mass 1) at `(0, 1, 0)`.
fn box_world3<N: LaneScalar>() -> (World3<N>, BodyHandle, BodyHandle) {
    let mut w = World3::new(Vec3::new(N::zero(), N::lit(-G), N::zero())).unwrap();
    let pin = w.add(BodyDesc::fixed(Ball::new(N::lit(0.05)).unwrap())).unwrap();
    let half = N::lit(0.5);
    let unit = Cuboid::new(Vec3::new(half, half, half)).unwrap();
    let pose = Iso3::translation(N::zero(), N::one(), N::zero());
    let b = w.add(BodyDesc::dynamic(unit).pose(pose)).unwrap();
    (w, pin, b)
}

fn motor_reaches_its_target_2d<N: LaneScalar>(tolerance: f64) {
    let (mut w, pin, b) = box_world2::<N>();
    let target = Iso2::new(Vec2::new(N::lit(3.0), N::lit(2.0)), N::lit(0.5));
    let joint = MotorJoint::new(target, N::lit(100.0), N::lit(50.0));
    w.add_joint(JointDesc::new(pin, b, joint)).unwrap();
    for _ in 0..180 {
        w.step(N::lit(DT)).unwrap();
    }
    let pose = w.body(b).unwrap().pose();
    let off = (pose.translation.vector - target.translation.vector).norm().to_f64();
    let turn = (pose.rotation.angle() - N::lit(0.5)).abs().to_f64();
    assert!(off < tolerance && turn < tolerance, "{} off, {turn} rad", off);
}

#[test]
fn a_motor_joint_takes_its_body_to_the_target_pose_2d() {
    motor_reaches_its_target_2d::<f64>(1e-3);
    motor_reaches_its_target_2d::<f32>(1e-3);
}

#[test]
fn a_motor_joint_takes_its_body_to_the_target_pose_3d() {
    let (mut w, pin, b) = box_world3::<f64>();
    let turn = Rot3::from_scaled_axis(Vec3::new(1.0, 2.0, 0.5).normalize() * 0.8);
    let target = Iso3::from_parts(Vec3::new(-1.0, 2.0, 1.5).into(), turn);
    let joint = MotorJoint::new(target, 100.0, 50.0);
    w.add_joint(JointDesc::new(pin, b, joint)).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    let pose = w.body(b).unwrap().pose();
    let off = (pose.translation.vector - target.translation.vector).norm();
    let angle = pose.rotation.angle_to(&turn);
    assert!(off < 1e-3 && angle < 1e-3, "{off} off, {angle} rad");
}

/// The vertical speed of the unit box after one second held by `joint` with at most `force`
/// upwards (less than its weight): it falls at `g − force` per second.
fn fall_speed_2d(joint: impl Into<kollide_solver::JointKind<f64, 2>>) -> f64 {
    let (mut w, pin, b) = box_world2::<f64>();
    w.add_joint(JointDesc::new(pin, b, joint)).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    w.body(b).unwrap().linear_velocity().y
}

#[test]
fn a_weak_motor_or_mouse_joint_pulls_with_no_more_than_its_force() {
    let hold = MotorJoint::new(Iso2::translation(0.0, 1.0), 4.0, 10.0);
    let v = fall_speed_2d(hold);
    assert!((v + (G - 4.0)).abs() < 0.05, "motor joint: {v} m/s after 1 s");
    let mouse = MouseJoint::new(Point2::new(0.0, 1.0), 4.0);
    let v = fall_speed_2d(mouse);
    assert!((v + (G - 4.0)).abs() < 0.2, "mouse joint: {v} m/s after 1 s");
    // Strong enough, both hold it.
    let hold = MotorJoint::new(Iso2::translation(0.0, 1.0), 40.0, 10.0);
    assert!(fall_speed_2d(hold).abs() < 1e-3);
    assert!(fall_speed_2d(MouseJoint::new(Point2::new(0.0, 1.0), 40.0)).abs() < 1e-2);
}

fn mouse_drags_onto_its_target_2d<N: LaneScalar>() {
    let (mut w, pin, b) = box_world2::<N>();
    // Grab the box at a corner and drag it up and across.
    let grip = Point2::new(N::lit(0.5), N::lit(1.5));
    let j = w.add_joint(JointDesc::new(pin, b, MouseJoint::new(grip, N::lit(1000.0)))).unwrap();
    let target = Point2::new(N::lit(2.0), N::lit(4.0));
    w.set_mouse_target(j, target).unwrap();
    for _ in 0..240 {
        w.step(N::lit(DT)).unwrap();
    }
    let pose = w.body(b).unwrap().pose();
    let held = pose * Point2::new(N::lit(0.5), N::lit(0.5));
    // A 5 Hz spring sags by g / ω² under the weight of what hangs on it.
    let sag = G / (2.0 * std::f64::consts::PI * 5.0).powi(2);
    let off = (held - target).norm().to_f64();
    let spin = w.body(b).unwrap().angular_velocity().to_f64();
    assert!(off < 1.5 * sag, "grip {off} from the target (sag {sag}), spin {spin}");
}

#[test]
fn a_mouse_joint_drags_the_grip_onto_its_target_2d() {
    mouse_drags_onto_its_target_2d::<f64>();
    mouse_drags_onto_its_target_2d::<f32>();
}

#[test]
fn a_mouse_joint_drags_the_grip_onto_its_target_3d() {
    let (mut w, pin, b) = box_world3::<f64>();
    let grip = Point3::new(0.5, 1.5, 0.5);
    let target = Point3::new(-2.0, 3.0, 1.0);
    let mouse = MouseJoint::new(grip, 1000.0).target(target).spring(8.0, 1.0);
    w.add_joint(JointDesc::new(pin, b, mouse)).unwrap();
    // Hung by a corner, the cube swings about it; the grip damps the cube's own turning, which
    // a swing about the grip (with the arm's inertia) feels only in part: let it die down.
    for _ in 0..480 {
        w.step(DT).unwrap();
    }
    let held = w.body(b).unwrap().pose() * Point3::new(0.5, 0.5, 0.5);
    let sag = G / (2.0 * std::f64::consts::PI * 8.0).powi(2);
    let off = (held - target).norm();
    let spin = w.body(b).unwrap().angular_velocity().norm();
    assert!(off < 1.5 * sag, "grip {off} from the target (sag {sag}), spin {spin}");
}

/// A rod hung from a pin by a ball joint (with a cone of `cone` rad about the downward axis, if
/// given) and kicked sideways: the largest angle (rad) it made with the downward axis in 3 s.
fn widest_swing(cone: Option<f64>) -> f64 {
    let mut w = World3::new(Vec3::new(0.0, -G, 0.0)).unwrap();
    let pin =
        w.add(BodyDesc::fixed(Ball::new(0.05).unwrap()).pose(Iso3::translation(0.0, 5.0, 0.0)));
    let rod = Cuboid::new(Vec3::new(0.05, 0.5, 0.05)).unwrap();
    let rod = BodyDesc::dynamic(rod)
        .pose(Iso3::translation(0.0, 4.5, 0.0))
        .linear_velocity(Vec3::new(4.0, 0.0, 2.0));
    let rod = w.add(rod).unwrap();
    let mut joint = SphericalJoint::new(Point3::new(0.0, 5.0, 0.0));
    if let Some(half_angle) = cone {
        joint = joint.cone(-Vec3::y(), half_angle);
    }
    w.add_joint(JointDesc::new(pin.unwrap(), rod, joint)).unwrap();
    let mut widest: f64 = 0.0;
    for _ in 0..180 {
        w.step(DT).unwrap();
        let down = w.body(rod).unwrap().pose().rotation * -Vec3::y();
        widest = widest.max(down.angle(&-Vec3::y()));
    }
    widest
}

#[test]
fn a_cone_limit_holds_a_swinging_rod_within_its_cone() {
    let cone = 30f64.to_radians();
    let free = widest_swing(None);
    assert!(free > 1.5 * cone, "the kick swings the free rod to {free} rad only");
    let held = widest_swing(Some(cone));
    assert!(held < cone + 1f64.to_radians(), "{} degrees, cone 30", held.to_degrees());
    assert!(
        held > cone - 1f64.to_radians(),
        "{} degrees: the cone was never reached",
        held.to_degrees()
    );
}

#[test]
fn bad_motor_mouse_and_cone_joints_are_refused_and_change_nothing() {
    let (mut w, pin, b) = box_world2::<f64>();
    let mouse = w.add_joint(JointDesc::new(pin, b, MouseJoint::new(Point2::new(0.0, 1.0), 10.0)));
    let mouse = mouse.unwrap();
    let motor = MotorJoint::new(Iso2::identity(), 1.0, 1.0);
    let motor = w.add_joint(JointDesc::new(pin, b, motor)).unwrap();
    let hinge = w.add_joint(JointDesc::new(pin, b, RevoluteJoint::new(Point2::origin()))).unwrap();
    w.step(DT).unwrap();
    let before = format!("{w:?}");
    let nan = f64::NAN;
    let refused = [
        w.add_joint(JointDesc::new(pin, b, MotorJoint::new(Iso2::identity(), -1.0, 1.0))),
        w.add_joint(JointDesc::new(pin, b, MotorJoint::new(Iso2::identity(), 1.0, nan))),
        w.add_joint(JointDesc::new(
            pin,
            b,
            MotorJoint::new(Iso2::identity(), 1.0, 1.0).correction(2.0),
        )),
        w.add_joint(JointDesc::new(
            pin,
            b,
            MotorJoint::new(Iso2::translation(1e30, 0.0), 1.0, 1.0),
        )),
        w.add_joint(JointDesc::new(pin, b, MouseJoint::new(Point2::origin(), -1.0))),
        w.add_joint(JointDesc::new(
            pin,
            b,
            MouseJoint::new(Point2::origin(), 1.0).target(Point2::new(nan, 0.0)),
        )),
        w.add_joint(JointDesc::new(
            pin,
            b,
            MouseJoint::new(Point2::origin(), 1.0).spring(-5.0, 1.0),
        )),
        w.add_joint(JointDesc::new(pin, b, SphericalJoint::new(Point2::origin()).cone(1.0, 0.5))),
    ];
    for (i, r) in refused.iter().enumerate() {
        assert!(r.is_err(), "case {i} was taken");
    }
    assert!(matches!(
        refused[0],
        Err(WorldError::OutOfRange { what: "motor joint max force", .. })
    ));
    assert!(matches!(refused[1], Err(WorldError::NonFinite(_))));
    assert!(matches!(refused[7], Err(WorldError::NotInJoint(_))));
    let stale_rotation =
        Iso2::from_parts(Vec2::zeros().into(), Rot2::from_cos_sin_unchecked(2.0, 0.0));
    assert!(matches!(
        w.set_motor_target(motor, stale_rotation),
        Err(WorldError::NonUnitRotation { .. })
    ));
    assert_eq!(
        w.set_mouse_target(motor, Point2::origin()),
        Err(WorldError::NotInJoint("mouse target"))
    );
    assert_eq!(
        w.set_motor_target(hinge, Iso2::identity()),
        Err(WorldError::NotInJoint("motor target"))
    );
    assert!(matches!(
        w.set_mouse_target(mouse, Point2::new(nan, 0.0)),
        Err(WorldError::NonFinite(_))
    ));
    assert_eq!(format!("{w:?}"), before, "a refused call changed the world");
    // 3D: a cone of more than π, or about a zero axis.
    let (mut w, pin, b) = box_world3::<f64>();
    let before = format!("{w:?}");
    let ball = |cone: (Vec3<f64>, f64)| SphericalJoint::new(Point3::origin()).cone(cone.0, cone.1);
    let e = w.add_joint(JointDesc::new(pin, b, ball((Vec3::y(), 4.0)))).unwrap_err();
    assert!(matches!(e, WorldError::OutOfRange { what: "cone half-angle", .. }), "{e:?}");
    let e = w.add_joint(JointDesc::new(pin, b, ball((Vec3::zeros(), 0.5)))).unwrap_err();
    assert!(matches!(e, WorldError::OutOfRange { what: "axis length", .. }), "{e:?}");
    assert_eq!(format!("{w:?}"), before);
}
