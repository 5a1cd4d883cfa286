//! Contact manifolds of a convex shape against a composite, and of two compounds (see the
//! module docs of `composite`).

use core::ops::ControlFlow;

use kollide_manifold::{Contact, ContactId, Manifold, reduce_to_four};
use kollide_math::{Iso2, Iso3, Point3, Pose, Scalar, Vec3, Vector};
use kollide_shapes::{
    BoundingVolume, CompositeShape, FeatureId, Shape2, Shape3, SupportFeature, SupportFeatureMap,
    SupportMap, placed_aabb,
};
use smallvec::SmallVec;

use super::chain::chain_manifold;
use super::piece::{Piece2, Piece3, PieceRay};
use super::piece_feature;
use super::query::{
    FACE_COS, barycentric, beyond_plane, face_normal_towards, feature_is_active, piece_pose,
    point_triangle_contact,
};
use crate::manifold::{
    Candidates, GENERATED, IncidentFeature, ReferenceFace, clip_reference_face, to_world,
    triangle_side,
};

/// Pieces whose normals are within this cosine (about 25°) of the deepest piece's share its
/// manifold; the others are left out (a manifold has one normal).
const SHARED_NORMAL_COS: f64 = 0.9;

/// Inline storage of merged contacts.
type ContactList<N, const D: usize, U> = SmallVec<[Contact<N, D, U>; 16]>;

/// Inline storage of points and ids of a supporting feature.
type Points<N> = SmallVec<[Point3<N>; 16]>;
/// Inline storage of feature ids.
type Ids = SmallVec<[FeatureId; 16]>;

/// A piece's contact with the normal of the manifold it came from.
type Tagged<N, const D: usize, U> = (Contact<N, D, U>, Vector<N, D>);

/// Contacts from pieces, merged into one manifold: the normal of the deepest contact, the
/// contacts whose piece normals agree with it (separations measured along it), duplicates (the
/// same point of B found on two pieces sharing an edge) dropped, then the best `CAPACITY`.
struct Merge<N: Scalar, const D: usize, U: Copy + Default> {
    list: SmallVec<[Tagged<N, D, U>; 16]>,
}

impl<N: Scalar, const D: usize, U: Copy + Default> Merge<N, D, U> {
    fn new() -> Self {
        Self { list: SmallVec::new() }
    }

    /// Adds a piece's manifold, with A's ids mapped by `tag_a` and B's by `tag_b`.
    fn push(
        &mut self,
        m: &Manifold<N, D, U>,
        tag_a: impl Fn(FeatureId) -> FeatureId,
        tag_b: impl Fn(FeatureId) -> FeatureId,
    ) {
        for c in m.contacts() {
            let mut c = *c;
            c.id = ContactId::new(tag_a(c.id.a), tag_b(c.id.b));
            self.list.push((c, m.normal));
        }
    }

    /// The merged contacts sharing the deepest contact's normal, duplicates dropped
    /// (`dup` is the distance below which two points of B are the same).
    fn shared(&self, dup: N) -> Option<(Vector<N, D>, ContactList<N, D, U>)> {
        let (_, n) = self.list.iter().min_by(|x, y| {
            x.0.separation.partial_cmp(&y.0.separation).unwrap_or(core::cmp::Ordering::Equal)
        })?;
        let n = *n;
        let dup2 = dup * dup;
        let mut kept: ContactList<N, D, U> = SmallVec::new();
        for (c, m) in &self.list {
            if m.dot(&n) < N::lit(SHARED_NORMAL_COS) {
                continue;
            }
            let mut c = *c;
            c.separation = (c.point_b - c.point_a).dot(&n);
            match kept.iter_mut().find(|k| (k.point_b - c.point_b).norm_squared() <= dup2) {
                Some(k) if c.separation < k.separation => *k = c,
                Some(_) => {}
                None => kept.push(c),
            }
        }
        Some((n, kept))
    }
}

impl<N: Scalar, U: Copy + Default> Merge<N, 3, U> {
    /// Up to four contacts, those that touch (separation up to `dup`) first: four or more of
    /// them reduced by [`reduce_to_four`], which keeps the deepest and the largest area; fewer
    /// kept with the shallowest of the others (`band` is the 2D reduction's; four points need
    /// none).
    fn finish(&self, dup: N, _band: N) -> Manifold<N, 3, U> {
        let Some((n, mut kept)) = self.shared(dup) else {
            return Manifold::new();
        };
        let mut m = Manifold::with_normal(n);
        // The touching contacts hold the body, so they come first: four or more are reduced
        // among themselves, and fewer are kept whole with the shallowest of the others (the
        // next to touch). The area rule over all of them would prefer speculative points far
        // apart to deep ones close together: a compound lying on a mesh kept one deep contact
        // of a dozen, and sank.
        kept.sort_by_key(|c| c.separation > dup);
        let touching = kept.iter().take_while(|c| c.separation <= dup).count();
        kept[touching..].sort_by(|x, y| {
            x.separation.partial_cmp(&y.separation).unwrap_or(core::cmp::Ordering::Equal)
        });
        let mut idx = [0usize; 4];
        let k = if touching >= 4 {
            reduce_to_four(&kept[..touching], &n, &mut idx)
        } else if touching > 0 {
            let k = kept.len().min(4);
            for (slot, i) in idx.iter_mut().zip(0..k) {
                *slot = i;
            }
            k
        } else {
            reduce_to_four(&kept, &n, &mut idx)
        };
        for &i in &idx[..k] {
            m.push(kept[i]);
        }
        m
    }
}

impl<N: Scalar, U: Copy + Default> Merge<N, 2, U> {
    /// Two contacts: the ends of the span along the contact line of the contacts within `band`
    /// of the deepest, so that a body resting across several pieces is held at both ends; when
    /// the deepest stands alone, it and the contact farthest from it.
    fn finish(&self, dup: N, band: N) -> Manifold<N, 2, U> {
        let Some((n, kept)) = self.shared(dup) else {
            return Manifold::new();
        };
        let deepest = arg_best(0..kept.len(), |i| -kept[i].separation).unwrap_or(0);
        let t = Vector::<N, 2>::new(-n.y, n.x);
        let at = |i: usize| (kept[i].midpoint() - kept[deepest].midpoint()).dot(&t);
        let touching =
            || (0..kept.len()).filter(|&i| kept[i].separation <= kept[deepest].separation + band);
        let (lo, hi) = (arg_best(touching(), |i| -at(i)), arg_best(touching(), at));
        let (first, second) = match (lo, hi) {
            (Some(lo), Some(hi)) if at(hi) - at(lo) > dup => (lo, Some(hi)),
            _ => {
                let far = arg_best((0..kept.len()).filter(|&i| i != deepest), |i| at(i).abs());
                (deepest, far.filter(|&i| at(i).abs() > dup))
            }
        };
        let mut m = Manifold::with_normal(n);
        m.push(kept[first]);
        if let Some(i) = second {
            m.push(kept[i]);
        }
        m
    }
}

/// The item of `items` with the largest `key` (the first of equals); `None` for none.
fn arg_best<N: Scalar>(
    items: impl Iterator<Item = usize>,
    key: impl Fn(usize) -> N,
) -> Option<usize> {
    items.fold(None, |best, i| match best {
        Some(b) if key(b) >= key(i) => Some(b),
        _ => Some(i),
    })
}

/// The distance below which two contact points count as one: a ten-thousandth of the shape's
/// size (the clipping slack of `face_clip`).
fn duplicate_distance<N: Scalar>(size: N) -> N {
    N::lit(1e-4) * size.max_of(N::lit(1e-3))
}

/// How much shallower than the deepest contact a contact may be and still count as touching
/// for the 2D reduction: a hundredth of B's size.
fn touching_band<N: Scalar>(size: N) -> N {
    N::lit(1e-2) * size
}

/// B's feature facing the local direction `dir` (B's frame), its points mapped by `to_a`:
/// points, their ids, the edge ids and the feature's id. A capsule's or segment's feature is its
/// whole axis (as in `contact_convex`), so a capsule lying almost flat gets two contacts.
fn incident_feature<N: Scalar>(
    b: &Shape3<N>,
    dir: &Vec3<N>,
    to_a: &Iso3<N>,
) -> (Points<N>, Ids, Ids, FeatureId) {
    let mut f = SupportFeature::new();
    match b {
        Shape3::Capsule(c) => {
            f.reset(FeatureId::Edge(0));
            f.push(c.segment().a(), FeatureId::Vertex(0));
            f.push(c.segment().b(), FeatureId::Vertex(1));
        }
        Shape3::Segment(s) => {
            f.reset(FeatureId::Edge(0));
            f.push(s.a(), FeatureId::Vertex(0));
            f.push(s.b(), FeatureId::Vertex(1));
        }
        _ => b.local_support_feature(dir, &mut f),
    }
    let n = f.vertices.len();
    let points = f.vertices.iter().map(|p| to_a * p).collect();
    let ids = (0..n)
        .map(|k| match f.vertex_ids[k] {
            FeatureId::Unknown => FeatureId::Vertex(GENERATED + k as u32),
            id => id,
        })
        .collect();
    let edges = if n == 2 {
        SmallVec::from_elem(f.id, 1)
    } else {
        (0..n).map(|k| FeatureId::Edge(GENERATED + k as u32)).collect()
    };
    (points, ids, edges, f.id)
}

/// Every edge of a triangle active: the internal-edge rule never applies.
const ALL_ACTIVE: u8 = 0b111;

/// The internal-edge rule for a manifold `m` (world) of a triangle piece `tri` (corners in the
/// composite's frame, composite at `pos_a`) and B: `m` left as it is when it comes from the face
/// or an active edge or vertex; otherwise replaced by B's feature facing the triangle clipped
/// against the triangle's prism along the face normal, unless nothing of it lies over the
/// triangle.
fn surface_manifold<N: Scalar, U: Copy + Default>(
    tri: &[Point3<N>; 3],
    active: u8,
    m: &mut Manifold<N, 3, U>,
    pos_a: &Iso3<N>,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
) {
    if active & ALL_ACTIVE == ALL_ACTIVE {
        return;
    }
    let n = pos_a.inverse_transform_vector(&m.normal);
    let raw = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).normalize();
    let nf = match b.centre_of_symmetry() {
        Some(c) => {
            let centre = pos_a.inverse_transform_point(&(pos_b * c)).coords;
            face_normal_towards(raw, &tri[0].coords, |_| centre)
        }
        None => {
            let pos_ab = pos_a.inv_compose(pos_b);
            face_normal_towards(raw, &tri[0].coords, |v| b.support_point(&pos_ab, &v).coords)
        }
    };
    let up = nf == raw;
    if n.dot(&nf) >= N::lit(FACE_COS) {
        return;
    }
    let Some(deepest) = m.contacts().iter().min_by(|x, y| {
        x.separation.partial_cmp(&y.separation).unwrap_or(core::cmp::Ordering::Equal)
    }) else {
        return;
    };
    let t = tri.map(|p| p.coords);
    let w = barycentric(&pos_a.inverse_transform_point(&deepest.point_a).coords, &t);
    match feature_is_active(&w, active) {
        None | Some(true) => return,
        Some(false) => {}
    }
    let pos_ab = pos_a.inv_compose(pos_b);
    let prism = Prism::new(tri, up, b, &pos_ab, nf);
    if beyond_a_side(&prism.corners, &nf, &prism.points, prism.slack) {
        // Nothing of B over the triangle: the piece's own contact stays (see the module docs).
        return;
    }
    let cands = prism.clip::<U>(b.radius(), margin);
    if !cands.list.is_empty() {
        *m = to_world(cands.into_manifold(nf), pos_a);
    }
}

/// A triangle as the reference face of the internal-edge rule, and B's feature facing it, in
/// the composite's frame.
struct Prism<N: Scalar> {
    /// The corners, counter-clockwise about `normal`, with their ids and the edges' ids.
    corners: [Point3<N>; 3],
    corner_ids: [FeatureId; 3],
    edge_ids: [FeatureId; 3],
    /// The face normal, towards B.
    normal: Vec3<N>,
    /// B's feature: points, their ids, its edges' ids and its own id.
    points: Points<N>,
    ids: Ids,
    edges: Ids,
    id: FeatureId,
    /// The clipping slack (see `face_clip`).
    slack: N,
}

impl<N: Scalar> Prism<N> {
    /// The triangle `tri` with face normal `nf` (`up` when `nf` is `tri`'s counter-clockwise
    /// normal) and B's feature facing it, B at `pos_ab` in the triangle's frame.
    fn new(tri: &[Point3<N>; 3], up: bool, b: &Shape3<N>, pos_ab: &Iso3<N>, nf: Vec3<N>) -> Self {
        // Its face id is not used: the rule names the triangle's face `Face(0)` from either side.
        let (order, sides, _) = triangle_side(up);
        let (points, ids, edges, id) =
            incident_feature(b, &pos_ab.inverse_transform_vector(&-nf), pos_ab);
        let size = (tri[1] - tri[0]).norm().max_of((tri[2] - tri[0]).norm());
        Self {
            corners: order.map(|k| tri[k]),
            corner_ids: order.map(|k| FeatureId::Vertex(k as u32)),
            edge_ids: sides.map(|k| FeatureId::Edge(k as u32)),
            normal: nf,
            points,
            ids,
            edges,
            id,
            slack: duplicate_distance(size),
        }
    }

    /// B's feature (of rounding `radius`) clipped to the prism, contacts up to `margin`.
    fn clip<U: Copy + Default>(&self, radius: N, margin: N) -> Candidates<N, U> {
        let reference = ReferenceFace {
            vertices: &self.corners,
            vertex_ids: &self.corner_ids,
            edge_ids: &self.edge_ids,
            normal: self.normal,
            id: FeatureId::Face(0),
            radius: N::zero(),
        };
        let incident = IncidentFeature {
            vertices: &self.points,
            vertex_ids: &self.ids,
            edge_ids: &self.edges,
            id: self.id,
            radius,
        };
        let mut cands = Candidates::new();
        clip_reference_face(&reference, &incident, &self.normal, margin, self.slack, &mut cands);
        cands
    }
}

/// Whether every point of `points` lies more than `slack` beyond one side plane of the prism
/// over the triangle `tri` (counter-clockwise about `nf`) along `nf`: clipping them to the
/// prism, with side planes moved out by up to `slack`, would leave nothing. Rejects most of the
/// internal-edge rule's cases (B beside the triangle, touching its edge) before the clip.
fn beyond_a_side<N: Scalar>(
    tri: &[Point3<N>; 3],
    nf: &Vec3<N>,
    points: &[Point3<N>],
    slack: N,
) -> bool {
    (0..3).any(|k| {
        let a = tri[k];
        let out = (tri[(k + 1) % 3] - a).cross(nf);
        let limit = slack * out.norm();
        points.iter().all(|p| out.dot(&(p - a)) > limit)
    })
}

/// The contact manifold of a composite A (a heightfield, a compound) at `pos_a` and a convex
/// shape B at `pos_b`, with contacts up to `margin` apart, in world coordinates: each piece's
/// [`crate::manifold3`] under B's box, the internal-edge rule on triangle pieces, merged and
/// reduced to four (see the module docs of `composite`). The normal points from the composite to
/// B; A's feature ids carry the piece index.
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::{Cuboid, HeightField, Shape3};
/// use kollide_narrowphase::composite::composite_manifold3;
/// let field = HeightField::new(9, 9, vec![0.0f64; 81], Vec3::new(8.0, 1.0, 8.0)).unwrap();
/// let crate_: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap().into();
/// let m = composite_manifold3::<f64, (), _>(&Iso3::identity(), &field,
///                                           &Iso3::translation(0.2, 0.49, 0.1), &crate_, 0.0);
/// assert_eq!(m.len(), 4);
/// assert!((m.normal - Vec3::y()).norm() < 1e-12);
/// ```
pub fn composite_manifold3<N, U, C>(
    pos_a: &Iso3<N>,
    a: &C,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
) -> Manifold<N, 3, U>
where
    N: Scalar,
    U: Copy + Default,
    C: CompositeShape<N, 3, Pose = Iso3<N>> + ?Sized,
    C::Piece: Piece3<N>,
{
    let mut merge = Merge::new();
    collect3(pos_a, a, pos_b, b, margin, &mut merge, |id| id);
    merge.finish(duplicate_distance(b.bounding_radius()), touching_band(b.bounding_radius()))
}

/// Pushes the pieces' manifolds against `b` into `merge`, B's ids mapped by `tag_b`.
fn collect3<N, U, C>(
    pos_a: &Iso3<N>,
    a: &C,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
    merge: &mut Merge<N, 3, U>,
    tag_b: impl Fn(FeatureId) -> FeatureId + Copy,
) where
    N: Scalar,
    U: Copy + Default,
    C: CompositeShape<N, 3, Pose = Iso3<N>> + ?Sized,
    C::Piece: Piece3<N>,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let query = b.aabb(&pos_ab).loosened(margin.max_of(N::zero()).min_of(N::MAX_SIZE));
    let _ = a.visit_pieces_in(&query, |i, own, piece| {
        let pose = piece_pose(pos_a, own);
        let mut m = match (b, piece.surface_triangle()) {
            // A ball against a triangle: one contact, in closed form.
            (Shape3::Ball(ball), Some(tri)) => {
                let t = tri.map(|p| (pose * p).coords);
                let centre = pos_b.translation.vector;
                let r = ball.radius();
                match point_triangle_contact(&t, &centre, r, margin) {
                    Some((q, n, sep, feature)) => {
                        let mut m = Manifold::with_normal(n);
                        let id = ContactId::new(feature, FeatureId::Face(0));
                        m.push(Contact::new(
                            Point3::from(q),
                            Point3::from(centre - n * r),
                            sep,
                            id,
                        ));
                        m
                    }
                    None => Manifold::new(),
                }
            }
            // A box's SAT and a capsule's routine test the triangle's plane first themselves.
            (Shape3::Cuboid(_) | Shape3::Capsule(_), Some(_)) => {
                piece.manifold::<U>(&pose, pos_b, b, margin)
            }
            _ if beyond_plane(piece, &pose, pos_b, b, margin) => Manifold::new(),
            _ => piece.manifold::<U>(&pose, pos_b, b, margin),
        };
        if m.is_empty() {
            return ControlFlow::Continue(());
        }
        if let (Some(tri), Some(active)) = (piece.surface_triangle(), a.active_edges(i)) {
            let local = own.map_or(tri, |p| tri.map(|v| p * v));
            surface_manifold(&local, active, &mut m, pos_a, pos_b, b, margin);
        }
        merge.push(&m, |id| piece_feature::<N, 3, C>(i, id), tag_b);
        ControlFlow::Continue(())
    });
}

/// The contact manifold of a 2D composite A (a compound, a chain) at `pos_a` and a convex shape
/// B: each piece's [`crate::manifold2`] under B's box, the one-sided and internal-vertex rules on
/// chain segments (see `chain.rs`), merged and reduced to two (the deepest and the one farthest
/// from it). The normal points from the composite to B.
pub fn composite_manifold2<N, U, C>(
    pos_a: &Iso2<N>,
    a: &C,
    pos_b: &Iso2<N>,
    b: &Shape2<N>,
    margin: N,
) -> Manifold<N, 2, U>
where
    N: Scalar,
    U: Copy + Default,
    C: CompositeShape<N, 2, Pose = Iso2<N>> + ?Sized,
    C::Piece: Piece2<N>,
{
    let mut merge = Merge::new();
    collect2(pos_a, a, pos_b, b, margin, &mut merge, |id| id);
    merge.finish(duplicate_distance(b.bounding_radius()), touching_band(b.bounding_radius()))
}

fn collect2<N, U, C>(
    pos_a: &Iso2<N>,
    a: &C,
    pos_b: &Iso2<N>,
    b: &Shape2<N>,
    margin: N,
    merge: &mut Merge<N, 2, U>,
    tag_b: impl Fn(FeatureId) -> FeatureId + Copy,
) where
    N: Scalar,
    U: Copy + Default,
    C: CompositeShape<N, 2, Pose = Iso2<N>> + ?Sized,
    C::Piece: Piece2<N>,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let query = b.aabb(&pos_ab).loosened(margin.max_of(N::zero()).min_of(N::MAX_SIZE));
    let _ = a.visit_pieces_in(&query, |i, own, piece| {
        let pose = piece_pose(pos_a, own);
        let mut m = piece.manifold::<U>(&pose, pos_b, b, margin);
        if let (Some(seg), Some(active)) = (piece.surface_segment(), a.active_edges(i))
            && !m.is_empty()
        {
            m = chain_manifold(&seg.map(|p| pose * p), active, m, pos_b, b, margin);
        }
        merge.push(&m, |id| piece_feature::<N, 2, C>(i, id), tag_b);
        ControlFlow::Continue(())
    });
}

macro_rules! pair_manifold {
    ($name:ident, $d:literal, $iso:ident, $piece:ident, $collect:ident, $what:literal) => {
        #[doc = concat!("The manifold of two ", $what, " composites (compounds, and level")]
        /// geometry on the A side): every piece of B whose box overlaps A's (within the margin)
        /// against A as [`composite_manifold3`]/[`composite_manifold2`] would take it, merged
        /// and reduced. Both sides' feature ids carry their piece's index. B's pieces take the
        /// place of a convex shape, so B's own surface rules (one-sided chain segments, internal
        /// edges) do not apply to them: put level geometry on the A side.
        pub fn $name<N, U, CA, CB>(
            pos_a: &$iso<N>,
            a: &CA,
            pos_b: &$iso<N>,
            b: &CB,
            margin: N,
        ) -> Manifold<N, $d, U>
        where
            N: Scalar,
            U: Copy + Default,
            CA: CompositeShape<N, $d, Pose = $iso<N>> + ?Sized,
            CA::Piece: $piece<N>,
            CB: CompositeShape<N, $d, Pose = $iso<N>> + ?Sized,
            CB::Piece: $piece<N>,
        {
            let mut merge = Merge::new();
            let pos_ba = pos_b.inv_compose(pos_a);
            let a_in_b = placed_aabb(&a.local_aabb(), &pos_ba).loosened(margin.max_of(N::zero()));
            let mut size = N::zero();
            let _ = b.visit_pieces_in(&a_in_b, |j, own, piece| {
                let child = piece.as_shape();
                size = size.max_of(child.bounding_radius());
                let world = piece_pose(pos_b, own);
                $collect(pos_a, a, &world, &child, margin, &mut merge, |id| {
                    piece_feature::<N, $d, CB>(j, id)
                });
                ControlFlow::Continue(())
            });
            merge.finish(duplicate_distance(size), touching_band(size))
        }
    };
}

pair_manifold!(compound_manifold3, 3, Iso3, Piece3, collect3, "3D");
pair_manifold!(compound_manifold2, 2, Iso2, Piece2, collect2, "2D");

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_shapes::{Ball, Capsule, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::manifold::random_unit3 as unit;

    /// The merged manifold keeps the contacts that touch: six touching contacts close together
    /// and four speculative ones far apart give four touching ones (the area rule over all ten
    /// took the deepest and three speculative corners); with two touching, both are kept with
    /// the two shallowest of the others.
    #[test]
    fn a_merged_manifold_keeps_the_touching_contacts() {
        let contact = |x: f64, z: f64, sep: f64, id: u32| {
            let a = Point3::new(x, 0.0, z);
            let id = ContactId::new(FeatureId::Face(id), FeatureId::Vertex(id));
            Contact::<f64, 3, ()>::new(a, a + Vec3::y() * sep, sep, id)
        };
        let merged = |list: &[Contact<f64, 3, ()>]| {
            let mut merge = Merge::new();
            for c in list {
                let mut m = Manifold::with_normal(Vec3::y());
                m.push(*c);
                merge.push(&m, |id| id, |id| id);
            }
            merge.finish(1e-4, 1e-2)
        };
        let near = (0..6).map(|k| contact(0.1 * (k % 3) as f64, 0.1 * (k / 3) as f64, -0.01, k));
        let far = [(-3.0, -3.0), (3.0, -3.0), (3.0, 3.0), (-3.0, 3.0)];
        let far = far.iter().enumerate().map(|(k, &(x, z))| contact(x, z, 0.005, 10 + k as u32));
        let m = merged(&near.clone().chain(far.clone()).collect::<Vec<_>>());
        assert_eq!(m.len(), 4);
        assert!(m.contacts().iter().all(|c| c.separation < 0.0), "{:?}", m.contacts());
        let few = near.take(2).chain(far.enumerate().map(|(k, mut c)| {
            c.separation += 0.001 * k as f64;
            c.point_b = c.point_a + Vec3::y() * c.separation;
            c
        }));
        let m = merged(&few.collect::<Vec<_>>());
        let mut ids: Vec<_> = m.contacts().iter().map(|c| c.id.a).collect();
        ids.sort_by_key(|id| format!("{id:?}"));
        let expected = [0, 1, 10, 11].map(FeatureId::Face);
        assert_eq!(ids.len(), 4);
        assert!(expected.iter().all(|e| ids.contains(e)), "{ids:?}");
    }

    /// The prism test only rejects what the clip leaves empty. Random triangles, and a ball, a
    /// box and a capsule near a random point of an edge, tilted at random or (a third of the
    /// boxes) resting flat on the face, where the clip has its slack: every rejected feature
    /// clipped anyway (with any margin) gives no contact. Balls are also put within a few
    /// slacks of a side plane. A test that never rejects could not fail: more than a third are.
    #[test]
    fn a_rejected_feature_clips_to_nothing() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x15_9215);
        let shapes: [Shape3<f64>; 3] = [
            Ball::new(0.3).unwrap().into(),
            Cuboid::new(Vec3::new(0.4, 0.2, 0.3)).unwrap().into(),
            Capsule::new_axis(0.5, 0.2).unwrap().into(),
        ];
        let (mut total, mut rejected) = (0, 0);
        for i in 0..9000 {
            let tri: [Point3<f64>; 3] =
                core::array::from_fn(|_| Point3::from(unit(&mut rng) * rng.random_range(0.2..2.0)));
            let cross = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
            if cross.norm() < 1e-2 {
                continue;
            }
            let (up, nf) =
                if i % 2 == 0 { (true, cross.normalize()) } else { (false, -cross.normalize()) };
            let b = &shapes[i % 3];
            let k = rng.random_range(0..3);
            let on_edge = tri[k] + (tri[(k + 1) % 3] - tri[k]) * rng.random_range(0.0..1.0);
            let flat = i % 9 == 1;
            let rotation = if flat {
                let about =
                    kollide_math::Rot3::from_scaled_axis(Vec3::y() * rng.random_range(0.0..6.0));
                kollide_math::Rot3::rotation_between(&Vec3::y(), &nf).unwrap_or_default() * about
            } else {
                kollide_math::Rot3::from_scaled_axis(unit(&mut rng) * rng.random_range(0.0..3.0))
            };
            let offset = if i % 3 == 0 && i % 4 == 0 {
                // A ball's centre a few slacks either side of the edge's side plane.
                let out = (tri[(k + 1) % 3] - tri[k]).cross(&nf).normalize();
                let slack = Prism::new(&tri, up, b, &Iso3::identity(), nf).slack;
                out * (slack * rng.random_range(-3.0..3.0)) + nf * rng.random_range(0.0..0.5)
            } else if flat {
                let along = unit(&mut rng);
                (along - nf * along.dot(&nf)) * rng.random_range(0.0..1.0) + nf * 0.2
            } else {
                unit(&mut rng) * rng.random_range(0.0..1.0)
            };
            let mut pos_b = Iso3::from_parts((on_edge.coords + offset).into(), rotation);
            let mut prism = Prism::new(&tri, up, b, &pos_b, nf);
            if flat {
                // The face's nearest point a few slacks either side of the edge's side plane.
                let out = (tri[(k + 1) % 3] - tri[k]).cross(&nf).normalize();
                let near =
                    prism.points.iter().map(|p| out.dot(&(p - tri[k]))).fold(f64::MAX, f64::min);
                let shift = prism.slack * rng.random_range(-3.0..3.0) - near;
                pos_b.translation.vector += out * shift;
                prism = Prism::new(&tri, up, b, &pos_b, nf);
            }
            total += 1;
            if !beyond_a_side(&prism.corners, &nf, &prism.points, prism.slack) {
                continue;
            }
            rejected += 1;
            let cands = prism.clip::<()>(b.radius(), 1e3);
            assert!(
                cands.list.is_empty(),
                "case {i}: rejected, but the clip kept {:?}",
                cands.list
            );
        }
        assert!(rejected * 3 > total, "{rejected} of {total} rejected");
    }
}
