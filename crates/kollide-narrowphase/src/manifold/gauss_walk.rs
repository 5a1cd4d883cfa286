//! The separating axis test of two convex polyhedra by walking one Gauss map over the other.
//!
//! The all-pairs SAT ([`super::contact_polyhedra`]'s reference) tests every face of A against B's
//! support, every face of B against A's, and every edge pair on the Gauss map: `F·V` and `E_A·E_B`
//! work, quadratic in the size of the hulls. Both questions are really about the *overlay* of
//! the two Gauss maps, and the overlay can be traced in time proportional to its size.
//!
//! **B's Gauss map as regions.** On the unit sphere of directions, vertex `v` of B owns the
//! region of directions `w` for which `v` is B's support point (`w·v ≥ w·v'` for every other
//! vertex, and by convexity for every neighbour `v'`). The border between the regions of two
//! neighbours `v`, `v'` is the arc of their edge, between the normals of its two faces.
//!
//! **Faces of A.** The separation of A's face with normal `u` needs B's support in `−u`: the
//! region `−u` falls in.
//!
//! **Edges of A.** An edge of A (the arc from `u₁` to `u₂`, its faces' normals) and an edge of B
//! build a face of the Minkowski difference `A − B` exactly when the arc `u₁u₂` crosses B's arc
//! negated, that is when the arc from `−u₁` to `−u₂` crosses B's edge arc: when a point moving
//! along it passes from one of the edge's regions into the other (Gregorius, "The Separating
//! Axis Test between Convex Polyhedra", GDC 2013, for the test on the Gauss map).
//!
//! **The walk** ([`walk_arc`]) follows the chord `w(t) = (1 − t)·p + t·q` from `p = −u₁` to
//! `q = −u₂` (the chord and the arc cross the same regions: they are cones from the origin). In
//! the region of `v`, the preference for a neighbour `vₖ` is `gₖ(t) = w(t)·(vₖ − v)`, linear in
//! `t`; the walk leaves `v` at the smallest `t` where some `gₖ` becomes positive, reports that
//! edge as crossed, and goes on from `vₖ`, until no neighbour is preferred at `q`: then `v` is
//! B's support in `q`, which the next walk starts from. Walking every edge of A from a face whose
//! region is known gives B's support for every face of A and every edge pair that forms a
//! Minkowski face, in time proportional to A's edges plus the crossings, instead of
//! `F_A·V_B + E_A·E_B`.
//!
//! **Robustness.** Each preference is the difference of two dot products, so `gₖ` seen from `v`
//! is exactly `−g` seen from `vₖ`, and the walk never steps straight back. A walk ends only where
//! no neighbour is preferred at `q` (B's support there, up to rounding, as a hill climb would
//! find it), and a walk that takes more steps than B has edges (which rounding on a degenerate
//! overlay could cause) is abandoned for the all-pairs test of that one edge and a climb to
//! `q`'s support. A's edges whose two normals are opposite (a flat hull's rim) have no arc and
//! cross nothing; their second face's support is climbed to.

use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_shapes::ConvexPolyhedron;
use smallvec::{SmallVec, smallvec};

/// Faces of up to this many on the inline storage of a walk (larger hulls allocate their table
/// of supports once per query).
const INLINE_FACES: usize = 128;

/// The result of walking A's Gauss map over B's: A's best face and the best edge pair.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walked<N: Scalar> {
    /// The largest separation over A's face normals and its face.
    pub face: (N, usize),
    /// The best edge pair (separation, edge of A, edge of B, axis in B's frame from A to B);
    /// `None` when no pair forms a Minkowski face, or when pairs were not asked for.
    pub edge: Option<(N, usize, usize, Vec3<N>)>,
    /// Walks abandoned for the all-pairs test of their edge (see the module docs).
    pub fallbacks: usize,
    /// Edges of B crossed by the walks of A's edges: the steps of the edge walks.
    pub crossings: usize,
}

/// What a walk is asked to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// Every face's support and every edge pair.
    FacesAndEdges,
    /// Every face's support only: each face is reached once (a spanning walk).
    Faces,
}

/// Walks `a`'s Gauss map over `b`'s (with `pos_ba` placing A in B's frame); see the module docs.
/// Stops early as soon as one axis separates the shapes by more than `margin`, returning that
/// axis (in B's frame, from A to B) as the error.
pub(crate) fn walk_gauss_maps<N: Scalar>(
    a: &ConvexPolyhedron<N>,
    b: &ConvexPolyhedron<N>,
    pos_ba: &Iso3<N>,
    margin: N,
    want: Want,
) -> Result<Walked<N>, Vec3<N>> {
    let nf = a.num_faces();
    let rot = &pos_ba.rotation;
    let normals: SmallVec<[Vec3<N>; INLINE_FACES]> =
        a.face_normals().iter().map(|n| rot * n.into_inner()).collect();
    // B's support vertex for each face of A (`u32::MAX` until a walk or a climb reaches it),
    // and the faces whose edges have all been walked. Faces are taken breadth first from face
    // 0, each reached by a walk from an earlier one, so only face 0 needs a climb (and any face
    // that the abandoned walks leave unreached).
    let mut support: SmallVec<[u32; INLINE_FACES]> = smallvec![u32::MAX; nf];
    let mut done: SmallVec<[bool; INLINE_FACES]> = smallvec![false; nf];
    let mut queue: SmallVec<[u32; INLINE_FACES]> = SmallVec::with_capacity(nf);
    let centroid = pos_ba * a.vertex_centroid();
    let cap = b.edges().len() + 8;
    let mut out = Walked { face: (-N::MAX, 0), edge: None, fallbacks: 0, crossings: 0 };
    if nf == 0 {
        return Ok(out);
    }
    support[0] = b.climb_support_vertex(&-normals[0], u32::MAX);
    queue.push(0);
    let mut head = 0;
    while head < queue.len() {
        let f = queue[head] as usize;
        head += 1;
        let v0 = pos_ba * a.vertices()[a.face(f)[0] as usize];
        let sep = normals[f].dot(&(b.vertices()[support[f] as usize] - v0));
        // (The lowest index on exact ties, as a scan in face order finds.)
        if sep > out.face.0 || (sep == out.face.0 && f < out.face.1) {
            out.face = (sep, f);
            if sep > margin {
                return Err(normals[f]);
            }
        }
        for &ia in a.face_edges(f) {
            let ea = &a.edges()[ia as usize];
            let g = ea.other_face(f as u32) as usize;
            let skip = match want {
                Want::FacesAndEdges => done[g],
                Want::Faces => support[g] != u32::MAX,
            };
            if skip {
                continue;
            }
            let (p, q) = (-normals[f], -normals[g]);
            let end =
                if p.cross(&q).norm_squared() <= N::EPSILON * N::EPSILON && p.dot(&q) < N::zero() {
                    None // opposite normals: no arc (see the module docs)
                } else if want == Want::Faces {
                    let end = walk_arc(b, &p, &q, support[f], cap, |_| {});
                    out.fallbacks += usize::from(end.is_none());
                    end
                } else {
                    let arc = (normals[ea.faces[0] as usize], normals[ea.faces[1] as usize]);
                    let edge = (ia as usize, arc);
                    walk_edge(a, b, pos_ba, edge, (&p, &q, support[f]), &centroid, &mut out)
                };
            if let Some((sep, _, _, axis)) = out.edge
                && sep > margin
            {
                return Err(axis);
            }
            if support[g] == u32::MAX {
                support[g] = end.unwrap_or_else(|| b.climb_support_vertex(&q, support[f]));
                queue.push(g as u32);
            }
        }
        done[f] = true;
    }
    Ok(out)
}

/// Walks edge `ia` of A (its faces' normals `arc` in B's frame) from `p` (in the region of
/// vertex `start`) to `q`, offering every edge pair it crosses to `out`; B's support in `q`, or
/// `None` when the walk was abandoned for the all-pairs test of the edge.
fn walk_edge<N: Scalar>(
    a: &ConvexPolyhedron<N>,
    b: &ConvexPolyhedron<N>,
    pos_ba: &Iso3<N>,
    (ia, arc): (usize, (Vec3<N>, Vec3<N>)),
    (p, q, start): (&Vec3<N>, &Vec3<N>, u32),
    centroid: &Point3<N>,
    out: &mut Walked<N>,
) -> Option<u32> {
    let cap = b.edges().len() + 8;
    // A's edge in B's frame, once a crossing needs it.
    let mut edge_a: Option<EdgeInB<N>> = None;
    let (mut best, mut crossings) = (out.edge, 0);
    let end = walk_arc(b, p, q, start, cap, |ib| {
        crossings += 1;
        let e = edge_a.get_or_insert_with(|| EdgeInB::new(a, ia, pos_ba));
        e.pair(b, ib as usize, centroid, &mut best);
    });
    out.crossings += crossings;
    match end {
        Some(_) => out.edge = best,
        None => {
            out.fallbacks += 1;
            let e = EdgeInB::new(a, ia, pos_ba);
            all_pairs_of_edge(&e, arc.0, arc.1, b, centroid, &mut out.edge);
        }
    }
    end
}

/// An edge of A in B's frame: its index, first vertex, direction and length.
struct EdgeInB<N: Scalar> {
    index: usize,
    p1: Point3<N>,
    d: Vec3<N>,
    len: N,
}

impl<N: Scalar> EdgeInB<N> {
    fn new(a: &ConvexPolyhedron<N>, index: usize, pos_ba: &Iso3<N>) -> Self {
        let e = &a.edges()[index];
        let p1 = pos_ba * a.vertices()[e.vertices[0] as usize];
        let p2 = pos_ba * a.vertices()[e.vertices[1] as usize];
        Self { index, p1, d: p2 - p1, len: (p2 - p1).norm() }
    }

    /// Offers the pair of this edge and B's edge `ib` to `best` (their axis and separation, as
    /// [`super::polyhedron_polyhedron::edge_pair_axis`] computes them).
    #[inline]
    fn pair(
        &self,
        b: &ConvexPolyhedron<N>,
        ib: usize,
        centroid: &Point3<N>,
        best: &mut Option<(N, usize, usize, Vec3<N>)>,
    ) {
        let eb = &b.edges()[ib];
        let q1 = b.vertices()[eb.vertices[0] as usize];
        let q2 = b.vertices()[eb.vertices[1] as usize];
        let axis = super::polyhedron_polyhedron::edge_pair_axis(
            &self.p1,
            &self.d,
            self.len,
            &q1,
            &(q2 - q1),
            b.edge_lengths()[ib],
            centroid,
        );
        if let Some((sep, l)) = axis
            && best.is_none_or(|x| sep > x.0)
        {
            *best = Some((sep, self.index, ib, l));
        }
    }
}

/// The all-pairs Gauss-map test of one edge of A (normals `u1`, `u2` in B's frame) against
/// every edge of B: the fallback of an abandoned walk.
fn all_pairs_of_edge<N: Scalar>(
    edge_a: &EdgeInB<N>,
    u1: Vec3<N>,
    u2: Vec3<N>,
    b: &ConvexPolyhedron<N>,
    centroid: &Point3<N>,
    best: &mut Option<(N, usize, usize, Vec3<N>)>,
) {
    let zero = N::zero();
    let b_x_a = u2.cross(&u1);
    for (ib, eb) in b.edges().iter().enumerate() {
        let c = -b.face_normal(eb.faces[0] as usize).into_inner();
        let d = -b.face_normal(eb.faces[1] as usize).into_inner();
        let (cba, dba) = (c.dot(&b_x_a), d.dot(&b_x_a));
        let d_x_c = d.cross(&c);
        let (adc, bdc) = (u1.dot(&d_x_c), u2.dot(&d_x_c));
        if cba * dba < zero && adc * bdc < zero && cba * bdc > zero {
            edge_a.pair(b, ib, centroid, best);
        }
    }
}

/// Walks the arc from `p` to `q` over `b`'s support regions, starting in the region of vertex
/// `start` (B's support in `p`), calling `cross` with every edge of B crossed, in order. Returns
/// B's support vertex in `q`, or `None` when the walk takes more than `cap` steps.
///
/// An arc wider than a right angle is walked in two halves, through its midpoint: the chord
/// of an arc of nearly half a circle (the rim of a thin hull) passes close to the origin, where
/// the signs of the preferences are rounding noise.
#[inline]
pub(crate) fn walk_arc<N: Scalar>(
    b: &ConvexPolyhedron<N>,
    p: &Vec3<N>,
    q: &Vec3<N>,
    start: u32,
    cap: usize,
    mut cross: impl FnMut(u32),
) -> Option<u32> {
    if p.dot(q) < N::zero() {
        let mid = (p + q).normalize();
        let half = walk_chord(b, p, &mid, start, cap, &mut cross)?;
        return walk_chord(b, &mid, q, half, cap, &mut cross);
    }
    walk_chord(b, p, q, start, cap, cross)
}

/// Walks the chord from `p` to `q` (see [`walk_arc`]).
#[inline]
fn walk_chord<N: Scalar>(
    b: &ConvexPolyhedron<N>,
    p: &Vec3<N>,
    q: &Vec3<N>,
    start: u32,
    cap: usize,
    mut cross: impl FnMut(u32),
) -> Option<u32> {
    let verts = b.vertices();
    let zero = N::zero();
    // Dot products written out (in nalgebra's order): this loop is the walk's whole cost, and
    // a generic `dot` is not always inlined into it.
    let dot = |x: &Point3<N>, d: &Vec3<N>| x.x * d.x + x.y * d.y + x.z * d.z;
    let mut v = start as usize;
    let mut t0 = zero;
    for _ in 0..cap {
        let (pv, qv) = (dot(&verts[v], p), dot(&verts[v], q));
        // The neighbour whose preference turns positive first after `t0`, if any does by `q`.
        let (mut exit_t, mut exit_k) = (N::MAX, usize::MAX);
        for (k, &w) in b.vertex_neighbors(v).iter().enumerate() {
            let x = &verts[w as usize];
            let qk = dot(x, q) - qv;
            if qk <= zero {
                continue;
            }
            let pk = dot(x, p) - pv;
            // Preferred at `q`: from the root of `gₖ` on, or already at `t0` (rounding).
            let t = if pk < zero { (-pk / (qk - pk)).max_of(t0) } else { t0 };
            if exit_k == usize::MAX || t < exit_t {
                (exit_t, exit_k) = (t, k);
            }
        }
        if exit_k == usize::MAX {
            return Some(v as u32);
        }
        cross(b.vertex_edges(v)[exit_k]);
        v = b.vertex_neighbors(v)[exit_k] as usize;
        t0 = exit_t;
    }
    None
}
