//! Step events against what they report on: contact begin and end events against the changes,
//! step by step, in the set of touching pairs that `contact_pairs()` shows; sensor overlaps
//! against brute-force `intersection_test` over every sensor and body; hit events against a
//! ball dropped from a known height. Seeded scenes of mixed shapes in 2D and 3D, `f32` and
//! `f64`, with bodies added and removed while they run; every begin must have exactly one end
//! once every body is removed, and each test asserts that events of each kind happened.

use std::collections::BTreeSet;

use kollide_math::{Iso2, Iso3, Point2, Scalar, Vec2, Vec3, Vector};
use kollide_narrowphase::QuerySettings;
use kollide_narrowphase::composite::BodyQueries;
use kollide_shapes::{Ball, BodyShape2, BodyShape3, Capsule, Cone, Cuboid, Cylinder, Triangle};
use kollide_solver::{
    BodyDesc, BodyHandle, BodyKind, CollisionGroups, ContactEvent, Dim, LaneScalar, SensorEvent,
    SolverDim, StepSettings, World, World2, World3,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Shape<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Shape;
type PoseOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Pose;

fn lit<N: Scalar>(x: f64) -> N {
    N::lit(x)
}

fn shape2<N: Scalar>(rng: &mut ChaCha8Rng) -> BodyShape2<N> {
    let s = |rng: &mut ChaCha8Rng| lit::<N>(0.2 + rng.random::<f64>() * 0.6);
    match rng.random_range(0..4) {
        0 => Ball::new(s(rng)).unwrap().into(),
        1 => Cuboid::new(Vec2::new(s(rng), s(rng))).unwrap().into(),
        2 => Capsule::new_axis(s(rng), s(rng)).unwrap().into(),
        _ => Triangle::new(
            Point2::new(N::zero(), N::zero()),
            Point2::new(s(rng) * lit(2.0), N::zero()),
            Point2::new(N::zero(), s(rng) * lit(2.0)),
        )
        .unwrap()
        .into(),
    }
}

fn shape3<N: Scalar>(rng: &mut ChaCha8Rng) -> BodyShape3<N> {
    let s = |rng: &mut ChaCha8Rng| lit::<N>(0.2 + rng.random::<f64>() * 0.6);
    match rng.random_range(0..5) {
        0 => Ball::new(s(rng)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(s(rng), s(rng), s(rng))).unwrap().into(),
        2 => Capsule::new_axis(s(rng), s(rng)).unwrap().into(),
        3 => Cylinder::new(s(rng), s(rng)).unwrap().into(),
        _ => Cone::new(s(rng), s(rng)).unwrap().into(),
    }
}

/// A random pose above the ground, within a box of side `span`.
fn pose2<N: Scalar>(rng: &mut ChaCha8Rng, span: f64) -> Iso2<N> {
    let mut c = || lit::<N>((rng.random::<f64>() - 0.5) * span);
    let (x, y, a) = (c(), c(), c());
    Iso2::new(Vec2::new(x, y + lit(span * 0.5 + 1.0)), a)
}

fn pose3<N: Scalar>(rng: &mut ChaCha8Rng, span: f64) -> Iso3<N> {
    let mut c = || lit::<N>((rng.random::<f64>() - 0.5) * span);
    let (x, y, z) = (c(), c(), c());
    let axis = Vec3::new(c(), c(), c()) * lit::<N>(0.5);
    Iso3::new(Vec3::new(x, y + lit(span * 0.5 + 1.0), z), axis)
}

/// What a scene is made of in one dimension: its shapes, poses, and the ground.
struct Maker<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    shape: fn(&mut ChaCha8Rng) -> Shape<N, D>,
    pose: fn(&mut ChaCha8Rng, f64) -> PoseOf<N, D>,
    ground: fn() -> BodyDesc<N, D>,
    up: Vector<N, D>,
}

fn maker2<N: LaneScalar>() -> Maker<N, 2> {
    Maker {
        shape: shape2::<N>,
        pose: pose2::<N>,
        ground: || {
            BodyDesc::fixed(Cuboid::new(Vec2::new(lit::<N>(30.0), lit(0.5))).unwrap())
                .pose(Iso2::translation(N::zero(), lit(-0.5)))
        },
        up: Vec2::new(N::zero(), N::one()),
    }
}

fn maker3<N: LaneScalar>() -> Maker<N, 3> {
    Maker {
        shape: shape3::<N>,
        pose: pose3::<N>,
        ground: || {
            BodyDesc::fixed(Cuboid::new(Vec3::new(lit::<N>(30.0), lit(0.5), lit(30.0))).unwrap())
                .pose(Iso3::translation(N::zero(), lit(-0.5), N::zero()))
        },
        up: Vec3::new(N::zero(), N::one(), N::zero()),
    }
}

/// A random body: mostly dynamic, some kinematic movers, some static; random groups; a
/// sensor now and then when `sensors`.
fn random_body<N: Scalar, const D: usize>(
    m: &Maker<N, D>,
    rng: &mut ChaCha8Rng,
    span: f64,
    sensors: bool,
) -> BodyDesc<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let shape = (m.shape)(rng);
    let pose = (m.pose)(rng, span);
    let roll = rng.random::<f64>();
    let desc = if roll < 0.1 {
        BodyDesc::fixed(shape)
    } else if roll < 0.2 {
        let v = Vector::from_fn(|_, _| lit::<N>((rng.random::<f64>() - 0.5) * 2.0));
        BodyDesc::kinematic(shape).linear_velocity(v)
    } else {
        BodyDesc::dynamic(shape)
    };
    let groups = if rng.random::<f64>() < 0.8 {
        CollisionGroups::ALL
    } else {
        CollisionGroups::new(rng.random::<u32>() & 0b11 | 0b100, rng.random::<u32>() & 0b11 | 0b100)
    };
    let sensor = sensors && rng.random::<f64>() < 0.2;
    desc.pose(pose).collision_groups(groups).sensor(sensor)
}

/// The touching pairs as `contact_pairs()` shows them: a point with separation `≤ 0`.
fn touching<N: Scalar, const D: usize>(w: &World<N, D>) -> BTreeSet<ContactEvent>
where
    Dim<D>: SolverDim<N, D>,
{
    w.contact_pairs()
        .iter()
        .filter(|p| p.manifold.contacts().iter().any(|c| c.separation <= N::zero()))
        .map(|p| ContactEvent { a: p.a, b: p.b })
        .collect()
}

/// Begin and end events of one kind kept as a ledger: a begin opens, an end closes; opening
/// what is open or closing what is not fails.
struct Ledger<T: Ord> {
    open: BTreeSet<T>,
    begins: usize,
    ends: usize,
}

impl<T: Ord + Copy + core::fmt::Debug> Ledger<T> {
    fn new() -> Self {
        Self { open: BTreeSet::new(), begins: 0, ends: 0 }
    }

    fn apply(&mut self, begins: &[T], ends: &[T]) {
        for e in ends {
            assert!(self.open.remove(e), "end without a begin: {e:?}");
            self.ends += 1;
        }
        for b in begins {
            assert!(self.open.insert(*b), "a second begin: {b:?}");
            self.begins += 1;
        }
    }
}

fn is_sorted_by_pair(events: &[ContactEvent]) -> bool {
    events.windows(2).all(|w| (w[0].a.index(), w[0].b.index()) < (w[1].a.index(), w[1].b.index()))
}

/// Steps a seeded scene, adding and removing bodies, and checks every step's contact events
/// against the change in `contact_pairs()`' touching set; at the end removes every body and
/// checks that every begin had its end. Returns (begins, ends).
fn contact_events_follow_touching<N: LaneScalar, const D: usize>(
    m: &Maker<N, D>,
    seed: u64,
    steps: usize,
) -> (usize, usize)
where
    Dim<D>: SolverDim<N, D>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = World::<N, D>::new(m.up * lit::<N>(-9.81)).unwrap();
    let settings = StepSettings { contact_events: true, ..*w.settings() };
    w.set_settings(settings).unwrap();
    w.add((m.ground)()).unwrap();
    for _ in 0..25 {
        w.add(random_body(m, &mut rng, 6.0, false)).unwrap();
    }
    let mut ledger = Ledger::new();
    let mut before = touching(&w);
    let dt = lit::<N>(1.0 / 60.0);
    for step in 0..steps {
        // Now and then a body leaves or arrives between steps.
        let mut removed_ends = BTreeSet::new();
        if rng.random::<f64>() < 0.1 {
            let handles: Vec<BodyHandle> = w.bodies().skip(1).map(|(h, _)| h).collect();
            if !handles.is_empty() {
                let h = handles[rng.random_range(0..handles.len())];
                w.remove(h).unwrap();
                removed_ends.extend(before.iter().filter(|e| e.a == h || e.b == h).copied());
            }
        }
        if rng.random::<f64>() < 0.1 {
            w.add(random_body(m, &mut rng, 6.0, false)).unwrap();
        }
        w.step(dt).unwrap();
        let after = touching(&w);
        let ev = w.events();
        let begins: BTreeSet<_> = after.difference(&before).copied().collect();
        let ends: BTreeSet<_> = before.difference(&after).copied().collect();
        assert_eq!(
            ev.contact_begin().iter().copied().collect::<BTreeSet<_>>(),
            begins,
            "begins, step {step}"
        );
        assert_eq!(ev.contact_begin().len(), begins.len(), "a begin twice, step {step}");
        assert_eq!(
            ev.contact_end().iter().copied().collect::<BTreeSet<_>>(),
            ends,
            "ends, step {step}"
        );
        assert_eq!(ev.contact_end().len(), ends.len(), "an end twice, step {step}");
        assert!(removed_ends.is_subset(&ends), "a removed body's contacts end, step {step}");
        assert!(is_sorted_by_pair(ev.contact_begin()) && is_sorted_by_pair(ev.contact_end()));
        ledger.apply(ev.contact_begin(), ev.contact_end());
        assert_eq!(ledger.open, after, "the open contacts are the touching pairs, step {step}");
        before = after;
    }
    // Removing everything ends every contact, in the next step's events.
    let handles: Vec<BodyHandle> = w.bodies().map(|(h, _)| h).collect();
    for h in handles {
        w.remove(h).unwrap();
    }
    w.step(dt).unwrap();
    assert!(w.events().contact_begin().is_empty());
    ledger.apply(w.events().contact_begin(), w.events().contact_end());
    assert!(ledger.open.is_empty(), "contacts without an end: {:?}", ledger.open);
    w.step(dt).unwrap();
    assert!(w.events().is_empty(), "nothing is reported twice");
    (ledger.begins, ledger.ends)
}

macro_rules! contact_event_tests {
    ($name:ident, $n:ty, $maker:ident) => {
        #[test]
        fn $name() {
            let (mut begins, mut ends) = (0, 0);
            for seed in 0..6 {
                let (b, e) = contact_events_follow_touching(&$maker::<$n>(), seed, 150);
                begins += b;
                ends += e;
            }
            assert_eq!(begins, ends);
            assert!(begins > 100, "too few contacts began: {begins}");
        }
    };
}

contact_event_tests!(contact_events_follow_touching_pairs_2d_f32, f32, maker2);
contact_event_tests!(contact_events_follow_touching_pairs_2d_f64, f64, maker2);
contact_event_tests!(contact_events_follow_touching_pairs_3d_f32, f32, maker3);
contact_event_tests!(contact_events_follow_touching_pairs_3d_f64, f64, maker3);

/// The sensor overlaps by brute force: every sensor against every non-sensor body whose groups
/// interact with it, when one of them is dynamic (the broadphase pairs nothing else), tested
/// with `intersection_test` at the poses the bodies had when the step began.
fn brute_force_overlaps<N: Scalar, const D: usize>(
    bodies: &[(BodyHandle, BodyDesc<N, D>)],
) -> BTreeSet<(u32, u32, BodyHandle, BodyHandle)>
where
    Dim<D>: SolverDim<N, D>,
{
    let settings = QuerySettings::default();
    let mut out = BTreeSet::new();
    for (hs, s) in bodies.iter().filter(|(_, d)| d.sensor) {
        for (hv, v) in bodies.iter().filter(|(_, d)| !d.sensor) {
            let dynamic = s.kind == BodyKind::Dynamic || v.kind == BodyKind::Dynamic;
            if dynamic
                && s.collision_groups.interacts(&v.collision_groups)
                && s.shape.intersects(&s.pose, &v.shape, &v.pose, &settings).intersecting
            {
                let (i, j) = (hs.index().min(hv.index()), hs.index().max(hv.index()));
                out.insert((i, j, *hs, *hv));
            }
        }
    }
    out
}

fn overlap_set(events: &[SensorEvent]) -> BTreeSet<(u32, u32, BodyHandle, BodyHandle)> {
    events
        .iter()
        .map(|e| {
            let (s, v) = (e.sensor.index(), e.visitor.index());
            (s.min(v), s.max(v), e.sensor, e.visitor)
        })
        .collect()
}

/// Sensors among the bodies: each step's overlaps equal the brute-force set at the step's
/// starting poses, the events are its changes, sensors never appear in a contact pair, and
/// every begin has its end once the bodies are removed. Returns (begins, sensor bodies that
/// ended up below the ground, i.e. fell through it).
fn sensors_match_brute_force<N: LaneScalar, const D: usize>(
    m: &Maker<N, D>,
    seed: u64,
    steps: usize,
) -> usize
where
    Dim<D>: SolverDim<N, D>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = World::<N, D>::new(m.up * lit::<N>(-9.81)).unwrap();
    w.add((m.ground)()).unwrap();
    for _ in 0..30 {
        w.add(random_body(m, &mut rng, 6.0, true)).unwrap();
    }
    // A large static sensor and a kinematic one sweeping through the pile.
    let big = (m.shape)(&mut rng);
    w.add(BodyDesc::fixed(big).pose((m.pose)(&mut rng, 2.0)).sensor(true)).unwrap();
    let sweeper = (m.shape)(&mut rng);
    let v = m.up * lit::<N>(0.0) + Vector::from_fn(|k, _| lit::<N>(if k == 0 { 1.5 } else { 0.0 }));
    let start = (m.pose)(&mut rng, 0.5);
    w.add(BodyDesc::kinematic(sweeper).pose(start).linear_velocity(v).sensor(true)).unwrap();
    let mut ledger = Ledger::new();
    let mut before = BTreeSet::new();
    let dt = lit::<N>(1.0 / 60.0);
    for step in 0..steps {
        if rng.random::<f64>() < 0.05 {
            let handles: Vec<BodyHandle> = w.bodies().skip(1).map(|(h, _)| h).collect();
            w.remove(handles[rng.random_range(0..handles.len())]).unwrap();
        }
        let bodies: Vec<(BodyHandle, BodyDesc<N, D>)> =
            w.bodies().map(|(h, b)| (h, b.desc().clone())).collect();
        w.step(dt).unwrap();
        let expected = brute_force_overlaps(&bodies);
        let overlaps = overlap_set(w.sensor_overlaps());
        assert_eq!(overlaps, expected, "sensor overlaps, step {step}");
        assert_eq!(w.sensor_overlaps().len(), expected.len());
        let ev = w.events();
        // Ends include the removed bodies' overlaps, which `before` still holds.
        let begins: BTreeSet<_> = expected.difference(&before).copied().collect();
        let ends: BTreeSet<_> = before.difference(&expected).copied().collect();
        assert_eq!(overlap_set(ev.sensor_begin()), begins, "sensor begins, step {step}");
        assert_eq!(overlap_set(ev.sensor_end()), ends, "sensor ends, step {step}");
        assert_eq!((ev.sensor_begin().len(), ev.sensor_end().len()), (begins.len(), ends.len()));
        let keys = |e: &[SensorEvent]| {
            e.windows(2).all(|p| {
                let k = |e: &SensorEvent| {
                    let (s, v) = (e.sensor.index(), e.visitor.index());
                    (s.min(v), s.max(v))
                };
                k(&p[0]) < k(&p[1])
            })
        };
        assert!(keys(ev.sensor_begin()) && keys(ev.sensor_end()), "sorted by pair");
        let sensor = |h: BodyHandle| w.body(h).is_ok_and(|b| b.is_sensor());
        assert!(
            w.contact_pairs().iter().all(|p| !sensor(p.a) && !sensor(p.b)),
            "a sensor has a contact pair"
        );
        let as_pairs =
            |e: &[SensorEvent]| e.iter().map(|e| (e.sensor, e.visitor)).collect::<Vec<_>>();
        ledger.apply(&as_pairs(ev.sensor_begin()), &as_pairs(ev.sensor_end()));
        before = expected;
    }
    let handles: Vec<BodyHandle> = w.bodies().map(|(h, _)| h).collect();
    for h in handles {
        w.remove(h).unwrap();
    }
    w.step(dt).unwrap();
    let ev = w.events();
    let as_pairs = |e: &[SensorEvent]| e.iter().map(|e| (e.sensor, e.visitor)).collect::<Vec<_>>();
    ledger.apply(&as_pairs(ev.sensor_begin()), &as_pairs(ev.sensor_end()));
    assert!(ledger.open.is_empty(), "overlaps without an end: {:?}", ledger.open);
    assert_eq!(ledger.begins, ledger.ends);
    ledger.begins
}

macro_rules! sensor_tests {
    ($name:ident, $n:ty, $maker:ident) => {
        #[test]
        fn $name() {
            let begins: usize =
                (0..6).map(|seed| sensors_match_brute_force(&$maker::<$n>(), seed, 150)).sum();
            assert!(begins > 30, "too few sensor overlaps began: {begins}");
        }
    };
}

sensor_tests!(sensors_match_brute_force_2d_f32, f32, maker2);
sensor_tests!(sensors_match_brute_force_2d_f64, f64, maker2);
sensor_tests!(sensors_match_brute_force_3d_f32, f32, maker3);
sensor_tests!(sensors_match_brute_force_3d_f64, f64, maker3);

/// A dynamic body falls through a static sensor: it is reported entering and leaving, and
/// never slowed down.
#[test]
fn a_body_falls_through_a_sensor_and_is_reported_in_and_out() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let slab = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
    let sensor = w.add(BodyDesc::fixed(slab).sensor(true)).unwrap();
    let ball = Ball::new(0.25).unwrap();
    let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(0.0, 2.0))).unwrap();
    let (mut entered, mut left) = (None, None);
    for step in 0..90 {
        w.step(1.0 / 60.0).unwrap();
        let ev = w.events();
        if ev.sensor_begin().iter().any(|e| e.sensor == sensor && e.visitor == b) {
            assert!(entered.is_none());
            entered = Some(step);
        }
        if ev.sensor_end().iter().any(|e| e.sensor == sensor && e.visitor == b) {
            assert!(left.is_none());
            left = Some(step);
        }
        assert!(w.contact_pairs().is_empty());
    }
    let (entered, left) = (entered.unwrap(), left.unwrap());
    assert!(entered < left, "in at {entered}, out at {left}");
    // Free fall: after 1.5 s, y = 2 − 5 · 1.5² (up to the integrator's first-order error).
    let y = w.body(b).unwrap().pose().translation.y;
    assert!((y - (2.0 - 5.0 * 1.5 * 1.5)).abs() < 0.2, "slowed down by the sensor: y = {y}");
}

/// A ball dropped from 1.8 m hits the ground at 6 m/s: one hit event at impact with that
/// speed, none while it rests, and none when the threshold is above the speed.
#[test]
fn a_dropped_ball_reports_one_hit_at_its_impact_speed() {
    for (threshold, expect) in [(1.0, true), (7.0, false)] {
        let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
        let settings = StepSettings { hit_event_threshold: Some(threshold), ..*w.settings() };
        w.set_settings(settings).unwrap();
        let ground = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
        let g = w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
        let ball = Ball::new(0.2).unwrap();
        let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(0.0, 2.0))).unwrap();
        let mut hits = Vec::new();
        for _ in 0..180 {
            w.step(1.0 / 60.0).unwrap();
            hits.extend_from_slice(w.events().hits());
        }
        if !expect {
            assert!(hits.is_empty(), "{hits:?}");
            continue;
        }
        assert_eq!(hits.len(), 1, "{hits:?}");
        let hit = hits[0];
        assert_eq!((hit.a, hit.b), (g, b));
        assert!((hit.speed - 6.0).abs() < 0.3, "impact speed {}", hit.speed);
        assert!((hit.normal - Vec2::new(0.0, 1.0)).norm() < 1e-6);
        assert!(hit.point.y.abs() < 0.1 && hit.point.x.abs() < 0.05, "{:?}", hit.point);
    }
}

/// Sensor and hit events in a 3D world, and the hit threshold is validated.
#[test]
fn hits_in_3d_and_the_threshold_is_validated() {
    let mut w = World3::<f32>::new(Vec3::new(0.0, -10.0, 0.0)).unwrap();
    for bad in [-1.0, f32::NAN, 1e9] {
        let s = StepSettings { hit_event_threshold: Some(bad), ..*w.settings() };
        assert!(w.set_settings(s).is_err());
    }
    let s = StepSettings { hit_event_threshold: Some(2.0), ..*w.settings() };
    w.set_settings(s).unwrap();
    let ground = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -0.5, 0.0))).unwrap();
    let cube = Cuboid::new(Vec3::repeat(0.25)).unwrap();
    w.add(BodyDesc::dynamic(cube).pose(Iso3::translation(0.0, 3.45, 0.0))).unwrap();
    let mut hits = Vec::new();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
        hits.extend_from_slice(w.events().hits());
    }
    assert_eq!(hits.len(), 1, "{hits:?}");
    // 3.2 m of fall: 8 m/s.
    assert!((hits[0].speed - 8.0).abs() < 0.4, "{}", hits[0].speed);
}

/// Turning contact events on mid-run reports a begin for every pair already touching; turning
/// them off ends them.
#[test]
fn turning_contact_events_on_reports_ongoing_contacts() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let ground = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
    let b = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    w.add(BodyDesc::dynamic(b).pose(Iso2::translation(0.0, 0.5))).unwrap();
    for _ in 0..30 {
        w.step(1.0 / 60.0).unwrap();
        assert!(w.events().is_empty());
    }
    let s = StepSettings { contact_events: true, ..*w.settings() };
    w.set_settings(s).unwrap();
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(w.events().contact_begin().len(), 1);
    w.step(1.0 / 60.0).unwrap();
    assert!(w.events().is_empty());
    // Turning them off ends what was begun, once.
    let s = StepSettings { contact_events: false, ..*w.settings() };
    w.set_settings(s).unwrap();
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(w.events().contact_end().len(), 1);
    assert!(w.events().contact_begin().is_empty());
    w.step(1.0 / 60.0).unwrap();
    assert!(w.events().is_empty());
}

/// Drops a ball from 1.8 m beside another one on the ground (both hit at 6 m/s) and returns
/// the hits of 180 steps, with the world's threshold and the first ball's own.
fn two_balls_hits(
    world: Option<f64>,
    own: Option<f64>,
) -> (Vec<(BodyHandle, BodyHandle)>, [BodyHandle; 3]) {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    w.set_settings(StepSettings { hit_event_threshold: world, ..*w.settings() }).unwrap();
    let ground = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
    let g = w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
    let ball = Ball::new(0.2).unwrap();
    let a = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(-2.0, 2.0))).unwrap();
    let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(2.0, 2.0))).unwrap();
    w.set_hit_event_threshold(a, own).unwrap();
    assert_eq!(w.body(a).unwrap().hit_event_threshold(), own);
    assert_eq!(w.body(b).unwrap().hit_event_threshold(), None);
    let mut hits = Vec::new();
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
        hits.extend(w.events().hits().iter().map(|h| (h.a, h.b)));
    }
    (hits, [g, a, b])
}

/// A body's own hit threshold: the pair reports above the lower of its bodies' thresholds, a
/// body without one taking the world's; bad thresholds are refused and change nothing.
#[test]
fn a_body_hit_threshold_overrides_the_world_default() {
    // The world reports nothing; the first ball asks for its hits.
    let (hits, [g, a, _]) = two_balls_hits(None, Some(1.0));
    assert_eq!(hits, vec![(g, a)]);
    // The world's threshold is above the impact speed; the first ball's is below.
    let (hits, [g, a, _]) = two_balls_hits(Some(7.0), Some(1.0));
    assert_eq!(hits, vec![(g, a)]);
    // Both balls take the world's threshold, below the impact speed.
    let (hits, [g, a, b]) = two_balls_hits(Some(1.0), None);
    assert_eq!(hits, vec![(g, a), (g, b)]);
    // Only a ball's own threshold, above the speed: nothing.
    let (hits, _) = two_balls_hits(None, Some(7.0));
    assert!(hits.is_empty(), "{hits:?}");
    // Refused thresholds leave the body as it was.
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    let h = w.add(BodyDesc::dynamic(Ball::new(0.2).unwrap())).unwrap();
    w.set_hit_event_threshold(h, Some(2.0)).unwrap();
    for bad in [-1.0, f64::NAN, f64::INFINITY, 1e9] {
        assert!(w.set_hit_event_threshold(h, Some(bad)).is_err(), "{bad}");
        assert_eq!(w.body(h).unwrap().hit_event_threshold(), Some(2.0));
    }
    // Other setters keep it.
    w.set_friction(h, 0.3).unwrap();
    w.set_density(h, 2.0).unwrap();
    assert_eq!(w.body(h).unwrap().hit_event_threshold(), Some(2.0));
    let removed = w.remove(h).unwrap();
    assert_eq!(removed.hit_event_threshold(), Some(2.0));
    assert_eq!(
        w.set_hit_event_threshold(h, Some(1.0)),
        Err(kollide_solver::WorldError::StaleHandle)
    );
}

/// The events of one step, as lists of pairs.
#[derive(Debug, Default, PartialEq)]
struct StepEvents {
    contact_begin: Vec<ContactEvent>,
    contact_end: Vec<ContactEvent>,
    sensor_begin: Vec<SensorEvent>,
    sensor_end: Vec<SensorEvent>,
}

fn step_events(w: &mut World2<f64>) -> StepEvents {
    w.step(1.0 / 60.0).unwrap();
    let e = w.events();
    StepEvents {
        contact_begin: e.contact_begin().to_vec(),
        contact_end: e.contact_end().to_vec(),
        sensor_begin: e.sensor_begin().to_vec(),
        sensor_end: e.sensor_end().to_vec(),
    }
}

/// Toggling a body's sensor flag ends what it had in its old role and begins what it has in
/// the new one, in the next step's events.
#[test]
fn set_sensor_ends_the_old_role_and_begins_the_new() {
    let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
    w.set_settings(StepSettings { contact_events: true, ..*w.settings() }).unwrap();
    let slab = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
    let g = w.add(BodyDesc::fixed(slab).pose(Iso2::translation(0.0, -0.5))).unwrap();
    let b = w
        .add(BodyDesc::dynamic(Ball::new(0.25).unwrap()).pose(Iso2::translation(0.0, 0.25)))
        .unwrap();
    let contact = ContactEvent { a: g, b };
    let overlap = SensorEvent { sensor: g, visitor: b };
    assert_eq!(step_events(&mut w).contact_begin, vec![contact]);
    for _ in 0..10 {
        assert_eq!(step_events(&mut w), StepEvents::default());
    }
    // Solid to sensor: the contact ends, the overlap begins, and the ball sinks in.
    w.set_sensor(g, true).unwrap();
    assert!(w.body(g).unwrap().is_sensor());
    let e = step_events(&mut w);
    assert_eq!((e.contact_end, e.sensor_begin), (vec![contact], vec![overlap]));
    assert!(e.contact_begin.is_empty() && e.sensor_end.is_empty());
    for _ in 0..20 {
        assert_eq!(step_events(&mut w), StepEvents::default());
        assert!(w.contact_pairs().is_empty());
    }
    assert!(w.body(b).unwrap().pose().translation.y < 0.0, "the ball fell into the sensor");
    // Setting the flag it has changes nothing.
    w.set_sensor(g, true).unwrap();
    assert_eq!(step_events(&mut w), StepEvents::default());
    // Sensor to solid, the ball inside: the overlap ends and the contact begins.
    w.set_sensor(g, false).unwrap();
    let e = step_events(&mut w);
    assert_eq!((e.sensor_end, e.contact_begin), (vec![overlap], vec![contact]));
    assert!(e.contact_end.is_empty() && e.sensor_begin.is_empty());
    assert!(w.sensor_overlaps().is_empty());
    // A stale handle is refused.
    let gone = w.add(BodyDesc::fixed(slab).pose(Iso2::translation(20.0, 0.0))).unwrap();
    w.remove(gone).unwrap();
    assert_eq!(w.set_sensor(gone, true), Err(kollide_solver::WorldError::StaleHandle));
}

/// A sensor and its visitor swap roles: the overlap ends and begins again with the roles
/// swapped (a dynamic sensor sees the static body), and nothing touches.
#[test]
fn set_sensor_swapping_roles_ends_and_begins_the_overlap() {
    let mut w = World2::<f64>::new(Vec2::zeros()).unwrap();
    w.set_settings(StepSettings { contact_events: true, ..*w.settings() }).unwrap();
    let slab = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
    let g = w.add(BodyDesc::fixed(slab).sensor(true)).unwrap();
    let b = w.add(BodyDesc::dynamic(Ball::new(0.25).unwrap())).unwrap();
    let before = SensorEvent { sensor: g, visitor: b };
    assert_eq!(step_events(&mut w).sensor_begin, vec![before]);
    w.set_sensor(g, false).unwrap();
    w.set_sensor(b, true).unwrap();
    let e = step_events(&mut w);
    let after = SensorEvent { sensor: b, visitor: g };
    assert_eq!((e.sensor_end, e.sensor_begin), (vec![before], vec![after]));
    assert!(e.contact_begin.is_empty() && e.contact_end.is_empty());
    assert_eq!(w.sensor_overlaps(), &[after]);
    assert_eq!(step_events(&mut w), StepEvents::default());
    // The last sensor made solid: its overlap ends, and the two bodies now touch.
    w.set_sensor(b, false).unwrap();
    let e = step_events(&mut w);
    assert_eq!(e.sensor_end, vec![after]);
    assert_eq!(e.contact_begin, vec![ContactEvent { a: g, b }]);
}
