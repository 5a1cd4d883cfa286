//! The world's input envelope ([`WorldLimits`]): every bad request (body, rotation, velocity,
//! density, gravity, settings, time step, handle) is refused with its typed error and leaves the
//! world bit for bit as it was, in 2D and 3D, `f32` and `f64`; and worlds built from extreme but
//! accepted input stay finite for many steps.
//!
//! "Bit for bit" is checked on a dump of the whole world (`Debug` prints every float so that it
//! round-trips, so two dumps are equal only if every bit of state is): bodies' poses,
//! velocities and properties, gravity, settings, contact pairs with their impulses, and the
//! broadphase and solver buffers.

use kollide_math::{Iso2, Iso3, Point2, Point3, Pose, Rot2, Rot3, Vec2, Vec3, Vector};
use kollide_shapes::{Ball, BodyShape2, BodyShape3, Capsule, Cuboid, Cylinder, Segment};
use kollide_solver::{
    BodyDesc, BodyHandle, BodyKind, Dim, LaneScalar, SolverDim, StepSettings, World, World2,
    World3, WorldError, WorldLimits,
};
use nalgebra::{Complex, Quaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The whole state of a world, every float in a form that round-trips.
fn fingerprint<N: LaneScalar, const D: usize>(w: &World<N, D>) -> String
where
    Dim<D>: SolverDim<N, D>,
{
    format!("{w:?}")
}

/// A refused call: `call` returns an error that `expected` accepts, and the world's fingerprint
/// is the same before and after.
fn refused<N: LaneScalar, const D: usize>(
    w: &mut World<N, D>,
    what: &str,
    expected: fn(&WorldError) -> bool,
    call: impl FnOnce(&mut World<N, D>) -> Result<(), WorldError>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let before = fingerprint(w);
    match call(w) {
        Ok(()) => panic!("{what}: accepted"),
        Err(e) => assert!(expected(&e), "{what}: unexpected error {e:?}"),
    }
    assert!(before == fingerprint(w), "{what}: the refused call changed the world");
}

/// A bad input: what it is, the input, and the error expected for it.
type Case<T> = (&'static str, T, fn(&WorldError) -> bool);

fn non_finite(e: &WorldError) -> bool {
    matches!(e, WorldError::NonFinite(_))
}
fn out_of_range(e: &WorldError) -> bool {
    matches!(e, WorldError::OutOfRange { .. })
}
fn non_unit(e: &WorldError) -> bool {
    matches!(e, WorldError::NonUnitRotation { .. })
}
fn bad_step(e: &WorldError) -> bool {
    matches!(e, WorldError::BadTimeStep(_))
}
fn shape(e: &WorldError) -> bool {
    matches!(e, WorldError::Shape(_))
}
fn stale(e: &WorldError) -> bool {
    matches!(e, WorldError::StaleHandle)
}

/// A small pile stepped until it has contacts with impulses, so the fingerprint covers them.
/// Returns the world, a dynamic body and a removed body's (stale) handle.
fn pile2<N: LaneScalar>() -> (World2<N>, BodyHandle, BodyHandle) {
    let mut w = World2::new(Vec2::new(N::zero(), N::lit(-9.81))).unwrap();
    let ground = Cuboid::new(Vec2::new(N::lit(10.0), N::lit(0.5))).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(N::zero(), N::lit(-0.5)))).unwrap();
    let mut last = None;
    for i in 0..4 {
        let b = Cuboid::new(Vec2::new(N::lit(0.5), N::lit(0.5))).unwrap();
        let pose =
            Iso2::new(Vec2::new(N::lit(0.1 * i as f64), N::lit(0.5 + i as f64)), N::lit(0.01));
        last = Some(w.add(BodyDesc::dynamic(b).pose(pose)).unwrap());
    }
    let gone = w.add(BodyDesc::dynamic(Ball::new(N::lit(0.3)).unwrap())).unwrap();
    w.remove(gone).unwrap();
    for _ in 0..30 {
        w.step(N::lit(1.0 / 60.0)).unwrap();
    }
    assert!(w.contact_pairs().iter().any(|p| !p.manifold.is_empty()));
    (w, last.unwrap(), gone)
}

fn pile3<N: LaneScalar>() -> (World3<N>, BodyHandle, BodyHandle) {
    let mut w = World3::new(Vec3::new(N::zero(), N::lit(-9.81), N::zero())).unwrap();
    let ground = Cuboid::new(Vec3::new(N::lit(10.0), N::lit(0.5), N::lit(10.0))).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso3::translation(N::zero(), N::lit(-0.5), N::zero())))
        .unwrap();
    let mut last = None;
    for i in 0..4 {
        let b = Cuboid::new(Vec3::repeat(N::lit(0.5))).unwrap();
        let t = Vec3::new(N::lit(0.1 * i as f64), N::lit(0.5 + i as f64), N::zero());
        let pose = Iso3::new(t, Vec3::new(N::zero(), N::lit(0.01), N::zero()));
        last = Some(w.add(BodyDesc::dynamic(b).pose(pose)).unwrap());
    }
    let gone = w.add(BodyDesc::dynamic(Ball::new(N::lit(0.3)).unwrap())).unwrap();
    w.remove(gone).unwrap();
    for _ in 0..30 {
        w.step(N::lit(1.0 / 60.0)).unwrap();
    }
    assert!(w.contact_pairs().iter().any(|p| !p.manifold.is_empty()));
    (w, last.unwrap(), gone)
}

/// Requests every world refuses whatever its dimension: time steps, settings, scalar fields of
/// a body description, stale handles. `desc` makes a valid dynamic description.
fn refuse_common<N: LaneScalar, const D: usize>(
    w: &mut World<N, D>,
    body: BodyHandle,
    gone: BodyHandle,
    desc: impl Fn() -> BodyDesc<N, D>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let l = WorldLimits::<N>::new();
    let big = N::lit(1e30);
    // Time steps.
    for dt in [
        N::zero(),
        -N::one(),
        N::lit(f64::NAN),
        N::lit(f64::INFINITY),
        big,
        N::MAX,
        l.max_time_step * N::lit(2.0),
        l.min_time_step * N::lit(0.1),
    ] {
        refused(w, &format!("step({dt:?})"), bad_step, |w| w.step(dt).map(|_| ()));
    }
    // Settings, one field at a time.
    let base = *w.settings();
    let mut bad: Vec<(&str, StepSettings<N>)> = vec![
        ("0 substeps", StepSettings { substeps: 0, ..base }),
        ("too many substeps", StepSettings { substeps: l.max_substeps + 1, ..base }),
        (
            "damping ratio",
            StepSettings { contact_damping_ratio: l.max_damping_ratio * N::lit(2.0), ..base },
        ),
        (
            "push velocity",
            StepSettings { max_push_velocity: l.max_linear_speed * N::lit(2.0), ..base },
        ),
        ("threshold", StepSettings { restitution_threshold: big, ..base }),
        ("margin", StepSettings { speculative_margin: big, ..base }),
        ("sleep speed", StepSettings { sleep_linear_speed: big, ..base }),
        (
            "time to sleep",
            StepSettings { time_to_sleep: l.max_time_to_sleep * N::lit(2.0), ..base },
        ),
    ];
    type Field<N> = fn(&mut StepSettings<N>) -> &mut N;
    let fields: [(&str, Field<N>); 10] = [
        ("contact_hertz", |s| &mut s.contact_hertz),
        ("contact_damping_ratio", |s| &mut s.contact_damping_ratio),
        ("max_push_velocity", |s| &mut s.max_push_velocity),
        ("linear_slop", |s| &mut s.linear_slop),
        ("speculative_margin", |s| &mut s.speculative_margin),
        ("restitution_threshold", |s| &mut s.restitution_threshold),
        ("manifold_reuse_distance", |s| &mut s.manifold_reuse_distance),
        ("sleep_linear_speed", |s| &mut s.sleep_linear_speed),
        ("sleep_angular_speed", |s| &mut s.sleep_angular_speed),
        ("time_to_sleep", |s| &mut s.time_to_sleep),
    ];
    for (name, field) in fields {
        for v in [N::lit(f64::NAN), N::lit(f64::INFINITY), -N::one()] {
            let mut s = base;
            *field(&mut s) = v;
            bad.push((name, s));
        }
    }
    for (what, s) in bad {
        let expect: fn(&WorldError) -> bool = |e| non_finite(e) || out_of_range(e);
        refused(w, &format!("settings: {what}"), expect, |w| w.set_settings(s));
        assert!(s.validate().is_err());
    }
    // Scalar fields of a body description.
    let nan = N::lit(f64::NAN);
    let inf = N::lit(f64::INFINITY);
    let fields: [Case<BodyDesc<N, D>>; 24] = [
        ("density 0", desc().density(N::zero()), out_of_range),
        ("density -1", desc().density(-N::one()), out_of_range),
        ("density NaN", desc().density(nan), non_finite),
        ("density 1e30", desc().density(big), out_of_range),
        ("density below", desc().density(l.min_density * N::lit(0.1)), out_of_range),
        ("density above", desc().density(l.max_density * N::lit(10.0)), out_of_range),
        (
            "static density NaN",
            BodyDesc { kind: BodyKind::Static, ..desc().density(nan) },
            non_finite,
        ),
        ("friction -0.1", desc().friction(N::lit(-0.1)), out_of_range),
        ("friction NaN", desc().friction(nan), non_finite),
        ("friction above", desc().friction(l.max_friction * N::lit(2.0)), out_of_range),
        ("restitution -0.1", desc().restitution(N::lit(-0.1)), out_of_range),
        ("restitution 1.5", desc().restitution(N::lit(1.5)), out_of_range),
        ("restitution NaN", desc().restitution(nan), non_finite),
        ("damping -1", desc().damping(-N::one(), N::zero()), out_of_range),
        ("damping inf", desc().damping(N::zero(), inf), non_finite),
        ("damping above", desc().damping(l.max_damping * N::lit(2.0), N::zero()), out_of_range),
        ("gravity scale NaN", desc().gravity_scale(nan), non_finite),
        (
            "gravity scale above",
            desc().gravity_scale(l.max_gravity_scale * N::lit(2.0)),
            out_of_range,
        ),
        (
            "gravity scale below",
            desc().gravity_scale(-l.max_gravity_scale * N::lit(2.0)),
            out_of_range,
        ),
        (
            "linear velocity NaN",
            BodyDesc { linear_velocity: Vector::repeat(nan), ..desc() },
            non_finite,
        ),
        (
            "linear velocity inf",
            BodyDesc { linear_velocity: Vector::repeat(inf), ..desc() },
            non_finite,
        ),
        (
            "linear velocity 1e30",
            BodyDesc { linear_velocity: Vector::repeat(big), ..desc() },
            out_of_range,
        ),
        (
            "linear speed above",
            BodyDesc { linear_velocity: Vector::repeat(l.max_linear_speed), ..desc() },
            out_of_range,
        ),
        (
            "kinematic speed 1e30",
            BodyDesc { kind: BodyKind::Kinematic, linear_velocity: Vector::repeat(big), ..desc() },
            out_of_range,
        ),
    ];
    for (what, d, expect) in fields {
        refused(w, what, expect, |w| w.add(d).map(|_| ()));
    }
    // Velocities of an existing body.
    refused(w, "set_velocity NaN", non_finite, |w| {
        w.set_velocity(body, Vector::repeat(nan), Dim::<D>::angular_zero())
    });
    refused(w, "set_velocity 1e30", out_of_range, |w| {
        w.set_velocity(body, Vector::repeat(big), Dim::<D>::angular_zero())
    });
    refused(w, "set_velocity above", out_of_range, |w| {
        w.set_velocity(body, Vector::repeat(l.max_linear_speed), Dim::<D>::angular_zero())
    });
    // Gravity.
    for g in [
        Vector::repeat(nan),
        Vector::repeat(inf),
        Vector::repeat(big),
        Vector::repeat(l.max_gravity),
    ] {
        refused(
            w,
            &format!("gravity {g:?}"),
            |e| non_finite(e) || out_of_range(e),
            |w| w.set_gravity(g),
        );
        assert!(World::<N, D>::new(g).is_err());
    }
    // Stale handles.
    refused(w, "remove stale", stale, |w| w.remove(gone).map(|_| ()));
    refused(w, "set_velocity stale", stale, |w| {
        w.set_velocity(gone, Vector::zeros(), Dim::<D>::angular_zero())
    });
    // The fingerprint sees a change: a call that is accepted changes it.
    let before = fingerprint(w);
    let g = *w.gravity() * N::lit(0.5);
    w.set_gravity(g).unwrap();
    assert!(before != fingerprint(w), "the fingerprint missed a gravity change");
}

fn refuse_all_2d<N: LaneScalar>() {
    let (mut w, body, gone) = pile2::<N>();
    let l = WorldLimits::<N>::new();
    let bx = || Cuboid::new(Vec2::new(N::lit(0.5), N::lit(0.5))).unwrap();
    let desc = || BodyDesc::<N, 2>::dynamic(bx()).pose(Iso2::translation(N::lit(3.0), N::lit(2.0)));
    refuse_common(&mut w, body, gone, desc);
    let (nan, big) = (N::lit(f64::NAN), N::lit(1e30));
    let t = Iso2::translation(N::lit(3.0), N::lit(2.0)).translation;
    let rot = |c: f64, s: f64| Rot2::new_unchecked(Complex::new(N::lit(c), N::lit(s)));
    let poses: [Case<Iso2<N>>; 7] = [
        ("position NaN", Iso2::translation(nan, N::zero()), non_finite),
        (
            "position beyond",
            Iso2::translation(l.max_coordinate * N::lit(2.0), N::zero()),
            out_of_range,
        ),
        ("zero rotation", Iso2::from_parts(t, rot(0.0, 0.0)), non_unit),
        ("NaN rotation", Iso2::from_parts(t, rot(f64::NAN, 0.0)), non_finite),
        ("rotation of length 1.01", Iso2::from_parts(t, rot(0.6 * 1.01, 0.8 * 1.01)), non_unit),
        ("rotation of length 0.5", Iso2::from_parts(t, rot(0.3, 0.4)), non_unit),
        (
            "rotation just beyond the tolerance",
            Iso2::from_parts(t, rot(1.0 + 2.0 * l.rotation_tolerance.to_f64(), 0.0)),
            non_unit,
        ),
    ];
    for (what, pose, expect) in poses {
        refused(&mut w, what, expect, |w| w.add(desc().pose(pose)).map(|_| ()));
    }
    for (what, wz) in [
        ("angular NaN", nan),
        ("angular 1e30", big),
        ("angular above", l.max_angular_speed * N::lit(1.5)),
    ] {
        let expect: fn(&WorldError) -> bool = |e| non_finite(e) || out_of_range(e);
        refused(&mut w, what, expect, |w| w.add(desc().angular_velocity(wz)).map(|_| ()));
        refused(&mut w, what, expect, |w| w.set_velocity(body, Vec2::zeros(), wz));
    }
    let segment = Segment::new(Point2::origin(), Point2::new(N::one(), N::zero())).unwrap();
    refused(&mut w, "dynamic segment", shape, |w| w.add(BodyDesc::dynamic(segment)).map(|_| ()));
}

fn refuse_all_3d<N: LaneScalar>() {
    let (mut w, body, gone) = pile3::<N>();
    let l = WorldLimits::<N>::new();
    let bx = || Cuboid::new(Vec3::repeat(N::lit(0.5))).unwrap();
    let at = Iso3::translation(N::lit(3.0), N::lit(2.0), N::zero());
    let desc = move || BodyDesc::<N, 3>::dynamic(bx()).pose(at);
    refuse_common(&mut w, body, gone, desc);
    let (nan, big) = (N::lit(f64::NAN), N::lit(1e30));
    let quat = |w_: f64, i: f64, j: f64, k: f64| {
        Iso3::from_parts(
            at.translation,
            Rot3::new_unchecked(Quaternion::new(N::lit(w_), N::lit(i), N::lit(j), N::lit(k))),
        )
    };
    let tol = l.rotation_tolerance.to_f64();
    let poses: [Case<Iso3<N>>; 7] = [
        ("position NaN", Iso3::translation(N::zero(), nan, N::zero()), non_finite),
        (
            "position beyond",
            Iso3::translation(N::zero(), N::zero(), -l.max_coordinate * N::lit(2.0)),
            out_of_range,
        ),
        ("zero rotation", quat(0.0, 0.0, 0.0, 0.0), non_unit),
        ("NaN rotation", quat(f64::NAN, 0.0, 0.0, 0.0), non_finite),
        ("rotation of length 1.01", quat(0.5 * 1.01, 0.5 * 1.01, 0.5 * 1.01, 0.5 * 1.01), non_unit),
        ("rotation of length 2", quat(1.0, 1.0, 1.0, 1.0), non_unit),
        ("rotation just beyond the tolerance", quat(1.0 - 2.0 * tol, 0.0, 0.0, 0.0), non_unit),
    ];
    for (what, pose, expect) in poses {
        refused(&mut w, what, expect, |w| w.add(desc().pose(pose)).map(|_| ()));
    }
    let angular = [
        ("angular NaN", Vec3::new(nan, N::zero(), N::zero())),
        ("angular 1e30", Vec3::new(N::zero(), big, N::zero())),
        ("angular above", Vec3::repeat(l.max_angular_speed * N::lit(0.6))),
    ];
    for (what, wv) in angular {
        let expect: fn(&WorldError) -> bool = |e| non_finite(e) || out_of_range(e);
        refused(&mut w, what, expect, |w| w.add(desc().angular_velocity(wv)).map(|_| ()));
        refused(&mut w, what, expect, |w| w.set_velocity(body, Vec3::zeros(), wv));
    }
    let segment =
        Segment::new(Point3::origin(), Point3::new(N::one(), N::zero(), N::zero())).unwrap();
    refused(&mut w, "dynamic segment", shape, |w| w.add(BodyDesc::dynamic(segment)).map(|_| ()));
}

#[test]
fn every_bad_request_is_refused_and_leaves_the_world_bit_identical() {
    refuse_all_2d::<f32>();
    refuse_all_2d::<f64>();
    refuse_all_3d::<f32>();
    refuse_all_3d::<f64>();
}

/// Rotations a few ulps off unit length (the issue's reproducer: each quaternion component
/// scaled by `1 + kε`, `k = −8..8`) are accepted and stored renormalised; the boundary values
/// of the envelope are accepted.
fn near_unit_and_boundaries<N: LaneScalar>() {
    let l = WorldLimits::<N>::new();
    let mut w = World3::<N>::new(Vec3::new(N::zero(), -l.max_gravity, N::zero())).unwrap();
    let q0 = *Iso3::<N>::new(
        Vec3::zeros(),
        Vec3::new(N::lit(-0.55663), N::lit(1.37908), N::lit(-0.39351)),
    )
    .rotation
    .quaternion();
    let cube = || {
        Cuboid::new(Vec3::new(N::lit(1.8403647), N::lit(1.7992817), N::lit(0.52072513))).unwrap()
    };
    let t = Vec3::new(N::lit(0.62156), N::lit(1.98289), N::lit(-1.44452));
    for k in -8..=8 {
        let q = q0 * (N::one() + N::EPSILON * N::lit(f64::from(k)));
        let pose = Iso3::from_parts(t.into(), Rot3::new_unchecked(q));
        let h = w.add(BodyDesc::dynamic(cube()).pose(pose)).unwrap();
        let stored = w.body(h).unwrap().pose().rotation;
        let length = stored.coords.iter().map(|x| x.to_f64().powi(2)).sum::<f64>().sqrt();
        assert!((length - 1.0).abs() <= 2.0 * N::EPSILON.to_f64(), "k = {k}: length {length}");
        assert!((stored.coords - q0.coords).norm() <= N::lit(16.0) * N::EPSILON);
    }
    // 2D: the same for a unit complex number.
    let mut w2 = World2::<N>::new(Vec2::zeros()).unwrap();
    for k in -8..=8 {
        let s = N::one() + N::EPSILON * N::lit(f64::from(k));
        let rot = Rot2::new_unchecked(Complex::new(N::lit(0.6) * s, N::lit(0.8) * s));
        let h = w2
            .add(
                BodyDesc::dynamic(Ball::new(N::one()).unwrap())
                    .pose(Iso2::from_parts(Vec2::zeros().into(), rot)),
            )
            .unwrap();
        let r = w2.body(h).unwrap().pose().rotation;
        let length = (r.re.to_f64().powi(2) + r.im.to_f64().powi(2)).sqrt();
        assert!((length - 1.0).abs() <= 2.0 * N::EPSILON.to_f64(), "k = {k}: length {length}");
    }
    // Each limit itself is accepted.
    let ball = || Ball::new(N::lit(0.5)).unwrap();
    let edge = [
        BodyDesc::dynamic(ball()).density(l.min_density),
        BodyDesc::dynamic(ball()).density(l.max_density),
        BodyDesc::dynamic(ball()).friction(l.max_friction).restitution(l.max_restitution),
        BodyDesc::dynamic(ball()).damping(l.max_damping, l.max_damping),
        BodyDesc::dynamic(ball()).gravity_scale(-l.max_gravity_scale),
        BodyDesc::dynamic(ball()).linear_velocity(Vec3::new(
            l.max_linear_speed,
            N::zero(),
            N::zero(),
        )),
        BodyDesc::dynamic(ball()).angular_velocity(Vec3::new(
            N::zero(),
            N::zero(),
            -l.max_angular_speed,
        )),
        BodyDesc::dynamic(ball()).pose(Iso3::translation(
            l.max_coordinate,
            -l.max_coordinate,
            N::zero(),
        )),
        // A bullet.
        BodyDesc::dynamic(ball()).linear_velocity(Vec3::new(N::lit(2000.0), N::zero(), N::zero())),
    ];
    for d in edge {
        w.add(d).unwrap();
    }
    let settings = StepSettings {
        substeps: l.max_substeps,
        contact_damping_ratio: l.max_damping_ratio,
        max_push_velocity: l.max_linear_speed,
        restitution_threshold: l.max_linear_speed,
        ..StepSettings::new()
    };
    w.set_settings(settings).unwrap();
    w.step(l.max_time_step).unwrap();
    w.step(l.min_time_step).unwrap();
    let h = w.bodies().next().unwrap().0;
    w.set_velocity(h, Vec3::new(N::lit(-2000.0), N::zero(), N::zero()), Vec3::zeros()).unwrap();
}

#[test]
fn near_unit_rotations_and_the_limits_themselves_are_accepted() {
    near_unit_and_boundaries::<f32>();
    near_unit_and_boundaries::<f64>();
}

/// Vectors whose length is drawn up to a limit are drawn a little short of it, as rounding
/// while normalising their direction may make them longer.
const SHORT: f64 = 0.999;

/// A log-uniform draw in `[lo, hi]`.
fn log_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    (rng.random_range(lo.ln()..=hi.ln())).exp()
}

/// Draws a value at the envelope's edges half of the time, anywhere inside it otherwise.
fn extreme(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    match rng.random_range(0..4) {
        0 => lo,
        1 => hi,
        _ => log_uniform(rng, lo, hi),
    }
}

/// Random worlds at the edges of the envelope, stepped `steps` times: every body, every
/// contact and every impulse stays finite. Shapes are kept well inside their own size
/// envelope (`kollide_shapes`); everything the world checks goes to its limits.
fn hostile_worlds<N: LaneScalar, const D: usize>(
    seeds: std::ops::Range<u64>,
    steps: usize,
    shape: fn(&mut ChaCha8Rng, f64) -> <Dim<D> as SolverDim<N, D>>::Shape,
    pose: fn(&mut ChaCha8Rng, Vector<N, D>) -> <Dim<D> as SolverDim<N, D>>::Pose,
    angular: fn(Vector<N, D>) -> <Dim<D> as SolverDim<N, D>>::Angular,
) where
    Dim<D>: SolverDim<N, D>,
{
    let l = WorldLimits::<N>::new();
    let f = |x: N| x.to_f64();
    let (mut total_touching, mut top_speed) = (0, 0.0f64);
    for seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let unit = |rng: &mut ChaCha8Rng| {
            let v = Vector::<N, D>::from_fn(|_, _| N::lit(rng.random_range(-1.0..1.0)));
            if v.norm() > N::lit(1e-3) {
                v.normalize()
            } else {
                Vector::<N, D>::from_fn(|i, _| if i == 0 { N::one() } else { N::zero() })
            }
        };
        let g = unit(&mut rng) * N::lit(extreme(&mut rng, 1e-3, f(l.max_gravity) * SHORT));
        let mut w = World::<N, D>::new(g).unwrap();
        let settings = StepSettings {
            substeps: [1, 4, l.max_substeps][rng.random_range(0..3)],
            contact_hertz: N::lit(extreme(&mut rng, 1e-3, 1e6)),
            contact_damping_ratio: N::lit(extreme(&mut rng, 1e-3, f(l.max_damping_ratio))),
            max_push_velocity: N::lit(extreme(&mut rng, 1e-3, f(l.max_linear_speed))),
            restitution_threshold: N::lit(extreme(&mut rng, 1e-3, f(l.max_linear_speed))),
            warm_starting: rng.random_bool(0.7),
            linear_slop: N::lit(extreme(&mut rng, 1e-6, f(l.max_coordinate))),
            speculative_margin: N::lit(extreme(&mut rng, 1e-6, f(l.max_coordinate))),
            manifold_reuse_distance: N::lit(extreme(&mut rng, 1e-6, f(l.max_coordinate))),
            // Events observe and change nothing; reporting them must survive extreme scenes.
            contact_events: true,
            hit_event_threshold: Some(N::zero()),
            // Continuous collision moves fast bodies back: it must survive extreme scenes too.
            continuous: true,
            // Either order of the 2D contacts.
            colour_2d: rng.random_bool(0.5),
            // Sleeping at any thresholds, the sleeping bodies hit by the others.
            sleeping: rng.random_bool(0.7),
            sleep_linear_speed: N::lit(extreme(&mut rng, 1e-6, f(l.max_linear_speed))),
            sleep_angular_speed: N::lit(extreme(&mut rng, 1e-6, f(l.max_angular_speed))),
            time_to_sleep: N::lit(extreme(&mut rng, 1e-6, 2.0)),
        };
        w.set_settings(settings).unwrap();
        // The scene's scale: how big the shapes are and how far apart they start.
        let scale = log_uniform(&mut rng, 1e-2, 1e3);
        let spread = N::lit(scale * 4.0);
        // Where the pile is: anywhere in the envelope, the shapes still inside it.
        let centre = unit(&mut rng)
            * (l.max_coordinate - spread * N::lit(2.0)).max_of(N::zero())
            * N::lit(rng.random_range(0.0..1.0));
        let ground = shape(&mut rng, scale * 10.0);
        w.add(BodyDesc::fixed(ground).pose(pose(&mut rng, centre)).friction(l.max_friction))
            .unwrap();
        for _ in 0..12 {
            let size = scale * log_uniform(&mut rng, 0.1, 1.0);
            let at = centre + unit(&mut rng) * spread * N::lit(rng.random_range(0.0..1.0));
            let speed = N::lit(extreme(&mut rng, 1e-3, f(l.max_linear_speed) * SHORT));
            // Mostly aimed at the centre, so the pile collides.
            let aim = centre - at + unit(&mut rng) * N::lit(scale * 0.5);
            let v = if aim.norm() > N::zero() { aim.normalize() * speed } else { aim };
            let spin =
                unit(&mut rng) * N::lit(extreme(&mut rng, 1e-3, f(l.max_angular_speed) * SHORT));
            let kind = rng.random_range(0..8);
            let mut desc = match kind {
                0 => BodyDesc::fixed(shape(&mut rng, size)),
                1 => BodyDesc::kinematic(shape(&mut rng, size)),
                _ => BodyDesc::dynamic(shape(&mut rng, size)),
            };
            desc = desc
                .pose(pose(&mut rng, at))
                .linear_velocity(v)
                .angular_velocity(angular(spin))
                .density(N::lit(extreme(&mut rng, f(l.min_density), f(l.max_density))))
                .friction(N::lit(extreme(&mut rng, 1e-3, f(l.max_friction))))
                .restitution(N::lit(extreme(&mut rng, 1e-3, 1.0)))
                .damping(
                    N::lit(
                        extreme(&mut rng, 1e-3, f(l.max_damping))
                            * f64::from(rng.random_range(0..2)),
                    ),
                    N::lit(
                        extreme(&mut rng, 1e-3, f(l.max_damping))
                            * f64::from(rng.random_range(0..2)),
                    ),
                )
                .gravity_scale(N::lit(
                    extreme(&mut rng, 1e-3, f(l.max_gravity_scale))
                        * if rng.random_bool(0.2) { -1.0 } else { 1.0 },
                ));
            if let Err(e) = w.add(desc.clone()) {
                panic!("seed {seed}: {e} for {desc:?}");
            }
        }
        let dt = N::lit(extreme(&mut rng, f(l.min_time_step), f(l.max_time_step)));
        let mut touching = 0;
        for step in 0..steps {
            let before = w.clone();
            let report = w.step(dt).unwrap();
            touching += report.touching_pairs;
            for (h, b) in w.bodies() {
                let finite = b.pose().is_finite()
                    && b.linear_velocity().iter().all(|x| x.is_finite_value())
                    && Dim::<D>::angular_is_finite(&b.angular_velocity());
                if !finite {
                    eprintln!("dt {dt:?} settings {:?} gravity {:?}", w.settings(), w.gravity());
                    for (hh, bb) in before.bodies() {
                        eprintln!("before: {hh:?} {bb:?}");
                    }
                    for p in before.contact_pairs().iter().chain(w.contact_pairs()) {
                        if p.a == h || p.b == h {
                            eprintln!("pair {:?} {:?} {:?}", p.a, p.b, p.manifold);
                        }
                    }
                }
                assert!(finite, "seed {seed}, step {step}: body {h:?} is not finite: {b:?}");
            }
            // What the world reports, it accepts back (setting a body's own velocity changes
            // nothing).
            let velocities: Vec<_> =
                w.bodies().map(|(h, b)| (h, b.linear_velocity(), b.angular_velocity())).collect();
            for (h, v, spin) in velocities {
                let back = w.set_velocity(h, v, spin);
                assert!(
                    back.is_ok(),
                    "seed {seed}, step {step}: {h:?}'s velocity refused: {back:?}"
                );
            }
            for p in w.contact_pairs() {
                let m = &p.manifold;
                let finite = m.normal.iter().all(|x| x.is_finite_value())
                    && m.contacts().iter().all(|c| {
                        c.separation.is_finite_value()
                            && c.user.normal.is_finite_value()
                            && c.user.tangent.iter().all(|x| x.is_finite_value())
                            && c.user.twist.is_finite_value()
                    });
                assert!(
                    finite,
                    "seed {seed}, step {step}: pair {:?}-{:?} is not finite: {m:?}",
                    p.a, p.b
                );
            }
        }
        assert!(touching > 0, "seed {seed}: nothing touched (the test would prove nothing)");
        total_touching += touching;
        let fastest =
            w.bodies().map(|(_, b)| b.linear_velocity().norm().to_f64()).fold(0.0, f64::max);
        top_speed = top_speed.max(fastest);
    }
    eprintln!(
        "{} {D}D: {total_touching} touching pair-steps, fastest body at the end {top_speed:.3e} m/s",
        core::any::type_name::<N>()
    );
}

fn shape2<N: LaneScalar>(rng: &mut ChaCha8Rng, size: f64) -> BodyShape2<N> {
    let s = |rng: &mut ChaCha8Rng| {
        N::lit((size * rng.random_range(0.2..1.0)).max(N::MIN_SIZE.to_f64()))
    };
    match rng.random_range(0..3) {
        0 => Ball::new(s(rng)).unwrap().into(),
        1 => Cuboid::new(Vec2::new(s(rng), s(rng))).unwrap().into(),
        _ => Capsule::new_axis(s(rng), s(rng)).unwrap().into(),
    }
}

fn shape3<N: LaneScalar>(rng: &mut ChaCha8Rng, size: f64) -> BodyShape3<N> {
    let s = |rng: &mut ChaCha8Rng| {
        N::lit((size * rng.random_range(0.2..1.0)).max(N::MIN_SIZE.to_f64()))
    };
    match rng.random_range(0..4) {
        0 => Ball::new(s(rng)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(s(rng), s(rng), s(rng))).unwrap().into(),
        2 => Capsule::new_axis(s(rng), s(rng)).unwrap().into(),
        _ => Cylinder::new(s(rng), s(rng)).unwrap().into(),
    }
}

fn pose2<N: LaneScalar>(rng: &mut ChaCha8Rng, at: Vec2<N>) -> Iso2<N> {
    Iso2::new(at, N::lit(rng.random_range(-3.2..3.2)))
}

fn pose3<N: LaneScalar>(rng: &mut ChaCha8Rng, at: Vec3<N>) -> Iso3<N> {
    let mut r = || N::lit(rng.random_range(-2.0..2.0));
    Iso3::new(at, Vec3::new(r(), r(), r()))
}

#[test]
fn extreme_accepted_worlds_stay_finite_2d() {
    hostile_worlds::<f32, 2>(0..60, 80, shape2, pose2, |w| w.x);
    hostile_worlds::<f64, 2>(0..60, 80, shape2, pose2, |w| w.x);
}

/// The case that found the per-substep turn limit: millimetre specks of `1e-13` kg spinning
/// at thousands of rad/s, with speculative contacts kilometres long (lever arms of `2.5e4` m)
/// at a 1 s step, turned by radians per substep until the contact estimates blew up to NaN.
#[test]
fn fast_spinning_specks_with_far_speculative_contacts_stay_finite() {
    hostile_worlds::<f32, 3>(90..91, 80, shape3, pose3, |w| w);
}

#[test]
fn extreme_accepted_worlds_stay_finite_3d() {
    hostile_worlds::<f32, 3>(0..60, 80, shape3, pose3, |w| w);
    hostile_worlds::<f64, 3>(0..60, 80, shape3, pose3, |w| w);
}

/// The issue's reproducers, now refused: a zero rotation, `step(1e30)`, `step(f32::MAX)`, NaN
/// gravity, and an `f32` angular velocity, density or `set_velocity` of `1e30`.
#[test]
fn the_issue_reproducers_are_refused() {
    let mut w = World3::<f32>::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
    let cube = || Cuboid::new(Vec3::repeat(0.5f32)).unwrap();
    let zero = Iso3::from_parts(
        Vec3::zeros().into(),
        Rot3::new_unchecked(Quaternion::new(0.0, 0.0, 0.0, 0.0)),
    );
    assert!(matches!(
        w.add(BodyDesc::dynamic(cube()).pose(zero)),
        Err(WorldError::NonUnitRotation { .. })
    ));
    let b = w.add(BodyDesc::dynamic(cube())).unwrap();
    assert!(matches!(w.step(1e30), Err(WorldError::BadTimeStep(_))));
    assert!(matches!(w.step(f32::MAX), Err(WorldError::BadTimeStep(_))));
    assert!(w.set_gravity(Vec3::new(f32::NAN, 0.0, 0.0)).is_err());
    let spin = BodyDesc::dynamic(cube()).angular_velocity(Vec3::new(1e30, 0.0, 0.0));
    assert!(matches!(w.add(spin), Err(WorldError::OutOfRange { what: "angular velocity", .. })));
    let dense = BodyDesc::dynamic(cube()).density(1e30);
    assert!(matches!(w.add(dense), Err(WorldError::OutOfRange { what: "density", .. })));
    let fast = w.set_velocity(b, Vec3::new(1e30, 0.0, 0.0), Vec3::zeros());
    assert!(matches!(fast, Err(WorldError::OutOfRange { what: "linear velocity", .. })));
    for _ in 0..60 {
        w.step(1.0 / 60.0).unwrap();
    }
    assert!(w.body(b).unwrap().pose().is_finite());
}

/// Bodies falling for hours of simulated time under the strongest gravity the envelope allows
/// (and the largest gravity scale, both ways), at the longest time step: their speeds stop at
/// the envelope's limit instead of growing until they overflow, and everything stays finite.
fn long_fall<N: LaneScalar>() {
    let l = WorldLimits::<N>::new();
    let g = Vec3::new(N::zero(), -l.max_gravity, N::zero());
    let mut w = World3::<N>::new(g).unwrap();
    let ball = || Ball::new(N::one()).unwrap();
    let spin = Vec3::new(N::zero(), l.max_angular_speed, N::zero());
    let mut handles = Vec::new();
    for (i, scale) in [l.max_gravity_scale, -l.max_gravity_scale, N::one()].into_iter().enumerate()
    {
        let at = Iso3::translation(N::lit(3.0 * i as f64), N::zero(), N::zero());
        let desc = BodyDesc::dynamic(ball()).pose(at).gravity_scale(scale).angular_velocity(spin);
        handles.push(w.add(desc).unwrap());
    }
    for _ in 0..10_000 {
        w.step(l.max_time_step).unwrap();
    }
    for h in handles {
        let b = w.body(h).unwrap();
        assert!(b.pose().is_finite());
        let v = b.linear_velocity().norm();
        assert!(v <= l.max_linear_speed * N::lit(1.0 + 1e-3), "{v:?}");
        assert!(b.angular_velocity().norm() <= l.max_angular_speed * N::lit(1.0 + 1e-3));
    }
}

#[test]
fn speeds_stay_inside_the_envelope_over_a_long_fall() {
    long_fall::<f32>();
    long_fall::<f64>();
}
