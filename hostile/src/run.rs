//! Running a case: round its description to the scalar under test, build the shapes with their
//! public constructors, call every query (each under `catch_unwind`, timed), and hand the answers
//! back in `f64` for the checks.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use kollide::math::nalgebra as na;
use kollide::math::{Iso2, Iso3, Point, Pose, Scalar, Vector};
use kollide::narrowphase::{
    QuerySettings, Ray, closest_points, contact, directional_penetration, distance,
    intersection_test, manifold2, manifold3, ray_cast, shape_cast,
};
use kollide::shapes::{
    Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder, Rounded, Segment,
    Shape2, Shape3, ShapeError, SupportMap, Triangle,
};

use crate::cases::{Case, Desc, PoseDesc};
use crate::geom::V;

/// The queries of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Query {
    /// `intersection_test`.
    Intersection,
    /// `contact` (margin 0), both orders.
    Contact,
    /// `closest_points`.
    ClosestPoints,
    /// `distance`.
    Distance,
    /// `manifold2` / `manifold3` (margin 0).
    Manifold,
    /// `directional_penetration`.
    Directional,
    /// `shape_cast`.
    ShapeCast,
    /// `ray_cast` (against A).
    RayCast,
}

impl Query {
    /// Every query.
    pub const ALL: [Query; 8] = [
        Query::Intersection,
        Query::Contact,
        Query::ClosestPoints,
        Query::Distance,
        Query::Manifold,
        Query::Directional,
        Query::ShapeCast,
        Query::RayCast,
    ];

    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Query::Intersection => "intersection_test",
            Query::Contact => "contact",
            Query::ClosestPoints => "closest_points",
            Query::Distance => "distance",
            Query::Manifold => "manifold",
            Query::Directional => "directional_penetration",
            Query::ShapeCast => "shape_cast",
            Query::RayCast => "ray_cast",
        }
    }
}

/// A query's answer, or the panic message.
pub type Answer<T> = Result<T, String>;

/// A contact in `f64`.
#[derive(Clone, Copy, Debug)]
pub struct ContactOut<const D: usize> {
    /// Point on A.
    pub pa: V<D>,
    /// Point on B.
    pub pb: V<D>,
    /// Normal from A to B.
    pub n: V<D>,
    /// Separation.
    pub sep: f64,
}

/// A cast hit in `f64`.
#[derive(Clone, Copy, Debug)]
pub struct CastOut<const D: usize> {
    /// Time of impact / ray parameter / push length.
    pub t: f64,
    /// Normal.
    pub n: V<D>,
    /// Point on A (hit point for rays).
    pub pa: V<D>,
    /// Point on B.
    pub pb: V<D>,
}

/// A manifold in `f64`: its normal and `(point_a, point_b, separation)` per contact.
#[derive(Clone, Debug)]
pub struct ManifoldOut<const D: usize> {
    /// Normal from A to B.
    pub n: V<D>,
    /// The contacts.
    pub contacts: Vec<(V<D>, V<D>, f64)>,
}

/// Every answer of one case, with the time each query took (seconds).
#[derive(Clone, Debug)]
pub struct Outputs<const D: usize> {
    /// `intersection_test(A, B)`.
    pub intersect: Answer<bool>,
    /// `contact(A, B, 0)`.
    pub contact: Answer<Option<ContactOut<D>>>,
    /// `contact(B, A, 0)`.
    pub contact_flip: Answer<Option<ContactOut<D>>>,
    /// `closest_points(A, B)`.
    pub closest: Answer<ContactOut<D>>,
    /// `distance(A, B)`.
    pub distance: Answer<f64>,
    /// The manifold (`None` when the pair has no manifold routine: 3D rounded shapes).
    pub manifold: Option<Answer<ManifoldOut<D>>>,
    /// `directional_penetration(A, B, dir)`.
    pub directional: Answer<Option<CastOut<D>>>,
    /// `shape_cast(A, vel_a, B, vel_b, max_toi = 1)`.
    pub cast: Answer<Option<CastOut<D>>>,
    /// `ray_cast(A, ray, max_t = 10)`.
    pub ray: Answer<Option<CastOut<D>>>,
    /// Seconds per query, indexed like [`Query::ALL`].
    pub times: [f64; 8],
}

/// The maximum `t` of ray casts.
pub const RAY_MAX_T: f64 = 10.0;

fn vf<N: Scalar, const D: usize>(v: &Vector<N, D>) -> V<D> {
    V::<D>::from_fn(|i, _| v[i].to_f64())
}

fn pf<N: Scalar, const D: usize>(p: &Point<N, D>) -> V<D> {
    vf(&p.coords)
}

fn vn<N: Scalar, const D: usize>(v: &V<D>) -> Vector<N, D> {
    Vector::<N, D>::from_fn(|i, _| N::lit(v[i]))
}

fn pn<N: Scalar, const D: usize>(v: &V<D>) -> Point<N, D> {
    Point::from(vn::<N, D>(v))
}

/// Rounds to the scalar `N`.
pub fn round<N: Scalar>(x: f64) -> f64 {
    N::lit(x).to_f64()
}

/// A pose for the scalar `N`: the translation rounded, the rotation normalised in `N`, then its
/// components scaled by `1 + ulp_k·ε`; also returned as the `f64` description the oracle uses.
pub trait MakePose<N: Scalar, const D: usize>: Pose<N, D> {
    /// Builds the pose.
    fn make(p: &PoseDesc<D>) -> (Self, PoseDesc<D>);
}

fn ulp<N: Scalar>(k: i32) -> N {
    N::one() + N::lit(k as f64) * N::EPSILON
}

impl<N: Scalar> MakePose<N, 2> for Iso2<N> {
    fn make(p: &PoseDesc<2>) -> (Self, PoseDesc<2>) {
        let r =
            na::UnitComplex::new_normalize(na::Complex::new(N::lit(p.rot[0]), N::lit(p.rot[1])));
        let k = ulp::<N>(p.ulp_k);
        let c = na::Complex::new(r.re * k, r.im * k);
        let iso = Iso2::from_parts(
            na::Translation2::new(N::lit(p.t[0]), N::lit(p.t[1])),
            na::UnitComplex::new_unchecked(c),
        );
        let t = vf(&iso.translation.vector);
        (iso, PoseDesc { t, rot: [c.re.to_f64(), c.im.to_f64(), 0.0, 0.0], ulp_k: p.ulp_k })
    }
}

impl<N: Scalar> MakePose<N, 3> for Iso3<N> {
    fn make(p: &PoseDesc<3>) -> (Self, PoseDesc<3>) {
        let [w, i, j, l] = p.rot.map(N::lit);
        let q = na::UnitQuaternion::new_normalize(na::Quaternion::new(w, i, j, l));
        let k = ulp::<N>(p.ulp_k);
        let c = q.quaternion() * k;
        let iso = Iso3::from_parts(
            na::Translation3::new(N::lit(p.t[0]), N::lit(p.t[1]), N::lit(p.t[2])),
            na::UnitQuaternion::new_unchecked(c),
        );
        let t = vf(&iso.translation.vector);
        let rot = [c.w.to_f64(), c.i.to_f64(), c.j.to_f64(), c.k.to_f64()];
        (iso, PoseDesc { t, rot, ulp_k: p.ulp_k })
    }
}

/// A built 3D shape: one of [`Shape3`], or a rounded box (which `Shape3` has no variant for).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant, reason = "one value per case, as Shape3 itself is stored")]
pub enum Built3<N: Scalar> {
    /// A `Shape3`.
    S(Shape3<N>),
    /// A rounded box.
    R(Rounded<Cuboid<N, 3>, N>),
}

/// Builds a 2D shape from its (rounded) description with the public constructors.
pub fn build2<N: Scalar>(d: &Desc<2>) -> Result<Shape2<N>, ShapeError> {
    let p = |v: &V<2>| pn::<N, 2>(v);
    Ok(match d {
        Desc::Ball { r } => Shape2::Circle(Ball::new(N::lit(*r))?),
        Desc::Segment { a, b } => Shape2::Segment(Segment::new(p(a), p(b))?),
        Desc::Capsule { a, b, r } => Shape2::Capsule(Capsule::new(p(a), p(b), N::lit(*r))?),
        Desc::Cuboid { h } => Shape2::Cuboid(Cuboid::new(vn(h))?),
        Desc::Triangle { a, b, c } => Shape2::Triangle(Triangle::new(p(a), p(b), p(c))?),
        Desc::Hull { pts, .. } => {
            Shape2::Polygon(ConvexPolygon::from_hull(&pts.iter().map(p).collect::<Vec<_>>())?)
        }
        Desc::Rounded { h, r } => {
            Shape2::RoundedCuboid(Rounded::new(Cuboid::new(vn(h))?, N::lit(*r))?)
        }
        Desc::Cylinder { .. } | Desc::Cone { .. } => return Err(ShapeError::Degenerate("3D only")),
    })
}

/// Builds a 3D shape from its (rounded) description with the public constructors.
pub fn build3<N: Scalar>(d: &Desc<3>) -> Result<Built3<N>, ShapeError> {
    let p = |v: &V<3>| pn::<N, 3>(v);
    Ok(Built3::S(match d {
        Desc::Ball { r } => Shape3::Ball(Ball::new(N::lit(*r))?),
        Desc::Segment { a, b } => Shape3::Segment(Segment::new(p(a), p(b))?),
        Desc::Capsule { a, b, r } => Shape3::Capsule(Capsule::new(p(a), p(b), N::lit(*r))?),
        Desc::Cuboid { h } => Shape3::Cuboid(Cuboid::new(vn(h))?),
        Desc::Triangle { a, b, c } => Shape3::Triangle(Triangle::new(p(a), p(b), p(c))?),
        Desc::Hull { pts, .. } => Shape3::Polyhedron(ConvexPolyhedron::from_points(
            &pts.iter().map(p).collect::<Vec<_>>(),
        )?),
        Desc::Cylinder { hh, r } => Shape3::Cylinder(Cylinder::new(N::lit(*hh), N::lit(*r))?),
        Desc::Cone { hh, r } => Shape3::Cone(Cone::new(N::lit(*hh), N::lit(*r))?),
        Desc::Rounded { h, r } => {
            return Ok(Built3::R(Rounded::new(Cuboid::new(vn(h))?, N::lit(*r))?));
        }
    }))
}

/// How many times each query is timed (the minimum is kept, which drops the preemptions of a
/// busy machine); the answer checked is the first call's. Set by the runner's `--time-repeats`.
pub static TIME_REPEATS: AtomicUsize = AtomicUsize::new(1);

fn guarded<T>(time: &mut f64, f: impl Fn() -> T) -> Answer<T> {
    let start = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(&f)).map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    });
    *time = start.elapsed().as_secs_f64();
    if r.is_ok() {
        for _ in 1..TIME_REPEATS.load(Ordering::Relaxed) {
            let start = Instant::now();
            let _ = std::hint::black_box(f());
            *time = time.min(start.elapsed().as_secs_f64());
        }
    }
    r
}

/// The case's motion and ray in the scalar under test (rounded from the case).
#[derive(Clone, Copy, Debug)]
pub struct Motion<const D: usize> {
    /// A's velocity.
    pub vel_a: V<D>,
    /// B's velocity.
    pub vel_b: V<D>,
    /// Direction of the directional penetration.
    pub dir: V<D>,
    /// Ray origin.
    pub ray_origin: V<D>,
    /// Ray direction.
    pub ray_dir: V<D>,
}

impl<const D: usize> Motion<D> {
    /// The case's vectors rounded to `N`.
    pub fn of<N: Scalar>(c: &Case<D>) -> Self {
        let r = |v: &V<D>| v.map(round::<N>);
        Motion {
            vel_a: r(&c.vel_a),
            vel_b: r(&c.vel_b),
            dir: r(&c.dir),
            ray_origin: r(&c.ray_origin),
            ray_dir: r(&c.ray_dir),
        }
    }
}

fn contact_out<N: Scalar, const D: usize>(
    c: &kollide::narrowphase::ShapeContact<N, D>,
) -> ContactOut<D> {
    ContactOut {
        pa: pf(&c.point_a),
        pb: pf(&c.point_b),
        n: vf(&c.normal),
        sep: c.separation.to_f64(),
    }
}

fn cast_out<N: Scalar, const D: usize>(h: &kollide::narrowphase::CastHit<N, D>) -> CastOut<D> {
    CastOut { t: h.t.to_f64(), n: vf(&h.normal), pa: pf(&h.point_a), pb: pf(&h.point_b) }
}

/// Runs every generic query on one pair (the manifold is left to the caller).
pub fn run_generic<N, const D: usize, P, A, B>(
    pa: &P,
    a: &A,
    pb: &P,
    b: &B,
    m: &Motion<D>,
) -> Outputs<D>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let s = QuerySettings::<N>::default();
    let mut t = [0.0; 8];
    let intersect = guarded(&mut t[0], || intersection_test(pa, a, pb, b, None, &s).intersecting);
    let contact_ab =
        guarded(&mut t[1], || contact(pa, a, pb, b, N::zero(), &s).map(|c| contact_out(&c)));
    let mut unused = 0.0;
    let contact_flip =
        guarded(&mut unused, || contact(pb, b, pa, a, N::zero(), &s).map(|c| contact_out(&c)));
    let closest = guarded(&mut t[2], || contact_out(&closest_points(pa, a, pb, b, &s)));
    let distance = guarded(&mut t[3], || distance(pa, a, pb, b, &s).0.to_f64());
    let dir = vn::<N, D>(&m.dir);
    let directional = guarded(&mut t[5], || {
        directional_penetration(pa, a, pb, b, &dir, &s).map(|h| cast_out(&h))
    });
    let (va, vb) = (vn::<N, D>(&m.vel_a), vn::<N, D>(&m.vel_b));
    let cast = guarded(&mut t[6], || {
        shape_cast(pa, &va, a, pb, &vb, b, N::one(), &s).map(|h| cast_out(&h))
    });
    let ray = Ray { origin: pn::<N, D>(&m.ray_origin), dir: vn::<N, D>(&m.ray_dir) };
    let ray =
        guarded(&mut t[7], || ray_cast(pa, a, &ray, N::lit(RAY_MAX_T), &s).map(|h| cast_out(&h)));
    Outputs {
        intersect,
        contact: contact_ab,
        contact_flip,
        closest,
        distance,
        manifold: None,
        directional,
        cast,
        ray,
        times: t,
    }
}

fn manifold_out<N: Scalar, const D: usize>(
    m: &kollide::manifold::Manifold<N, D>,
) -> ManifoldOut<D> {
    ManifoldOut {
        n: vf(&m.normal),
        contacts: m
            .contacts()
            .iter()
            .map(|c| (pf(&c.point_a), pf(&c.point_b), c.separation.to_f64()))
            .collect(),
    }
}

/// Runs the 2D queries on built shapes.
pub fn run2<N: Scalar>(
    pa: &Iso2<N>,
    a: &Shape2<N>,
    pb: &Iso2<N>,
    b: &Shape2<N>,
    m: &Motion<2>,
) -> Outputs<2> {
    let mut o = run_generic(pa, a, pb, b, m);
    o.manifold = Some(guarded(&mut o.times[4], || {
        manifold_out(&manifold2::<N, ()>(pa, a, pb, b, N::zero()))
    }));
    o
}

/// Runs the 3D queries on built shapes (the manifold only between two `Shape3`s).
pub fn run3<N: Scalar>(
    pa: &Iso3<N>,
    a: &Built3<N>,
    pb: &Iso3<N>,
    b: &Built3<N>,
    m: &Motion<3>,
) -> Outputs<3> {
    use Built3::{R, S};
    match (a, b) {
        (S(x), S(y)) => {
            let mut o = run_generic(pa, x, pb, y, m);
            o.manifold = Some(guarded(&mut o.times[4], || {
                manifold_out(&manifold3::<N, ()>(pa, x, pb, y, N::zero()))
            }));
            o
        }
        (S(x), R(y)) => run_generic(pa, x, pb, y, m),
        (R(x), S(y)) => run_generic(pa, x, pb, y, m),
        (R(x), R(y)) => run_generic(pa, x, pb, y, m),
    }
}
