//! What the composite queries ask of one piece: a ray test in the piece's frame, its contact
//! manifold against a convex shape, and (for triangles) the triangle itself, for the
//! internal-edge rule.

use std::borrow::Cow;

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Iso3, Point, Pose, Scalar, Vector};
use kollide_shapes::{Shape2, Shape3, SupportMap, Triangle};

use crate::{QuerySettings, Ray, Status, manifold2, manifold3, ray_cast};

/// A piece of a composite shape, as the composite queries see it.
pub trait PieceRay<N: Scalar, const D: usize>: SupportMap<N, D> {
    /// The first point `origin + t · dir` with `0 ≤ t ≤ max_t` on the piece (in its frame):
    /// `t`, the unit normal of the surface there (facing the ray's origin for a two-sided
    /// triangle) and the status of the test.
    fn local_ray_hit(
        &self,
        origin: &Point<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
        settings: &QuerySettings<N>,
    ) -> Option<(N, Vector<N, D>, Status)>;

    /// The piece's three corners when it is a triangle of a surface (its edges then follow the
    /// composite's active-edge flags); `None` for solid pieces.
    fn surface_triangle(&self) -> Option<[Point<N, D>; 3]> {
        None
    }

    /// The piece's two ends when it is a one-sided segment of a 2D chain (its end vertices then
    /// follow the composite's active-vertex flags); `None` for other pieces.
    fn surface_segment(&self) -> Option<[Point<N, D>; 2]> {
        None
    }

    /// A triangle or segment of a surface moved to its own centre, and that centre (in the
    /// piece's frame), so that the pair queries run on coordinates of the piece's own size;
    /// `None` for pieces that are asked where they are.
    fn centred(&self) -> Option<(Self, Vector<N, D>)>
    where
        Self: Sized,
    {
        None
    }
}

/// `query` asked of `piece` at `pose`, on the piece moved to its own centre when it is a
/// surface's triangle or segment. A mesh's triangles are stored in the mesh's frame, metres to
/// kilometres from its origin; the pair queries' accuracy and cost follow the size of their
/// coordinates (GJK's rounding, and the exact fallback that a shape too small for its distance
/// from the origin calls for), so they are asked where the piece's coordinates are of its own
/// size. The answers are in world space either way; the feature ids do not depend on it.
#[inline]
pub(crate) fn on_centred<N, const D: usize, P, S, R>(
    piece: &S,
    pose: &P,
    query: impl FnOnce(&P, &S) -> R,
) -> R
where
    N: Scalar,
    P: Pose<N, D>,
    S: PieceRay<N, D>,
{
    match piece.centred() {
        Some((local, centre)) => query(&pose.compose(&P::from_translation(centre)), &local),
        None => query(pose, piece),
    }
}

/// A 3D piece: its contact manifold against a convex shape.
pub trait Piece3<N: Scalar>: PieceRay<N, 3> {
    /// The manifold of this piece at `pos` (A) and `b` at `pos_b`, as [`manifold3`] gives it.
    fn manifold<U: Copy + Default>(
        &self,
        pos: &Iso3<N>,
        pos_b: &Iso3<N>,
        b: &Shape3<N>,
        margin: N,
    ) -> Manifold<N, 3, U>;

    /// The piece as a convex shape of the dimension's enum (borrowed when it is one), for a
    /// piece that takes B's place against another composite.
    fn as_shape(&self) -> Cow<'_, Shape3<N>>;
}

/// A 2D piece: its contact manifold against a convex shape.
pub trait Piece2<N: Scalar>: PieceRay<N, 2> {
    /// The manifold of this piece at `pos` (A) and `b` at `pos_b`, as [`manifold2`] gives it.
    fn manifold<U: Copy + Default>(
        &self,
        pos: &Iso2<N>,
        pos_b: &Iso2<N>,
        b: &Shape2<N>,
        margin: N,
    ) -> Manifold<N, 2, U>;

    /// The piece as a convex shape of the dimension's enum (borrowed when it is one), for a
    /// piece that takes B's place against another composite.
    fn as_shape(&self) -> Cow<'_, Shape2<N>>;
}

impl<N: Scalar> PieceRay<N, 3> for Triangle<N, 3> {
    /// Möller–Trumbore (see the module docs of `composite`), two-sided; a ray in the triangle's
    /// plane misses (the neighbouring pieces or the grid walk's next cell catch it).
    fn local_ray_hit(
        &self,
        origin: &Point<N, 3>,
        dir: &Vector<N, 3>,
        max_t: N,
        _settings: &QuerySettings<N>,
    ) -> Option<(N, Vector<N, 3>, Status)> {
        let [a, b, c] = self.vertices();
        let (e1, e2) = (b - a, c - a);
        let p = dir.cross(&e2);
        let det = e1.dot(&p);
        if det == N::zero() {
            return None;
        }
        let inv = N::one() / det;
        let s = origin - a;
        let u = s.dot(&p) * inv;
        if !(u >= N::zero() && u <= N::one()) {
            return None;
        }
        let q = s.cross(&e1);
        let v = dir.dot(&q) * inv;
        if !(v >= N::zero() && u + v <= N::one()) {
            return None;
        }
        let t = e2.dot(&q) * inv;
        if !(t >= N::zero() && t <= max_t) {
            return None;
        }
        // Parallel within rounding (`det` is `−dir · scaled`): no reliable crossing point.
        let scaled = e1.cross(&e2);
        let tiny = N::EPSILON * N::lit(16.0);
        if det * det <= tiny * tiny * scaled.norm_squared() * dir.norm_squared() {
            return None;
        }
        let n = scaled.normalize();
        let n = if n.dot(dir) > N::zero() { -n } else { n };
        Some((t, n, Status::Converged))
    }

    fn surface_triangle(&self) -> Option<[Point<N, 3>; 3]> {
        Some(self.vertices())
    }

    fn centred(&self) -> Option<(Self, Vector<N, 3>)> {
        Some(Triangle::centred(self))
    }
}

impl<N: Scalar> Piece3<N> for Triangle<N, 3> {
    fn manifold<U: Copy + Default>(
        &self,
        pos: &Iso3<N>,
        pos_b: &Iso3<N>,
        b: &Shape3<N>,
        margin: N,
    ) -> Manifold<N, 3, U> {
        on_centred(self, pos, |pos, t| manifold3(pos, &Shape3::Triangle(*t), pos_b, b, margin))
    }

    fn as_shape(&self) -> Cow<'_, Shape3<N>> {
        Cow::Owned(Shape3::Triangle(*self))
    }
}

macro_rules! impl_shape_piece {
    ($shape:ident, $iso:ident, $d:literal, $trait:ident, $manifold:ident) => {
        impl<N: Scalar> PieceRay<N, $d> for $shape<N> {
            fn local_ray_hit(
                &self,
                origin: &Point<N, $d>,
                dir: &Vector<N, $d>,
                max_t: N,
                settings: &QuerySettings<N>,
            ) -> Option<(N, Vector<N, $d>, Status)> {
                let ray = Ray { origin: *origin, dir: *dir };
                ray_cast(&$iso::identity(), self, &ray, max_t, settings)
                    .map(|h| (h.t, h.normal, h.status))
            }
        }

        impl<N: Scalar> $trait<N> for $shape<N> {
            fn manifold<U: Copy + Default>(
                &self,
                pos: &$iso<N>,
                pos_b: &$iso<N>,
                b: &$shape<N>,
                margin: N,
            ) -> Manifold<N, $d, U> {
                $manifold(pos, self, pos_b, b, margin)
            }

            fn as_shape(&self) -> Cow<'_, $shape<N>> {
                Cow::Borrowed(self)
            }
        }
    };
}

impl_shape_piece!(Shape3, Iso3, 3, Piece3, manifold3);
impl_shape_piece!(Shape2, Iso2, 2, Piece2, manifold2);
