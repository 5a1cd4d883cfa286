//! World queries against brute force: every query, with random filters, gives exactly what the
//! same narrowphase query run on every body gives, on seeded scenes of mixed shapes (2D and 3D,
//! f32 and f64) stepped between queries so that bodies leave their fat boxes and the tree
//! re-inserts them. Also: collision groups switch contacts off, and bad input is refused.

use kollide_math::{Iso2, Iso3, Point, Point2, Pose, Scalar, Vec2, Vec3, Vector};
use kollide_narrowphase::{
    QuerySettings, Ray, closest_points, intersection_test, ray_cast, shape_cast,
};
use kollide_shapes::{
    Aabb, Ball, BoundingVolume, Capsule, Cone, Cuboid, Cylinder, Shape2, Shape3, SupportMap,
    Triangle,
};
use kollide_solver::{
    Body, BodyDesc, BodyHandle, BodyKind, CollisionGroups, Dim, QueryError, QueryFilter, SolverDim,
    World, World2,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type Shape<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Convex;

/// The convex shape of a body of these scenes (they hold no other kind).
fn convex<N: Scalar, const D: usize>(b: &Body<N, D>) -> &Shape<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    Dim::<D>::as_convex(b.shape()).expect("a convex body")
}
type PoseOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Pose;

fn lit<N: Scalar>(x: f64) -> N {
    N::lit(x)
}

/// Every group half the time; else a few of groups 0 to 3, and now and then group 30 or 31
/// (which the tree's pruning keeps as one).
fn groups(rng: &mut ChaCha8Rng) -> CollisionGroups {
    let bits = |rng: &mut ChaCha8Rng| {
        let high = [0, 0, 1 << 30, 1 << 31][rng.random_range(0..4)];
        rng.random::<u32>() & 0b1111 | high
    };
    if rng.random::<f64>() < 0.5 {
        CollisionGroups::ALL
    } else {
        CollisionGroups::new(bits(rng), bits(rng))
    }
}

fn shape2<N: Scalar>(rng: &mut ChaCha8Rng) -> Shape2<N> {
    let s = |rng: &mut ChaCha8Rng| lit::<N>(0.2 + rng.random::<f64>() * 1.5);
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

fn shape3<N: Scalar>(rng: &mut ChaCha8Rng) -> Shape3<N> {
    let s = |rng: &mut ChaCha8Rng| lit::<N>(0.2 + rng.random::<f64>() * 1.5);
    match rng.random_range(0..5) {
        0 => Ball::new(s(rng)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(s(rng), s(rng), s(rng))).unwrap().into(),
        2 => Capsule::new_axis(s(rng), s(rng)).unwrap().into(),
        3 => Cylinder::new(s(rng), s(rng)).unwrap().into(),
        _ => Cone::new(s(rng), s(rng)).unwrap().into(),
    }
}

/// A random pose within `span` of `offset` on every axis.
fn pose2<N: Scalar>(rng: &mut ChaCha8Rng, offset: f64, span: f64) -> Iso2<N> {
    let mut c = || lit::<N>(offset + (rng.random::<f64>() - 0.5) * span);
    Iso2::new(Vec2::new(c(), c()), c())
}

fn pose3<N: Scalar>(rng: &mut ChaCha8Rng, offset: f64, span: f64) -> Iso3<N> {
    let mut c = || lit::<N>(offset + (rng.random::<f64>() - 0.5) * span);
    Iso3::new(Vec3::new(c(), c(), c()), Vec3::new(c(), c(), c()) * lit::<N>(0.01))
}

fn velocity<N: Scalar, const D: usize>(rng: &mut ChaCha8Rng, speed: f64) -> Vector<N, D> {
    Vector::from_fn(|_, _| lit::<N>((rng.random::<f64>() - 0.5) * speed))
}

/// Bodies of every kind with random groups, in a box of side `span` around `offset`.
fn populate<N: Scalar, const D: usize>(
    world: &mut World<N, D>,
    rng: &mut ChaCha8Rng,
    n: usize,
    shape: impl Fn(&mut ChaCha8Rng) -> Shape<N, D>,
    pose: impl Fn(&mut ChaCha8Rng) -> PoseOf<N, D>,
) where
    Dim<D>: SolverDim<N, D>,
{
    for _ in 0..n {
        let s = shape(rng);
        let p = pose(rng);
        let desc = match rng.random_range(0..4) {
            0 => BodyDesc::fixed(s.into()),
            1 => BodyDesc::kinematic(s.into()).linear_velocity(velocity(rng, 4.0)),
            _ => BodyDesc::dynamic(s.into()).linear_velocity(velocity(rng, 6.0)),
        };
        world.add(desc.pose(p).collision_groups(groups(rng))).unwrap();
    }
}

/// A random filter: groups, maybe an excluded body, maybe a predicate.
fn filter<'a, N: Scalar, const D: usize>(
    world: &World<N, D>,
    rng: &mut ChaCha8Rng,
    predicate: &'a dyn Fn(BodyHandle, &Body<N, D>) -> bool,
) -> QueryFilter<'a, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let mut f = QueryFilter::new().groups(groups(rng));
    if rng.random::<f64>() < 0.3 {
        let handles: Vec<BodyHandle> = world.bodies().map(|(h, _)| h).collect();
        f = f.exclude(handles[rng.random_range(0..handles.len())]);
    }
    if rng.random::<f64>() < 0.3 {
        f = f.predicate(predicate);
    }
    f
}

/// The bodies a filter sees, by brute force.
fn seen<'w, N: Scalar, const D: usize>(
    world: &'w World<N, D>,
    f: &QueryFilter<'_, N, D>,
) -> Vec<(BodyHandle, &'w Body<N, D>)>
where
    Dim<D>: SolverDim<N, D>,
{
    world.bodies().filter(|(h, b)| f.accepts(*h, b)).collect()
}

/// The point itself, as a shape (as the world's point projection uses it).
struct PointShape;

impl<N: Scalar, const D: usize> SupportMap<N, D> for PointShape {
    fn local_core_support(&self, _dir: &Vector<N, D>) -> Point<N, D> {
        Point::origin()
    }
    fn core_is_point(&self) -> bool {
        true
    }
}

/// Counts of the non-trivial answers, so the test can assert it tested something.
#[derive(Default, Debug)]
struct Tally {
    ray_hits: usize,
    all_hits: usize,
    overlaps: usize,
    shape_overlaps: usize,
    cast_hits: usize,
    inside: usize,
    outside: usize,
}

/// Every query, `queries` times, against brute force.
fn check_queries<N: Scalar, const D: usize>(
    world: &World<N, D>,
    rng: &mut ChaCha8Rng,
    queries: usize,
    offset: f64,
    span: f64,
    tally: &mut Tally,
) where
    Dim<D>: SolverDim<N, D>,
{
    let settings = QuerySettings::default();
    // The tree holds every body, and each body's AABB inside its leaf.
    let tree = world.query_tree();
    tree.check_invariants().unwrap();
    assert_eq!(tree.len(), world.len());
    for (h, b) in world.bodies() {
        let aabb = convex(b).aabb(b.pose());
        let mut found = false;
        tree.query_aabb(&aabb, |slot| {
            found |= slot == h.index();
            !found
        });
        assert!(found, "body {h:?} is not in the tree");
    }
    let handles: Vec<(BodyHandle, Shape<N, D>, PoseOf<N, D>)> =
        world.bodies().map(|(h, b)| (h, convex(b).clone(), *b.pose())).collect();
    let predicate = |h: BodyHandle, _: &Body<N, D>| h.index() % 3 != 1;
    let point = |rng: &mut ChaCha8Rng| {
        Point::<N, D>::from(Vector::from_fn(|_, _| {
            lit::<N>(offset + (rng.random::<f64>() - 0.5) * span)
        }))
    };
    for _ in 0..queries {
        let f = filter(world, rng, &predicate);
        let visible = seen(world, &f);
        // Rays: from a random point or from inside a body, random or axis-parallel.
        let origin = if rng.random::<f64>() < 0.3 {
            Point::from(handles[rng.random_range(0..handles.len())].2.translation())
        } else {
            point(rng)
        };
        let mut dir = velocity::<N, D>(rng, 2.0);
        if rng.random::<f64>() < 0.3 {
            let k = rng.random_range(0..D);
            dir = Vector::zeros();
            dir[k] = lit(if rng.random::<bool>() { 1.0 } else { -1.0 });
        }
        if dir.iter().all(|x| *x == N::zero()) {
            dir[0] = N::one();
        }
        let ray = Ray { origin, dir };
        let max_t = if rng.random::<f64>() < 0.2 { lit(1e30) } else { lit(span * 0.5) };
        let mut brute: Vec<(BodyHandle, N)> = visible
            .iter()
            .filter_map(|(h, b)| {
                ray_cast(b.pose(), convex(b), &ray, max_t, &settings).map(|c| (*h, c.t))
            })
            .collect();
        let closest = world.cast_ray(&ray, max_t, &f).unwrap();
        let expected = brute.iter().copied().reduce(|a, b| {
            if b.1 < a.1 || (b.1 == a.1 && b.0.index() < a.0.index()) { b } else { a }
        });
        assert_eq!(closest.map(|h| (h.body, h.t)), expected, "cast_ray");
        tally.ray_hits += usize::from(closest.is_some());
        let mut all = Vec::new();
        world
            .cast_ray_all(&ray, max_t, &f, |h| {
                all.push((h.body, h.t));
                true
            })
            .unwrap();
        all.sort_by_key(|(h, _)| *h);
        brute.sort_by_key(|(h, _)| *h);
        assert_eq!(all, brute, "cast_ray_all");
        tally.all_hits += all.len();
        let any = world.cast_ray_any(&ray, max_t, &f).unwrap();
        assert_eq!(any.is_some(), !brute.is_empty(), "cast_ray_any");
        if let Some(a) = any {
            assert!(brute.contains(&(a.body, a.t)));
        }
        // Boxes.
        let c = point(rng);
        let half = Vector::<N, D>::from_fn(|_, _| lit::<N>(rng.random::<f64>() * span * 0.1));
        let aabb = Aabb::new(c - half, c + half);
        let mut got = Vec::new();
        world
            .intersect_aabb(&aabb, &f, |h| {
                got.push(h);
                true
            })
            .unwrap();
        got.sort();
        let want: Vec<BodyHandle> = visible
            .iter()
            .filter(|(_, b)| convex(b).aabb(b.pose()).intersects(&aabb))
            .map(|(h, _)| *h)
            .collect();
        assert_eq!(got, want, "intersect_aabb");
        tally.overlaps += got.len();
        // Shapes: a body's shape at another pose.
        let (_, shape, body_pose) = &handles[rng.random_range(0..handles.len())];
        let pose = body_pose.translated(&velocity::<N, D>(rng, 3.0));
        let mut got = Vec::new();
        world
            .intersect_shape(shape, &pose, &f, |h| {
                got.push(h);
                true
            })
            .unwrap();
        got.sort();
        let want: Vec<BodyHandle> = visible
            .iter()
            .filter(|(_, b)| {
                intersection_test(b.pose(), convex(b), &pose, shape, None, &settings).intersecting
            })
            .map(|(h, _)| *h)
            .collect();
        assert_eq!(got, want, "intersect_shape");
        tally.shape_overlaps += got.len();
        // Shape casts.
        let vel = velocity::<N, D>(rng, 10.0);
        let t_max = lit::<N>(rng.random::<f64>() * 2.0);
        let hit = world.cast_shape(shape, &pose, &vel, t_max, &f).unwrap();
        let zero = Vector::<N, D>::zeros();
        let want = visible
            .iter()
            .filter_map(|(h, b)| {
                shape_cast(b.pose(), &zero, convex(b), &pose, &vel, shape, t_max, &settings)
                    .map(|c| (*h, c))
            })
            .reduce(|a, b| {
                if b.1.t < a.1.t || (b.1.t == a.1.t && b.0.index() < a.0.index()) { b } else { a }
            });
        assert_eq!(hit.map(|h| (h.body, h.hit)), want, "cast_shape");
        tally.cast_hits += usize::from(hit.is_some());
        // Point projection, from inside a body or anywhere, with a bound or without.
        let p = if rng.random::<f64>() < 0.3 { origin } else { point(rng) };
        let max_dist =
            if rng.random::<f64>() < 0.5 { N::MAX } else { lit(rng.random::<f64>() * 3.0) };
        let got = world.project_point(&p, max_dist, &f).unwrap();
        let at = PoseOf::<N, D>::from_translation(p.coords);
        let want = visible
            .iter()
            .map(|(h, b)| (*h, closest_points(b.pose(), convex(b), &at, &PointShape, &settings)))
            .filter(|(_, c)| c.separation <= max_dist)
            .reduce(|a, b| {
                let (sa, sb) = (a.1.separation, b.1.separation);
                if sb < sa || (sb == sa && b.0.index() < a.0.index()) { b } else { a }
            });
        assert_eq!(
            got.map(|g| (g.body, g.distance, g.point)),
            want.map(|(h, c)| (h, c.separation, c.point_a)),
            "project_point"
        );
        match got {
            Some(g) if g.inside => tally.inside += 1,
            Some(_) => tally.outside += 1,
            None => {}
        }
    }
}

impl core::ops::AddAssign for Tally {
    fn add_assign(&mut self, t: Self) {
        self.ray_hits += t.ray_hits;
        self.all_hits += t.all_hits;
        self.overlaps += t.overlaps;
        self.shape_overlaps += t.shape_overlaps;
        self.cast_hits += t.cast_hits;
        self.inside += t.inside;
        self.outside += t.outside;
    }
}

fn run<N: Scalar, const D: usize>(
    seed: u64,
    offset: f64,
    shape: impl Fn(&mut ChaCha8Rng) -> Shape<N, D> + Copy,
    pose: impl Fn(&mut ChaCha8Rng, f64, f64) -> PoseOf<N, D> + Copy,
) -> Tally
where
    Dim<D>: SolverDim<N, D>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let span = if D == 2 { 40.0 } else { 20.0 };
    let mut world = World::<N, D>::new(Vector::zeros()).unwrap();
    populate(&mut world, &mut rng, 60, shape, |r| pose(r, offset, span));
    let mut tally = Tally::default();
    for round in 0..4 {
        check_queries(&world, &mut rng, 25, offset, span, &mut tally);
        for _ in 0..5 {
            world.step(lit(1.0 / 30.0)).unwrap();
        }
        // Bodies come and go between steps.
        let handles: Vec<BodyHandle> = world.bodies().map(|(h, _)| h).collect();
        world.remove(handles[(round * 7) % handles.len()]).unwrap();
        populate(&mut world, &mut rng, 2, shape, |r| pose(r, offset, span));
    }
    check_queries(&world, &mut rng, 25, offset, span, &mut tally);
    tally
}

fn assert_tested(t: &Tally, what: &str) {
    assert!(
        t.ray_hits > 50 && t.all_hits > 50 && t.overlaps > 50 && t.shape_overlaps > 50,
        "{what}: too few hits to test anything: {t:?}"
    );
    assert!(t.cast_hits > 20 && t.inside > 5 && t.outside > 50, "{what}: {t:?}");
}

#[test]
fn queries_match_brute_force_2d() {
    let (mut f64s, mut f32s) = (Tally::default(), Tally::default());
    for seed in 0..12 {
        f64s += run::<f64, 2>(seed, 0.0, shape2, pose2);
        f32s += run::<f32, 2>(seed, if seed % 3 == 0 { 1e4 } else { 0.0 }, shape2, pose2);
    }
    assert_tested(&f64s, "2D f64");
    assert_tested(&f32s, "2D f32");
}

#[test]
fn queries_match_brute_force_3d() {
    let (mut f64s, mut f32s) = (Tally::default(), Tally::default());
    for seed in 0..12 {
        let offset = [0.0, 1e5, -1e5][seed as usize % 3];
        f64s += run::<f64, 3>(seed, offset, shape3, pose3);
        f32s += run::<f32, 3>(seed, offset / 10.0, shape3, pose3);
    }
    assert_tested(&f64s, "3D f64");
    assert_tested(&f32s, "3D f32");
}

#[test]
fn the_tree_prunes_on_large_scenes() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut world = World2::<f32>::new(Vec2::zeros()).unwrap();
    populate(&mut world, &mut rng, 3000, shape2, |r| pose2(r, 0.0, 400.0));
    world.step(1.0 / 60.0).unwrap();
    let tree = world.query_tree();
    assert_eq!(tree.len(), 3000);
    let mut hits = 0;
    let visited = tree.cast_ray(&Point2::new(-300.0, 0.5), &Vec2::new(1.0, 0.0), 1e3, |_, t| {
        hits += 1;
        Some(t)
    });
    assert!(hits > 0 && visited < 3000 / 4, "a ray across visits {visited} nodes");
    let ray = Ray { origin: Point2::new(-300.0, 0.5), dir: Vec2::new(1.0, 0.0) };
    assert!(world.cast_ray(&ray, 1e3, &QueryFilter::new()).unwrap().is_some());
}

#[test]
fn bad_input_is_refused() {
    let mut world = World2::<f64>::new(Vec2::zeros()).unwrap();
    let ball = Ball::new(1.0).unwrap();
    let h = world.add(BodyDesc::fixed(ball)).unwrap();
    let f = QueryFilter::new();
    let nan = f64::NAN;
    let ray = |o: Point2<f64>, d: Vec2<f64>| Ray { origin: o, dir: d };
    let o = Point2::new(-5.0, 0.0);
    let x = Vec2::new(1.0, 0.0);
    assert!(world.cast_ray(&ray(o, x), 10.0, &f).unwrap().is_some());
    assert!(world.cast_ray(&ray(o, x), f64::INFINITY, &f).unwrap().is_some());
    assert_eq!(
        world.cast_ray(&ray(Point2::new(nan, 0.0), x), 10.0, &f),
        Err(QueryError::NonFinite("ray origin"))
    );
    assert_eq!(
        world.cast_ray(&ray(o, Vec2::new(nan, 0.0)), 10.0, &f),
        Err(QueryError::NonFinite("ray direction"))
    );
    assert_eq!(world.cast_ray(&ray(o, Vec2::zeros()), 10.0, &f), Err(QueryError::ZeroDirection));
    assert!(matches!(world.cast_ray(&ray(o, x), -1.0, &f), Err(QueryError::BadMaxT(_))));
    assert!(matches!(world.cast_ray_any(&ray(o, x), nan, &f), Err(QueryError::BadMaxT(_))));
    let other = world.add(BodyDesc::fixed(ball).pose(Iso2::translation(5.0, 0.0))).unwrap();
    world.remove(other).unwrap();
    let stale = QueryFilter::new().exclude(other);
    assert_eq!(world.cast_ray(&ray(o, x), 10.0, &stale), Err(QueryError::StaleHandle));
    assert_eq!(world.project_point(&o, 1.0, &stale), Err(QueryError::StaleHandle));
    // Excluding the one body there is: nothing to hit.
    let excl = QueryFilter::new().exclude(h);
    assert_eq!(world.cast_ray(&ray(o, x), 10.0, &excl), Ok(None));
    let bad_box = Aabb::new(Point2::new(1.0, 0.0), Point2::new(0.0, 1.0));
    assert_eq!(world.intersect_aabb(&bad_box, &f, |_| true), Err(QueryError::InvertedAabb));
    let nan_box = Aabb::new(Point2::new(nan, 0.0), Point2::new(0.0, 1.0));
    assert!(world.intersect_aabb(&nan_box, &f, |_| true).is_err());
    let nan_pose = Iso2::translation(nan, 0.0);
    assert!(world.intersect_shape(&ball, &nan_pose, &f, |_| true).is_err());
    let id = Iso2::identity();
    assert!(world.cast_shape(&ball, &nan_pose, &x, 1.0, &f).is_err());
    assert!(world.cast_shape(&ball, &id, &Vec2::new(nan, 0.0), 1.0, &f).is_err());
    assert!(world.cast_shape(&ball, &id, &x, f64::INFINITY, &f).is_err());
    assert!(world.project_point(&Point2::new(nan, 0.0), 1.0, &f).is_err());
    assert!(world.project_point(&o, -1.0, &f).is_err());
    // The point projection's answers: outside, inside, and beyond the bound.
    let p = world.project_point(&o, f64::INFINITY, &f).unwrap().unwrap();
    assert!((p.distance - 4.0).abs() < 1e-9 && !p.inside && (p.point.x + 1.0).abs() < 1e-9);
    let p = world.project_point(&Point2::new(0.5, 0.0), 10.0, &f).unwrap().unwrap();
    assert!(p.inside && (p.distance + 0.5).abs() < 1e-9);
    assert_eq!(world.project_point(&o, 3.0, &f), Ok(None));
}

#[test]
fn groups_that_do_not_interact_have_no_contacts() {
    for interact in [true, false] {
        let mut world = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
        let ground = CollisionGroups::new(0b01, 0b01);
        let falling = if interact {
            CollisionGroups::new(0b01, 0b01)
        } else {
            CollisionGroups::new(0b10, 0b10)
        };
        let g = Cuboid::new(Vec2::new(10.0, 0.5)).unwrap();
        world
            .add(BodyDesc::fixed(g).pose(Iso2::translation(0.0, -0.5)).collision_groups(ground))
            .unwrap();
        let b = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
        let h = world
            .add(BodyDesc::dynamic(b).pose(Iso2::translation(0.0, 1.0)).collision_groups(falling))
            .unwrap();
        for _ in 0..60 {
            world.step(1.0 / 60.0).unwrap();
        }
        let y = world.body(h).unwrap().pose().translation.vector.y;
        assert_eq!(y > 0.4, interact, "y = {y}");
        assert_eq!(world.body(h).unwrap().kind(), BodyKind::Dynamic);
    }
}
