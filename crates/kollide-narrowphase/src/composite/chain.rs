//! The pieces of a 2D chain ([`Polyline`](kollide_shapes::Polyline)): one-sided segments, and
//! the internal-vertex rule that keeps shapes from catching on the vertices between them.
//!
//! **One-sided.** A chain segment collides on its right only, the side of its normal
//! `n = (d.y, −d.x) / |d|` (`d` its direction; see the `Polyline` docs). A shape whose centre
//! lies behind the segment's line gets no contact from it, nor does a separated shape whose
//! closest approach is from the back (past the segment's end, below its line); a ray coming
//! from behind passes through it (Catto's chain shapes in Box2D behave the same way). A
//! penetrating contact whose normal points into the back is turned to the segment's normal, so
//! the shape is pushed out of the front.
//!
//! **The internal-vertex rule** (Catto, "Ghost Vertices", 2010): queried alone, a segment gives
//! a shape just past its end vertex a contact from that vertex, with a normal tilted towards the
//! shape, although the next segment continues the surface there. When the vertex is **inactive**
//! (flat, concave or gently bent, from the chain's ghost vertices and neighbours), the contact
//! is rebuilt along the segment's own normal: B's deepest point along `−n` (or, for a manifold,
//! B's feature facing the segment clipped to the segment's slab), kept only when it lies over
//! the segment. Otherwise the piece's own contact stays: on a flat or concave vertex the
//! neighbour's face contact is deeper and wins the merge, and on a gently bent convex one the
//! vertex normal tilts by less than the bend. A contact whose normal points into the back side
//! is rebuilt the same way, at any vertex. This is the 2D form of the triangles' internal-edge
//! rule in `query.rs`.

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso2, Point, Point2, Pose, Scalar, Vec2, Vector};
use kollide_shapes::{FeatureId, Segment, Shape2, SupportFeature, SupportFeatureMap, SupportMap};
use smallvec::SmallVec;

use super::piece::{Piece2, PieceRay, on_centred};
use super::query::{FACE_COS, ON_EDGE};
use crate::dim::{from_slice, to2};
use crate::manifold::GENERATED;
use crate::{QuerySettings, ShapeContact, Status, manifold2};

/// The unit normal on the right of the segment from `a` to `b`.
#[inline]
fn right_normal<N: Scalar>(a: &Vec2<N>, b: &Vec2<N>) -> Vec2<N> {
    let d = b - a;
    Vec2::new(d.y, -d.x) / d.norm()
}

/// The parameter of the foot of `p` on the line from `a` to `b` (0 at `a`, 1 at `b`).
#[inline]
fn param<N: Scalar>(p: &Vec2<N>, a: &Vec2<N>, b: &Vec2<N>) -> N {
    let d = b - a;
    (p - a).dot(&d) / d.norm_squared()
}

impl<N: Scalar> PieceRay<N, 2> for Segment<N, 2> {
    /// One-sided (see the module docs): a ray crossing the segment from its front side, in
    /// closed form; a ray from behind or along the segment misses.
    fn local_ray_hit(
        &self,
        origin: &Point<N, 2>,
        dir: &Vector<N, 2>,
        max_t: N,
        _settings: &QuerySettings<N>,
    ) -> Option<(N, Vector<N, 2>, Status)> {
        let (a, b) = (self.a().coords, self.b().coords);
        let n = right_normal(&a, &b);
        if dir.dot(&n) >= N::zero() {
            return None;
        }
        let e = b - a;
        let denom = dir.x * e.y - dir.y * e.x;
        let w = a - origin.coords;
        let t = (w.x * e.y - w.y * e.x) / denom;
        let s = (w.x * dir.y - w.y * dir.x) / denom;
        (t >= N::zero() && t <= max_t && s >= N::zero() && s <= N::one()).then_some((
            t,
            n,
            Status::Converged,
        ))
    }

    fn surface_segment(&self) -> Option<[Point<N, 2>; 2]> {
        Some([self.a(), self.b()])
    }

    fn centred(&self) -> Option<(Self, Vector<N, 2>)> {
        Some(Segment::centred(self))
    }
}

impl<N: Scalar> Piece2<N> for Segment<N, 2> {
    fn manifold<U: Copy + Default>(
        &self,
        pos: &Iso2<N>,
        pos_b: &Iso2<N>,
        b: &Shape2<N>,
        margin: N,
    ) -> Manifold<N, 2, U> {
        on_centred(self, pos, |pos, s| manifold2(pos, &Shape2::Segment(*s), pos_b, b, margin))
    }

    fn as_shape(&self) -> std::borrow::Cow<'_, Shape2<N>> {
        std::borrow::Cow::Owned(Shape2::Segment(*self))
    }
}

/// Which way the rule goes for a contact of normal `normal` whose point on the segment `a → b`
/// (world) is `point_a`: `None` to keep it (pointing out of the front from the segment's face,
/// from B's face or from an active vertex), `Some(n)` to rebuild it along the segment's normal
/// `n` (from an inactive vertex, or pointing into the back).
fn needs_rebuild<N: Scalar>(
    a: &Vec2<N>,
    b: &Vec2<N>,
    active: u8,
    normal: &Vec2<N>,
    point_a: &Vec2<N>,
) -> Option<Vec2<N>> {
    let n = right_normal(a, b);
    let cos = normal.dot(&n);
    if cos >= N::lit(FACE_COS) {
        return None;
    }
    let s = param(point_a, a, b);
    // Inside the segment, the normal is B's own face's: kept unless it points into the back.
    let keep = if s <= N::lit(ON_EDGE) {
        active & 1 != 0
    } else if s >= N::one() - N::lit(ON_EDGE) {
        active & 2 != 0
    } else {
        true
    };
    (cos <= N::zero() || !keep).then_some(n)
}

/// `true` when B's centre (the origin of its frame) lies behind the line of `a → b`.
fn behind<N: Scalar, P: Pose<N, D>, const D: usize>(a: &Vec2<N>, b: &Vec2<N>, pos_b: &P) -> bool {
    let centre = to2(&pos_b.transform_point(&Point::origin()).coords);
    right_normal(a, b).dot(&(centre - a)) < N::zero()
}

/// The one-sided, internal-vertex rule for one contact `c` of a chain segment with corners
/// `seg` (world): `None` when B is behind the segment, or when the rebuilt contact is beyond
/// `margin` (see the module docs).
pub(crate) fn chain_contact<N, const D: usize, P, B>(
    seg: &[Point<N, D>; 2],
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
    let (a, e) = (to2(&seg[0].coords), to2(&seg[1].coords));
    if behind(&a, &e, pos_b) {
        return None;
    }
    let normal = to2(&c.normal);
    let Some(n) = needs_rebuild(&a, &e, active, &normal, &to2(&c.point_a.coords)) else {
        return Some(c);
    };
    let n_d: Vector<N, D> = from_slice(n.as_slice());
    let deepest = b.support_point(pos_b, &-n_d);
    let q = to2(&deepest.coords);
    let sep = n.dot(&(q - a));
    let foot = q - n * sep;
    let s = param(&foot, &a, &e);
    let over = s >= N::lit(-ON_EDGE) && s <= N::one() + N::lit(ON_EDGE);
    if !over {
        // Nothing of B over the segment: its own contact when it points out; pointing into the
        // back, none when separated (B comes from behind), else its depth along the normal.
        if normal.dot(&n) > N::zero() {
            return Some(c);
        }
        if c.separation > N::zero() {
            return None;
        }
        let point_a = c.point_b - n_d * c.separation;
        return Some(ShapeContact { point_a, normal: n_d, ..c });
    }
    if sep > margin {
        return None;
    }
    Some(ShapeContact {
        point_a: Point::from(from_slice::<N, D>(foot.as_slice())),
        point_b: deepest,
        normal: n_d,
        separation: sep,
        status: c.status,
    })
}

/// B's core feature facing the world direction `dir`, in world coordinates, with its ids (a
/// capsule's or segment's whole axis, as in the 3D rule, so that one lying flat gets two
/// contacts).
fn incident<N: Scalar>(b: &Shape2<N>, pos_b: &Iso2<N>, dir: &Vec2<N>) -> SupportFeature<N, 2> {
    let mut f = SupportFeature::new();
    match b {
        Shape2::Capsule(c) => {
            f.reset(FeatureId::Edge(0));
            f.push(c.segment().a(), FeatureId::Vertex(0));
            f.push(c.segment().b(), FeatureId::Vertex(1));
        }
        Shape2::Segment(s) => {
            f.reset(FeatureId::Edge(0));
            f.push(s.a(), FeatureId::Vertex(0));
            f.push(s.b(), FeatureId::Vertex(1));
        }
        _ => b.local_support_feature(&pos_b.inverse_transform_vector(dir), &mut f),
    }
    for p in f.vertices.iter_mut() {
        *p = pos_b * *p;
    }
    f
}

/// The rule of [`chain_contact`] for a piece's manifold `m` (world) against B: empty when B is
/// behind the segment; otherwise `m` unchanged, or B's feature facing the segment clipped to
/// the segment's slab and measured along its normal.
pub(crate) fn chain_manifold<N: Scalar, U: Copy + Default>(
    seg: &[Point2<N>; 2],
    active: u8,
    m: Manifold<N, 2, U>,
    pos_b: &Iso2<N>,
    b: &Shape2<N>,
    margin: N,
) -> Manifold<N, 2, U> {
    let (a, e) = (seg[0].coords, seg[1].coords);
    if behind(&a, &e, pos_b) {
        return Manifold::new();
    }
    let Some(deepest) = m.contacts().iter().min_by(|x, y| {
        x.separation.partial_cmp(&y.separation).unwrap_or(core::cmp::Ordering::Equal)
    }) else {
        return m;
    };
    let deepest = *deepest;
    let Some(n) = needs_rebuild(&a, &e, active, &m.normal, &deepest.point_a.coords) else {
        return m;
    };
    // The same test as `chain_contact`, so that both keep or rebuild alike: B's deepest point
    // along the normal must lie over the segment.
    let q = b.support_point(pos_b, &-n).coords;
    let s = param(&(q - n * n.dot(&(q - a))), &a, &e);
    if s < N::lit(-ON_EDGE) || s > N::one() + N::lit(ON_EDGE) {
        return beside(m, &deepest, &n);
    }
    let f = incident(b, pos_b, &-n);
    let r = b.radius();
    // The feature's points, or its edge clipped to the slab 0 ≤ s ≤ 1 of the segment.
    let mut points: SmallVec<[(Vec2<N>, FeatureId); 2]> = SmallVec::new();
    match f.vertices.as_slice() {
        [p] => points.push((p.coords, f.vertex_ids[0])),
        [p, q, ..] if f.vertices.len() == 2 => {
            let (sp, sq) = (param(&p.coords, &a, &e), param(&q.coords, &a, &e));
            for (k, x, sx, id, other, so) in [
                (0, p.coords, sp, f.vertex_ids[0], q.coords, sq),
                (1, q.coords, sq, f.vertex_ids[1], p.coords, sp),
            ] {
                // Move an end outside the slab to the slab's boundary, along the edge.
                let bound = if sx < N::zero() {
                    N::zero()
                } else if sx > N::one() {
                    N::one()
                } else {
                    points.push((x, id));
                    continue;
                };
                if (so - bound) * (sx - bound) < N::zero() {
                    let k_end = k;
                    let k = (bound - sx) / (so - sx);
                    points.push((x + (other - x) * k, FeatureId::Vertex(GENERATED + k_end)));
                }
            }
        }
        _ => {}
    }
    let mut out = Manifold::with_normal(n);
    for (q, id) in points {
        let s = param(&q, &a, &e);
        let h = n.dot(&(q - a));
        let sep = h - r;
        if s < N::lit(-ON_EDGE) || s > N::one() + N::lit(ON_EDGE) || sep > margin {
            continue;
        }
        let id = ContactId::new(FeatureId::Face(0), id);
        out.push(Contact::new(Point2::from(q - n * h), Point2::from(q - n * r), sep, id));
    }
    if out.is_empty() {
        return beside(m, &deepest, &n);
    }
    out
}

/// The manifold of a rebuilt piece when B's deepest point along the segment's normal `n` lies
/// beside the segment: as in [`chain_contact`], `m` itself when it points out of the front,
/// nothing when it points into the back and is separated, else its deepest contact along `n`.
fn beside<N: Scalar, U: Copy + Default>(
    m: Manifold<N, 2, U>,
    deepest: &Contact<N, 2, U>,
    n: &Vec2<N>,
) -> Manifold<N, 2, U> {
    if m.normal.dot(n) > N::zero() {
        return m;
    }
    let mut out = Manifold::with_normal(*n);
    if deepest.separation <= N::zero() {
        let mut c = *deepest;
        c.point_a = c.point_b - n * c.separation;
        out.push(c);
    }
    out
}
