//! [`CompositeShape`]: level geometry made of many convex pieces.
//!
//! A level (terrain, a building, a dynamic body built from several parts) is not convex, so GJK
//! and EPA cannot run on it directly. Every peer library (parry's `TypedCompositeShape`, Jolt's
//! `Shape::CollideShape` over leaf shapes, Box2D's chains) splits such a shape into **convex
//! pieces** and runs the convex query on each piece that can matter. This trait is that split,
//! written once: a composite yields the pieces whose bounding boxes overlap a query box, or that a
//! ray crosses, without allocating, and the convex-against-composite queries of
//! `kollide-narrowphase` (`composite` module) are written once over it.
//!
//! | composite | pieces | how they are found |
//! |---|---|---|
//! | [`HeightField`](crate::HeightField) (3D) | two [`Triangle`](crate::Triangle)s per cell | the cells under the box; a grid walk along a ray |
//! | [`TriMesh`](crate::TriMesh) (3D) | [`Triangle`](crate::Triangle)s given by index triples | a static bounding-volume tree |
//! | [`Polyline`](crate::Polyline) (2D) | one-sided [`Segment`](crate::Segment)s of a chain | a static bounding-volume tree |
//! | [`Compound`](crate::Compound) (2D, 3D) | convex child shapes with local poses | a scan of the children's boxes (the seam for a bounding-volume tree) |
//!
//! A piece is identified by its **index** (`u32`), stable for the life of the shape: contact
//! feature ids carry it, so that warm starting still matches a contact after a body slides from
//! one piece to the next.
//!
//! **Internal edges.** A triangle of a heightfield or a mesh shares its edges with
//! neighbours. [`CompositeShape::active_edges`] says which of a triangle piece's edges may produce
//! a contact normal of their own (see the heightfield's module docs for the rule).

use core::ops::ControlFlow;

use kollide_math::{Point, Pose, Scalar, Vector};

use crate::{Aabb, SupportMap};

/// A shape made of convex pieces (see the module docs).
///
/// The visiting methods call `f` for each candidate piece with its index, its pose in the
/// composite's frame (`None` for the identity, as for the triangles of a heightfield, which are
/// stored in the composite's frame already) and the piece itself. `f` returns
/// [`ControlFlow::Break`] to stop the visit early; the method returns what the last call
/// returned.
pub trait CompositeShape<N: Scalar, const D: usize> {
    /// The pose type of the pieces (`Iso2` or `Iso3`).
    type Pose: Pose<N, D>;
    /// The type of a piece.
    type Piece: SupportMap<N, D>;

    /// Feature ids of piece `i` are shifted by `i · FEATURE_STRIDE` (wrapping), so that contacts
    /// of different pieces have different ids: 4 for triangle pieces (whose own ids are 0 to 2),
    /// a large power of two for compounds (whose children's ids can be large).
    const FEATURE_STRIDE: u32;

    /// The bounding box of the whole composite in its own frame.
    fn local_aabb(&self) -> Aabb<N, D>;

    /// The number of pieces; indices run from 0 to `piece_count() − 1`.
    fn piece_count(&self) -> usize;

    /// Calls `f` for every piece that overlaps `aabb` (given in the composite's frame). It may
    /// also call it for pieces that do not (the test is conservative: most composites test the
    /// pieces' bounding boxes, a heightfield its triangles' heights and footprints), never skips
    /// one that does.
    fn visit_pieces_in<F>(&self, aabb: &Aabb<N, D>, f: F) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> ControlFlow<()>;

    /// Calls `f` for the pieces that the segment `origin + t · dir`, `0 ≤ t ≤ max_t` (in the
    /// composite's frame) may cross, nearer ones first where the composite can order them.
    /// `f` returns the bound for the rest of the visit: `Some(t)` goes on with the segment cut
    /// at `t` (the caller's nearest hit so far: pieces the segment can only meet beyond it may
    /// be skipped), `None` stops. The default visits the pieces in the segment's bounding box
    /// and does not cut.
    fn visit_pieces_along_ray<F>(
        &self,
        origin: &Point<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
        mut f: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> Option<N>,
    {
        let end = origin + dir * max_t;
        let aabb = Aabb::new(origin.inf(&end), origin.sup(&end));
        self.visit_pieces_in(&aabb, |i, pose, piece| match f(i, pose, piece) {
            Some(_) => ControlFlow::Continue(()),
            None => ControlFlow::Break(()),
        })
    }

    /// The first point of the segment `origin + t · dir`, `0 ≤ t ≤ max_t` (in the composite's
    /// frame), on the composite's surface, for a composite that finds it itself faster than its
    /// pieces would (a heightfield, from the height of the ray above its surface along the grid
    /// walk). The default, [`SurfaceRay::AskPieces`], leaves the cast to the pieces that
    /// [`CompositeShape::visit_pieces_along_ray`] yields.
    fn surface_ray(&self, origin: &Point<N, D>, dir: &Vector<N, D>, max_t: N) -> SurfaceRay<N, D> {
        let _ = (origin, dir, max_t);
        SurfaceRay::AskPieces
    }

    /// For a triangle piece of a surface (heightfield, mesh): bit `k` is set when edge `k` (from
    /// vertex `k` to vertex `k + 1`) is **active**, a real crease or a boundary of the surface
    /// that may give a contact its own normal. Clear bits mark internal edges that are flat,
    /// concave or bent by less than the crease angle: a contact there takes the triangle's face
    /// normal. For a segment of a 2D chain ([`Polyline`](crate::Polyline)): bit 0 is set when
    /// its start vertex is active, bit 1 its end vertex. `None` (the default) for solid pieces,
    /// whose every feature is real.
    fn active_edges(&self, piece: u32) -> Option<u8> {
        let _ = piece;
        None
    }
}

/// A composite's own answer to a ray cast ([`CompositeShape::surface_ray`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SurfaceRay<N: Scalar, const D: usize> {
    /// The composite leaves the cast to its pieces.
    AskPieces,
    /// The segment first meets the surface at `origin + t · dir`, where the surface's unit
    /// normal (facing the ray's origin) is `normal`.
    Hit {
        /// The parameter of the hit along the segment.
        t: N,
        /// The unit normal of the surface at the hit, facing the ray.
        normal: Vector<N, D>,
    },
    /// The segment does not meet the surface.
    Miss,
}

/// [`CompositeShape::visit_pieces_in`] for a composite whose pieces sit in a [`crate::tree::Tree`]
/// built over them (leaf `i` is `pieces[i]`, with no pose of its own): the meshes and chains.
pub(crate) fn visit_tree_pieces_in<N, const D: usize, P, Q, F>(
    tree: &crate::tree::Tree<N, D>,
    pieces: &[P],
    aabb: &Aabb<N, D>,
    mut f: F,
) -> ControlFlow<()>
where
    N: Scalar,
    F: FnMut(u32, Option<&Q>, &P) -> ControlFlow<()>,
{
    let mut flow = ControlFlow::Continue(());
    tree.query_aabb(aabb, |i| {
        flow = f(i, None, &pieces[i as usize]);
        flow.is_continue()
    });
    flow
}

/// [`CompositeShape::visit_pieces_along_ray`] for a composite whose pieces sit in a tree: the
/// tree's walk visits nearer subtrees first and drops every box the segment, cut at the
/// caller's bound, no longer reaches.
pub(crate) fn visit_tree_pieces_along_ray<N, const D: usize, P, Q, F>(
    tree: &crate::tree::Tree<N, D>,
    pieces: &[P],
    (origin, dir, max_t): (&Point<N, D>, &Vector<N, D>, N),
    mut f: F,
) -> ControlFlow<()>
where
    N: Scalar,
    F: FnMut(u32, Option<&Q>, &P) -> Option<N>,
{
    let mut flow = ControlFlow::Continue(());
    tree.cast_ray(origin, dir, max_t, |i, _| {
        let bound = f(i, None, &pieces[i as usize]);
        if bound.is_none() {
            flow = ControlFlow::Break(());
        }
        bound
    });
    flow
}
