//! Contact, distance, intersection, ray cast and shape cast of a convex shape against a
//! composite (see the module docs of `composite`).

use core::ops::ControlFlow;

use kollide_math::{Point, Point3, Pose, Scalar, Vec3, Vector};
use kollide_shapes::{
    Aabb, BoundingVolume, CompositeShape, Cuboid, FeatureId, SupportMap, SurfaceRay,
};

use super::chain::chain_contact;
use super::piece::{PieceRay, on_centred};
use crate::dim::{from_slice, to3};
use crate::manifold::triangle_cuboid_depth;
use crate::{
    CastHit, Intersection, QuerySettings, Ray, ShapeContact, Status, contact, intersection_test,
    shape_cast,
};

/// A feature counts as lying on a triangle's edge when the barycentric weight of the opposite
/// corner is at most this (a thousandth of the triangle's size).
pub(crate) const ON_EDGE: f64 = 1e-3;

/// Triangle normals within this cosine of a contact normal make a face contact.
pub(crate) const FACE_COS: f64 = 1.0 - 1e-6;

/// The world pose of a piece: the composite's pose, composed with the piece's own when it has
/// one.
#[inline]
pub(crate) fn piece_pose<N: Scalar, const D: usize, P: Pose<N, D>>(
    pos_a: &P,
    own: Option<&P>,
) -> P {
    match own {
        Some(p) => pos_a.compose(p),
        None => *pos_a,
    }
}

/// The barycentric weights of `p` (projected on the triangle's plane) in `t` (Ericson, *Real-Time
/// Collision Detection*, 3.4).
pub(crate) fn barycentric<N: Scalar>(p: &Vec3<N>, t: &[Vec3<N>; 3]) -> [N; 3] {
    let (v0, v1, v2) = (t[1] - t[0], t[2] - t[0], p - t[0]);
    let (d00, d01, d11) = (v0.dot(&v0), v0.dot(&v1), v1.dot(&v1));
    let (d20, d21) = (v2.dot(&v0), v2.dot(&v1));
    let denom = d00 * d11 - d01 * d01;
    let v = (d11 * d20 - d01 * d21) / denom;
    let w = (d00 * d21 - d01 * d20) / denom;
    [N::one() - v - w, v, w]
}

/// The point of triangle `t` closest to `p`, and the feature it lies on (`Face(0)`, `Edge(k)`
/// from corner `k` to `k + 1`, or `Vertex(k)`): Ericson's Voronoi-region walk (*Real-Time
/// Collision Detection*, 5.1.5).
pub(crate) fn closest_on_triangle<N: Scalar>(
    p: &Vec3<N>,
    t: &[Vec3<N>; 3],
) -> (Vec3<N>, FeatureId) {
    let [a, b, c] = *t;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= N::zero() && d2 <= N::zero() {
        return (a, FeatureId::Vertex(0));
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= N::zero() && d4 <= d3 {
        return (b, FeatureId::Vertex(1));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= N::zero() && d1 >= N::zero() && d3 <= N::zero() {
        return (a + ab * (d1 / (d1 - d3)), FeatureId::Edge(0));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= N::zero() && d5 <= d6 {
        return (c, FeatureId::Vertex(2));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= N::zero() && d2 >= N::zero() && d6 <= N::zero() {
        return (a + ac * (d2 / (d2 - d6)), FeatureId::Edge(2));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= N::zero() && d4 - d3 >= N::zero() && d5 - d6 >= N::zero() {
        return (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))), FeatureId::Edge(1));
    }
    let denom = N::one() / (va + vb + vc);
    (a + ab * (vb * denom) + ac * (vc * denom), FeatureId::Face(0))
}

/// The contact of a triangle (corners `tri`, world) and a shape whose core is the point
/// `centre` grown by `radius`, in closed form, if their separation is at most `margin`; with
/// the triangle's feature it comes from. A centre on the triangle takes the face normal.
pub(crate) fn point_triangle_contact<N: Scalar>(
    tri: &[Vec3<N>; 3],
    centre: &Vec3<N>,
    radius: N,
    margin: N,
) -> Option<(Vec3<N>, Vec3<N>, N, FeatureId)> {
    let (q, feature) = closest_on_triangle(centre, tri);
    let d = centre - q;
    let dist = d.norm();
    let sep = dist - radius;
    if sep > margin {
        return None;
    }
    let size = (tri[1] - tri[0]).amax().max_of((tri[2] - tri[0]).amax()).max_of(N::one());
    let n = if dist > N::EPSILON * N::lit(64.0) * size {
        d / dist
    } else {
        (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize()
    };
    Some((q, n, sep, feature))
}

/// Whether the feature of a triangle at the barycentric weights `w` is active: `None` for a
/// point inside the face (no edge, no vertex), otherwise whether one of the edges it lies on is
/// active (edge `k` runs from corner `k` to `k + 1`, so it is opposite corner `k + 2`).
pub(crate) fn feature_is_active<N: Scalar>(w: &[N; 3], active: u8) -> Option<bool> {
    let mut on_any = false;
    let mut any_active = false;
    for k in 0..3 {
        if w[(k + 2) % 3] <= N::lit(ON_EDGE) {
            on_any = true;
            any_active |= active & (1 << k) != 0;
        }
    }
    on_any.then_some(any_active)
}

/// The internal-edge rule for one contact on a triangle piece with corners `tri` (world): the
/// contact unchanged when it comes from the face or an active feature, otherwise rebuilt along
/// the face normal from B's deepest point when that point lies over the triangle (`None` when it
/// is then farther than `margin`).
fn surface_contact<N, const D: usize, P, B>(
    tri: &[Point<N, D>; 3],
    active: u8,
    c: ShapeContact<N, D>,
    pos_b: &P,
    b: &B,
    margin: N,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    B: SupportMap<N, D> + ?Sized,
{
    if D != 3 {
        return Some(c);
    }
    let t = [to3(&tri[0].coords), to3(&tri[1].coords), to3(&tri[2].coords)];
    let nf = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
    let n = to3(&c.normal);
    let along = |v: Vec3<N>| b.support_point(pos_b, &from_slice::<N, D>(v.as_slice())).coords;
    let nf = face_normal_towards(nf, &t[0], |v| to3(&along(v)));
    if n.dot(&nf) >= N::lit(FACE_COS) {
        return Some(c);
    }
    match feature_is_active(&barycentric(&to3(&c.point_a.coords), &t), active) {
        None | Some(true) => return Some(c),
        Some(false) => {}
    }
    let nf_d: Vector<N, D> = from_slice(nf.as_slice());
    let deepest = b.support_point(pos_b, &-nf_d);
    let sep = nf.dot(&(to3(&deepest.coords) - t[0]));
    if sep > margin {
        return None;
    }
    let on_plane = to3(&deepest.coords) - nf * sep;
    let slack = N::lit(-ON_EDGE);
    if barycentric(&on_plane, &t).iter().any(|w| *w < slack) {
        // B's deepest point lies beyond the triangle: on a flat edge the neighbour's face gives
        // a deeper contact, on a gentle ridge this one tilts by less than the bend.
        return Some(c);
    }
    Some(ShapeContact {
        point_a: Point::from(from_slice::<N, D>(on_plane.as_slice())),
        point_b: deepest,
        normal: nf_d,
        separation: sep,
        status: c.status,
    })
}

/// The unit face normal `nf` of a triangle through `t0`, turned towards the side of its plane
/// where B mostly lies: the middle of B's extent along the normal (`support(v)` is B's farthest
/// point along `v`, in the triangle's frame) is on that side. That is the side across which B is
/// least deep, as a separating-axis test on the face normal chooses. A contact normal cannot
/// decide it when it lies in the plane (a contact on an edge whose other face is vertical, or a
/// box just sliding onto the triangle), and the wrong side makes B's whole height the depth.
pub(crate) fn face_normal_towards<N: Scalar>(
    nf: Vec3<N>,
    t0: &Vec3<N>,
    support: impl Fn(Vec3<N>) -> Vec3<N>,
) -> Vec3<N> {
    let above = nf.dot(&(support(nf) - t0));
    let below = nf.dot(&(support(-nf) - t0));
    if above + below < N::zero() { -nf } else { nf }
}

/// `true` when `piece` is a triangle and B lies entirely on one side of its plane, farther
/// than `margin` from it: one separating axis (the face normal) rules the pair out before GJK.
#[inline]
pub(crate) fn beyond_plane<N, const D: usize, P, S, B>(
    piece: &S,
    pose: &P,
    pos_b: &P,
    b: &B,
    margin: N,
) -> bool
where
    N: Scalar,
    P: Pose<N, D>,
    S: PieceRay<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let Some(tri) = piece.surface_triangle() else {
        return false;
    };
    if D != 3 {
        return false;
    }
    let t = tri.map(|p| to3(&p.coords));
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let n_world: Vector<N, D> = pose.transform_vector(&from_slice(n.as_slice()));
    let a = pose.transform_point(&tri[0]);
    let len = n.norm();
    let below = n_world.dot(&(b.support_point(pos_b, &-n_world) - a));
    let above = n_world.dot(&(b.support_point(pos_b, &n_world) - a));
    below > margin * len || above < -margin * len
}

/// For a triangle piece, a lower bound on the separation of B from it, after the internal-edge
/// rule too, from B's extent along the triangle's normal (two support points): B's gap to the
/// plane when it lies on one side (the distance to the triangle is at least that), and minus the
/// larger of its two depths across the plane when it straddles it (a contact, or the rule's
/// rebuilt one, is never deeper than moving B out along the normal to either side). `None` for
/// other pieces.
#[inline]
fn separation_bound<N, const D: usize, P, S, B>(piece: &S, pose: &P, pos_b: &P, b: &B) -> Option<N>
where
    N: Scalar,
    P: Pose<N, D>,
    S: PieceRay<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let tri = piece.surface_triangle()?;
    if D != 3 {
        return None;
    }
    let t = tri.map(|p| to3(&p.coords));
    let n = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
    let n_world: Vector<N, D> = pose.transform_vector(&from_slice(n.as_slice()));
    let a = pose.transform_point(&tri[0]);
    let below = n_world.dot(&(b.support_point(pos_b, &-n_world) - a));
    let above = n_world.dot(&(b.support_point(pos_b, &n_world) - a));
    Some(if below > N::zero() {
        below
    } else if above < N::zero() {
        -above
    } else {
        below.min_of(-above)
    })
}

/// The signed contact of a composite A (at `pos_a`) and a convex shape B, if their separation is
/// at most `margin`: the deepest of the pieces' contacts, after the internal-edge rule. The normal
/// points from the composite to B.
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::{Ball, HeightField};
/// use kollide_narrowphase::{composite::composite_contact, QuerySettings};
/// let field = HeightField::new(5, 5, vec![0.0f64; 25], Vec3::new(4.0, 1.0, 4.0)).unwrap();
/// let ball = Ball::new(0.5).unwrap();
/// let c = composite_contact(&Iso3::identity(), &field, &Iso3::translation(0.3, 0.45, 0.2), &ball,
///                           0.0, &QuerySettings::default()).unwrap();
/// assert!((c.separation + 0.05).abs() < 1e-9 && (c.normal - Vec3::y()).norm() < 1e-9);
/// ```
pub fn composite_contact<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    pos_b: &C::Pose,
    b: &B,
    margin: N,
    settings: &QuerySettings<N>,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: BoundingVolume<N, D> + ?Sized,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let query = b.aabb(&pos_ab).loosened(margin.max_of(N::zero()).min_of(N::MAX_SIZE));
    best_contact(pos_a, a, &query, pos_b, b, margin, settings)
}

/// The deepest contact over the pieces overlapping `query` (in A's frame).
fn best_contact<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    query: &Aabb<N, D>,
    pos_b: &C::Pose,
    b: &B,
    margin: N,
    settings: &QuerySettings<N>,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: SupportMap<N, D> + ?Sized,
{
    if D == 3
        && b.core_is_point()
        && let Some(c) = point_core_contact(pos_a, a, query, pos_b, b, margin)
    {
        return c;
    }
    let cuboid = cuboid_core(b);
    let mut best: Option<ShapeContact<N, D>> = None;
    let _ = a.visit_pieces_in(query, |i, own, piece| {
        let pose = piece_pose(pos_a, own);
        // A box meets a triangle through the SAT, whose first axis is the bound's.
        let sat = cuboid.as_ref().and_then(|cube| {
            on_centred(piece, &pose, |pose, piece| {
                triangle_box_contact(pose, piece, pos_b, cube, margin)
            })
        });
        // A triangle that cannot give a contact within the margin, or deeper than the best so
        // far, is skipped before GJK.
        if sat.is_none()
            && let Some(bound) = separation_bound(piece, &pose, pos_b, b)
            && (bound > margin || best.is_some_and(|x| bound >= x.separation))
        {
            return ControlFlow::Continue(());
        }
        let found = match sat {
            Some(found) => found,
            None => on_centred(piece, &pose, |pose, piece| {
                contact(pose, piece, pos_b, b, margin, settings)
            }),
        };
        let Some(c) = found else {
            return ControlFlow::Continue(());
        };
        let c = match (piece.surface_triangle(), piece.surface_segment(), a.active_edges(i)) {
            (Some(tri), _, Some(active)) => {
                let world = tri.map(|p| pose.transform_point(&p));
                surface_contact(&world, active, c, pos_b, b, margin)
            }
            (None, Some(seg), Some(active)) => {
                let world = seg.map(|p| pose.transform_point(&p));
                chain_contact(&world, active, c, pos_b, b, margin)
            }
            _ => Some(c),
        };
        if let Some(c) = c
            && best.is_none_or(|x| c.separation < x.separation)
        {
            best = Some(c);
        }
        ControlFlow::Continue(())
    });
    best
}

/// B as a sharp box, when it is one (in 3D): the shape the triangle pieces then meet through the
/// separating axis test ([`triangle_box_contact`]).
fn cuboid_core<N, const D: usize, B>(b: &B) -> Option<Cuboid<N, 3>>
where
    N: Scalar,
    B: SupportMap<N, D> + ?Sized,
{
    if D != 3 || b.radius() != N::zero() {
        return None;
    }
    Cuboid::new(to3(&b.core_cuboid()?)).ok()
}

/// The contact of a triangle piece at `pose` and the box `cube` at `pos_b` by the separating
/// axis test of the triangle–box manifold ([`triangle_cuboid_depth`]): the exact separation and
/// normal, and the pair of points that realises them, so that neither GJK nor EPA runs.
/// `Some(None)` when an axis separates them by more than `margin`; `None` for a piece that is not
/// a triangle and for the poses the SAT leaves to GJK/EPA (apart at corners).
fn triangle_box_contact<N, const D: usize, P, S>(
    pose: &P,
    piece: &S,
    pos_b: &P,
    cube: &Cuboid<N, 3>,
    margin: N,
) -> Option<Option<ShapeContact<N, D>>>
where
    N: Scalar,
    P: Pose<N, D>,
    S: PieceRay<N, D> + ?Sized,
{
    let [p0, p1, p2] = piece.surface_triangle()?;
    let rel = pos_b.inv_compose(pose);
    let place = |p: &Point<N, D>| to3(&rel.transform_point(p).coords);
    let v = [place(&p0), place(&p1), place(&p2)];
    let Some((pa, pb, n, separation)) = triangle_cuboid_depth(&v, cube, margin)? else {
        return Some(None);
    };
    let back = |p: Point3<N>| pos_b.transform_point(&Point::from(from_slice(p.coords.as_slice())));
    Some(Some(ShapeContact {
        point_a: back(pa),
        point_b: back(pb),
        normal: pos_b.transform_vector(&from_slice(n.as_slice())),
        separation,
        status: Status::Converged,
    }))
}

/// [`best_contact`] for a shape B whose core is a point (a ball) against a composite of
/// triangles, in closed form and in A's frame ([`point_triangle_contact`], the internal-edge rule
/// read off the closest feature). `None` when a piece is not a triangle of a surface (the
/// general path answers then); `Some(None)` when no piece is within `margin`.
fn point_core_contact<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    query: &Aabb<N, D>,
    pos_b: &C::Pose,
    b: &B,
    margin: N,
) -> Option<Option<ShapeContact<N, D>>>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: SupportMap<N, D> + ?Sized,
{
    let core = pos_b.transform_point(&b.local_core_support(&Vector::zeros()));
    let centre = to3(&pos_a.inverse_transform_point(&core).coords);
    let r = b.radius();
    let mut best: Option<(Vec3<N>, Vec3<N>, N)> = None;
    let mut general = false;
    let _ = a.visit_pieces_in(query, |i, own, piece| {
        let (Some(tri), Some(active), None) = (piece.surface_triangle(), a.active_edges(i), own)
        else {
            general = true;
            return ControlFlow::Break(());
        };
        let t = tri.map(|p| to3(&p.coords));
        let Some((mut q, mut n, mut sep, feature)) = point_triangle_contact(&t, &centre, r, margin)
        else {
            return ControlFlow::Continue(());
        };
        let on_inactive = match feature {
            FeatureId::Edge(k) => active & (1 << k) == 0,
            FeatureId::Vertex(k) => active & (1 << k) == 0 && active & (1 << ((k + 2) % 3)) == 0,
            _ => false,
        };
        if on_inactive {
            // The internal-edge rule: the face's normal and depth, if the centre lies over it.
            let nf = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
            let nf = face_normal_towards(nf, &t[0], |_| centre);
            let height = nf.dot(&(centre - t[0]));
            let foot = centre - nf * height;
            if n.dot(&nf) < N::lit(FACE_COS)
                && barycentric(&foot, &t).iter().all(|w| *w >= N::lit(-ON_EDGE))
            {
                (q, n, sep) = (foot, nf, height - r);
                if sep > margin {
                    return ControlFlow::Continue(());
                }
            }
        }
        if best.is_none_or(|(_, _, s)| sep < s) {
            best = Some((q, n, sep));
        }
        ControlFlow::Continue(())
    });
    if general {
        return None;
    }
    let to_world =
        |v: &Vec3<N>| pos_a.transform_point(&Point::from(from_slice::<N, D>(v.as_slice())));
    Some(best.map(|(q, n, sep)| ShapeContact {
        point_a: to_world(&q),
        point_b: to_world(&(centre - n * r)),
        normal: pos_a.transform_vector(&from_slice(n.as_slice())),
        separation: sep,
        status: Status::Converged,
    }))
}

/// The closest points of a composite A and a convex shape B (negative separation when they
/// overlap): the closest over all pieces, found by searching a box around B grown until it
/// holds a piece closer than its growth (pieces outside it are farther). `None` only for a
/// composite without pieces.
pub fn composite_closest_points<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    pos_b: &C::Pose,
    b: &B,
    settings: &QuerySettings<N>,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: BoundingVolume<N, D> + ?Sized,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let base = b.aabb(&pos_ab);
    let whole = a.local_aabb();
    let mut grow = base.half_extents().norm().max_of(N::MIN_SIZE);
    loop {
        let query = base.loosened(grow);
        let covers =
            (0..D).all(|k| query.mins[k] <= whole.mins[k] && query.maxs[k] >= whole.maxs[k]);
        let margin = if covers { N::MAX } else { grow };
        if let Some(c) = best_contact(pos_a, a, &query, pos_b, b, margin, settings)
            && (covers || c.separation <= grow)
        {
            return Some(c);
        }
        if covers {
            return None;
        }
        grow *= N::lit(4.0);
    }
}

/// The distance between a composite and a convex shape (zero when they overlap), with the
/// status of the query that found it.
pub fn composite_distance<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    pos_b: &C::Pose,
    b: &B,
    settings: &QuerySettings<N>,
) -> (N, Status)
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: BoundingVolume<N, D> + ?Sized,
{
    match composite_closest_points(pos_a, a, pos_b, b, settings) {
        Some(c) => (c.separation.max_of(N::zero()), c.status),
        None => (N::MAX, Status::Degenerate),
    }
}

/// `true` when a piece of the composite overlaps or touches the convex shape.
pub fn composite_intersection_test<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    pos_b: &C::Pose,
    b: &B,
    settings: &QuerySettings<N>,
) -> Intersection
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: BoundingVolume<N, D> + ?Sized,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let query = b.aabb(&pos_ab);
    let mut status = Status::Converged;
    let flow = a.visit_pieces_in(&query, |_, own, piece| {
        let pose = piece_pose(pos_a, own);
        let hit = on_centred(piece, &pose, |pose, piece| {
            intersection_test(pose, piece, pos_b, b, None, settings)
        });
        status = status.worst(hit.status);
        if hit.intersecting { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    Intersection { intersecting: flow.is_break(), status }
}

/// The first hit of a ray (world space) on a composite at `pos_a`, with `t ≤ max_t`. Pieces are
/// visited in the order the ray crosses them (a grid walk on a heightfield); the cast stops at
/// the first group of pieces holding a hit. The normal is the surface's, facing the ray.
///
/// ```
/// use kollide_math::{Iso3, Point3, Vec3};
/// use kollide_shapes::HeightField;
/// use kollide_narrowphase::{composite::composite_ray_cast, QuerySettings, Ray};
/// let field = HeightField::new(5, 5, vec![0.0f64; 25], Vec3::new(4.0, 1.0, 4.0)).unwrap();
/// let ray = Ray { origin: Point3::new(0.3, 2.0, -0.7), dir: -Vec3::y() };
/// let hit = composite_ray_cast(&Iso3::identity(), &field, &ray, 10.0, &QuerySettings::default());
/// assert!((hit.unwrap().t - 2.0).abs() < 1e-12);
/// ```
pub fn composite_ray_cast<N, const D: usize, C>(
    pos_a: &C::Pose,
    a: &C,
    ray: &Ray<N, D>,
    max_t: N,
    settings: &QuerySettings<N>,
) -> Option<CastHit<N, D>>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
{
    let origin = pos_a.inverse_transform_point(&ray.origin);
    let dir = pos_a.inverse_transform_vector(&ray.dir);
    let found = match a.surface_ray(&origin, &dir, max_t) {
        SurfaceRay::AskPieces => pieces_ray_hit(a, &origin, &dir, max_t, settings),
        SurfaceRay::Hit { t, normal } => Some((t, normal, Status::Converged)),
        SurfaceRay::Miss => None,
    };
    found.map(|(t, n, status)| {
        let p = ray.origin + ray.dir * t;
        CastHit { t, normal: pos_a.transform_vector(&n), point_a: p, point_b: p, status }
    })
}

/// The first hit of the segment `origin + t · dir` (in the composite's frame) on the pieces
/// that the composite yields along it, the segment cut at the nearest hit so far.
fn pieces_ray_hit<N, const D: usize, C>(
    a: &C,
    origin: &Point<N, D>,
    dir: &Vector<N, D>,
    max_t: N,
    settings: &QuerySettings<N>,
) -> Option<(N, Vector<N, D>, Status)>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
{
    let (origin, dir) = (*origin, *dir);
    let mut best: Option<(N, Vector<N, D>, Status)> = None;
    let _ = a.visit_pieces_along_ray(&origin, &dir, max_t, |_, own, piece| {
        let limit = best.map_or(max_t, |b| b.0);
        let hit = match own {
            None => piece.local_ray_hit(&origin, &dir, limit, settings),
            Some(p) => piece
                .local_ray_hit(
                    &p.inverse_transform_point(&origin),
                    &p.inverse_transform_vector(&dir),
                    limit,
                    settings,
                )
                .map(|(t, n, s)| (t, p.transform_vector(&n), s)),
        };
        if let Some(h) = hit
            && best.is_none_or(|b| h.0 < b.0)
        {
            best = Some(h);
        }
        // The rest of the visit only needs to look before the nearest hit.
        Some(best.map_or(max_t, |b| b.0))
    });
    best
}

/// The time of impact of a convex shape B moving with velocity `vel_b` against a fixed composite
/// A, with `t ≤ max_toi`: the earliest of the pieces' times of impact over the pieces in B's
/// swept box. The normal points from the composite to B.
pub fn composite_shape_cast<N, const D: usize, C, B>(
    pos_a: &C::Pose,
    a: &C,
    pos_b: &C::Pose,
    vel_b: &Vector<N, D>,
    b: &B,
    max_toi: N,
    settings: &QuerySettings<N>,
) -> Option<CastHit<N, D>>
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
    C::Piece: PieceRay<N, D>,
    B: BoundingVolume<N, D> + ?Sized,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let start = b.aabb(&pos_ab);
    let travel = pos_a.inverse_transform_vector(vel_b) * max_toi;
    let swept = if travel.iter().all(|x| x.is_finite_value()) {
        start.merged(&Aabb::new(start.mins + travel, start.maxs + travel))
    } else {
        start.merged(&a.local_aabb())
    };
    let zero = Vector::<N, D>::zeros();
    let mut best: Option<CastHit<N, D>> = None;
    let _ = a.visit_pieces_in(&swept, |_, own, piece| {
        let pose = piece_pose(pos_a, own);
        let limit = best.map_or(max_toi, |h| h.t);
        let cast = |pose: &C::Pose, piece: &C::Piece| {
            shape_cast(pose, &zero, piece, pos_b, vel_b, b, limit, settings)
        };
        if let Some(h) = on_centred(piece, &pose, cast)
            && best.is_none_or(|x| h.t < x.t)
        {
            best = Some(h);
        }
        ControlFlow::Continue(())
    });
    best
}
