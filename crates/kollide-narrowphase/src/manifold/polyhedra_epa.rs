//! Two convex polyhedra by GJK/EPA and the features around the contact normal: the separating
//! axis test without the search.
//!
//! The separating axis test of [`super::polyhedron_polyhedron`] searches every face and every
//! edge pair for the axis of least penetration, walking the hulls' Gauss maps. GJK and EPA find
//! that axis from support queries alone, in time that grows with the hulls' sizes only through
//! the hill climbing of each support query. Given EPA's normal `n` (from A to B), the axis
//! belongs to one of three features, all of them at A's support vertex `v_A` along `n` and B's
//! `v_B` along `−n`:
//!
//! * a face of A: near the face around `v_A` whose normal is closest to `n`, or near the face
//!   of A whose normal is closest to `n` overall (the separation over faces is not unimodal: from
//!   each, the best neighbour is climbed to while the separation grows);
//! * a face of B: likewise from `v_B` and against `−n`;
//! * an edge pair: one edge at `v_A` and one at `v_B`, whose cross product is closest to `n`.
//!
//! Each candidate's separation is computed exactly as the full test computes it (B's support
//! along the face normal; the edges' offset along their common perpendicular), and the usual
//! biased choice and clipping ([`super::polyhedron_polyhedron::manifold_of`]) build the
//! manifold. This is what parry does for its polyhedra (GJK/EPA, then the support features
//! clipped), with the full test kept as the proof: EPA's depth is a lower bound on the true
//! depth (its polytope lies inside `A − B`), every candidate's separation a lower bound on the
//! true separation, so a candidate within the tolerance of EPA's answer is the least penetrating
//! axis to that tolerance. When none is (EPA stopped early, a separated pair whose closest
//! features are a vertex and a vertex, rounding), the full test runs instead.
//!
//! **`f32`.** EPA runs in the shapes' own scalar type first. In `f32` its polytope arithmetic
//! can stop "converged" short of its bound on thin hulls, so an `f32` answer is trusted only
//! when the candidates prove it from both sides (the best candidate within the tolerance of
//! EPA's separation, neither below nor above: a candidate above it proves EPA's bound broken);
//! otherwise EPA runs again in `f64` on the same support points, and only then the full test.
//!
//! **Cost.** The candidates are found by local searches, each a few steps from the support
//! vertices: the faces around them and a climb over neighbouring faces to the face whose normal
//! is closest to `n` ([`aligned_face`]); the climbs on separation, which remember each face's
//! separation (a small hull's faces are scanned against the other hull's vertex lanes, a large
//! hull's are climbed to); and the edge pairs at the two vertices, ranked without a root and
//! pruned by how far each edge is from perpendicular to `n` ([`best_edge_pair`]).

use kollide_manifold::Manifold;
use kollide_math::{Iso3, Point3, Pose, Scalar, Tolerances, Vec3};
use kollide_shapes::{ConvexPolyhedron, MinkowskiDifference, SupportMap};
use nalgebra::Rotation3;
use smallvec::SmallVec;

use super::assemble3::bias_tolerance;
use super::polyhedron_polyhedron::{Sat, edge_pair_axis, lowest_along, manifold_of};
use crate::query::{contact_normal, contact_wide};
use crate::{GjkOutcome, QuerySettings, ShapeContact, Status, gjk};

/// What [`contact_polyhedra_epa`] found.
pub(crate) enum EpaManifold<N: Scalar, U> {
    /// GJK proves the shapes farther apart than the margin along this axis (A's frame, from A
    /// to B).
    Apart(Vec3<N>),
    /// The manifold (possibly empty: apart, but not proven by more than the margin).
    Found(Manifold<N, 3, U>),
    /// The candidates do not prove EPA's answer: the full separating axis test must run.
    Unproven,
}

/// The manifold of `a` and `b` from EPA's normal and the features around it (see the module
/// docs).
pub(crate) fn contact_polyhedra_epa<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &ConvexPolyhedron<N>,
    pos_b: &Iso3<N>,
    b: &ConvexPolyhedron<N>,
    margin: N,
) -> EpaManifold<N, U> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let settings = QuerySettings::default();
    let Some(c) = contact_normal(&Iso3::identity(), a, &pos_ab, b, margin, &settings) else {
        return apart(a, b, &pos_ab, margin, &settings);
    };
    let wide = N::EPSILON.to_f64() > 1e-10;
    if let Some(sat) = certified(a, b, &pos_ab, &c, wide) {
        #[cfg(test)]
        paths::count(0);
        return EpaManifold::Found(manifold_of(&sat, pos_a, a, pos_b, b, margin));
    }
    // In `f32`, EPA's polytope arithmetic can stop "converged" short of its guarantee on thin
    // hulls, and the certificate needs that guarantee: `f32` pairs that the `f32` answer does
    // not prove run EPA once more in `f64` (on the same support points).
    if wide
        && let Some(c) = contact_wide(a, b, &pos_ab, margin)
        && let Some(sat) = certified(a, b, &pos_ab, &c, false)
    {
        #[cfg(test)]
        paths::count(1);
        return EpaManifold::Found(manifold_of(&sat, pos_a, a, pos_b, b, margin));
    }
    #[cfg(test)]
    paths::count(2);
    EpaManifold::Unproven
}

#[cfg(test)]
/// How often each way out of [`contact_polyhedra_epa`] was taken on this thread, for the tests
/// to assert that the path they test ran: proven by the answer in the shapes' own scalar type,
/// proven by the `f64` retry of an `f32` pair, unproven.
pub(crate) mod paths {
    use core::cell::Cell;

    thread_local! {
        static TAKEN: Cell<[usize; 3]> = const { Cell::new([0; 3]) };
    }

    pub(crate) fn count(path: usize) {
        TAKEN.with(|t| {
            let mut v = t.get();
            v[path] += 1;
            t.set(v);
        });
    }

    /// The counts so far: `[own scalar, f64 retry, unproven]`.
    pub(crate) fn taken() -> [usize; 3] {
        TAKEN.with(Cell::get)
    }
}

/// The shapes are proven farther apart than the margin: GJK once more for the axis that proves
/// it, which a caller's cache tests first next frame.
#[cold]
fn apart<N: Scalar, U: Copy + Default>(
    a: &ConvexPolyhedron<N>,
    b: &ConvexPolyhedron<N>,
    pos_ab: &Iso3<N>,
    margin: N,
    settings: &QuerySettings<N>,
) -> EpaManifold<N, U> {
    let md = MinkowskiDifference::new(a, b, *pos_ab);
    let g = gjk(&md, &pos_ab.translation.vector, margin, N::zero(), settings);
    match g.outcome {
        GjkOutcome::Separated { v, .. } => (-v)
            .try_normalize(N::zero())
            .map_or(EpaManifold::Found(Manifold::new()), EpaManifold::Apart),
        GjkOutcome::Intersecting => EpaManifold::Found(Manifold::new()),
    }
}

/// The candidates around the normal of the contact `c` (A's frame) when they prove it: EPA's
/// separation is an upper bound on the true one, each candidate's a lower bound, so the best
/// candidate within the tolerance of EPA's answer is the least penetrating axis. With
/// `two_sided` (an answer whose arithmetic may not keep EPA's bound), a candidate better than
/// EPA's answer by more than the tolerance proves that answer wrong and is not trusted either.
fn certified<N: Scalar>(
    a: &ConvexPolyhedron<N>,
    b: &ConvexPolyhedron<N>,
    pos_ab: &Iso3<N>,
    c: &ShapeContact<N, 3>,
    two_sided: bool,
) -> Option<Sat<N>> {
    if c.status != Status::Converged {
        return None;
    }
    let sat = candidates(a, b, pos_ab, &c.normal)?;
    let best = sat.edge.map_or(sat.face_a.0.max_of(sat.face_b.0), |e| {
        e.0.max_of(sat.face_a.0).max_of(sat.face_b.0)
    });
    let tol = certificate_tolerance(a, b);
    let proven = best >= c.separation - tol && (!two_sided || best <= c.separation + tol);
    proven.then_some(sat)
}

/// How far a candidate's separation may differ from a separation measured on the vertices
/// (EPA's, or the gap of the support points along an edge pair's axis) and still be taken as
/// the same: a hundredth of the bias tolerance, plus what the faces' planes leave open.
///
/// EPA and the support gap measure the hull of the vertices; the candidates, like the full
/// test, measure against the stored faces, whose planes hold their vertices only to the faces'
/// flatness ([`ConvexPolyhedron::face_flatness`]: triangles merged within the hull's
/// tolerance). A face of either shape can be off by its flatness, and so can the plane of the
/// facet hidden inside a merged face that EPA found: twice the sum.
fn certificate_tolerance<N: Scalar>(a: &ConvexPolyhedron<N>, b: &ConvexPolyhedron<N>) -> N {
    let flatness = (a.face_flatness() + b.face_flatness()) * N::lit(2.0);
    bias_tolerance(a.bounding_radius(), b.bounding_radius()) * N::lit(1e-2) + flatness
}

/// The best face of A and of B and the best edge pair around the support vertices along the
/// normal `n` (A's frame, from A to B), with their separations, as the separating axis test
/// reports them.
pub(crate) fn candidates<N: Scalar>(
    a: &ConvexPolyhedron<N>,
    b: &ConvexPolyhedron<N>,
    pos_ab: &Iso3<N>,
    n: &Vec3<N>,
) -> Option<Sat<N>> {
    let pos_ba = pos_ab.inverse();
    let nb = pos_ba.rotation * *n;
    let va = support_vertex(a, n) as usize;
    let vb = support_vertex(b, &-nb) as usize;
    let (start_a, start_b) = (best_face(a, va, n)?, best_face(b, vb, &-nb)?);
    let face_a = climb_faces(a, [start_a, aligned_face(a, start_a, n)], b, pos_ab);
    let face_b = climb_faces(b, [start_b, aligned_face(b, start_b, &-nb)], a, &pos_ba);
    let faces = face_a.0.max_of(face_b.0);
    let edge = best_edge_pair(a, va, b, vb, &pos_ba, &nb).filter(|&(sep, _, _, l)| {
        // The pair is an edge contact only if its edges are the support features along its
        // axis (their arcs cross on the Gauss map): then the gap of the supports along the axis
        // is the edges' offset. A pair no better than the faces is neither picked nor the
        // largest separation ([`manifold_of`]), whatever it is: it needs no check.
        if sep <= faces {
            return true;
        }
        let gap = support_gap(a, b, pos_ab, &(pos_ab.rotation * l));
        (gap - sep).abs() <= certificate_tolerance(a, b)
    });
    Some(Sat { face_a, face_b, edge })
}

/// `min_B l·x − max_A l·x` for the unit axis `l` (A's frame, from A to B).
fn support_gap<N: Scalar>(
    a: &ConvexPolyhedron<N>,
    b: &ConvexPolyhedron<N>,
    pos_ab: &Iso3<N>,
    l: &Vec3<N>,
) -> N {
    let va = support_vertex(a, l) as usize;
    let vb = support_vertex(b, &-pos_ab.inverse_transform_vector(l)) as usize;
    l.dot(&(pos_ab * b.vertices()[vb] - a.vertices()[va]))
}

/// The support vertex of `p` along `dir`: scanned on a small hull, climbed on a large one.
#[inline]
fn support_vertex<N: Scalar>(p: &ConvexPolyhedron<N>, dir: &Vec3<N>) -> u32 {
    if p.vertices().len() <= SCAN_UP_TO {
        p.support_vertex(dir)
    } else {
        p.climb_support_vertex(dir, u32::MAX)
    }
}

/// The face around vertex `v` of `p` whose normal is closest to `dir`.
pub(crate) fn best_face<N: Scalar>(
    p: &ConvexPolyhedron<N>,
    v: usize,
    dir: &Vec3<N>,
) -> Option<usize> {
    let mut best: Option<(N, usize)> = None;
    for &e in p.vertex_edges(v) {
        for f in p.edges()[e as usize].faces {
            let d = p.face_normal(f as usize).dot(dir);
            if best.is_none_or(|(bd, _)| d > bd) {
                best = Some((d, f as usize));
            }
        }
    }
    best.map(|(_, f)| f)
}

/// The face of `p` whose normal is closest to `dir`, climbing from face `start` to the
/// neighbour (across an edge) whose normal is closer while one is. From the face around the
/// support vertex along `dir` ([`best_face`]) this is a step or two; it stands in for the scan
/// over every face ([`ConvexPolyhedron::support_face`]), which it matches unless the Gauss map
/// has a local maximum of `normal · dir` away from the global one (then the face it stops at
/// is still nearly as close, and only a starting point).
pub(crate) fn aligned_face<N: Scalar>(
    p: &ConvexPolyhedron<N>,
    start: usize,
    dir: &Vec3<N>,
) -> usize {
    let (mut face, mut best) = (start, p.face_normal(start).dot(dir));
    for _ in 0..p.num_faces() {
        let here = face;
        for &e in p.face_edges(here) {
            let g = p.edges()[e as usize].other_face(here as u32) as usize;
            let d = p.face_normal(g).dot(dir);
            if d > best {
                (face, best) = (g, d);
            }
        }
        if face == here {
            break;
        }
    }
    face
}

/// The face with the larger separation (the first on ties).
fn best_of<N: Scalar>(x: (N, usize), y: (N, usize)) -> (N, usize) {
    if y.0 > x.0 { y } else { x }
}

/// Hulls of up to this many vertices are scanned for a support vertex (a few instructions per
/// vertex, in lanes) rather than climbed (a few hundred per climb, whatever the size).
const SCAN_UP_TO: usize = 64;

/// How many faces' separations [`climb_faces`] keeps for revisits.
const SEEN_FACES: usize = 32;

/// Most steps [`climb_faces`] takes (each a scan of the other hull per neighbouring face).
const MAX_FACE_STEPS: usize = 16;

/// The face of `p` with the largest separation of `other` (placed by `pos` in `p`'s frame)
/// found by climbing from face `start` to the best neighbour (across an edge) while the
/// separation grows. The separating axis test takes the best over every face; near EPA's
/// normal the best face is at most a few faces away, and the biased choice between the axes
/// must see the same face the full test sees (on a thin hull the face around the support
/// vertex can be a near-tie that a clipped manifold answers more shallowly).
fn climb_faces<N: Scalar>(
    p: &ConvexPolyhedron<N>,
    starts: [usize; 2],
    other: &ConvexPolyhedron<N>,
    pos: &Iso3<N>,
) -> (N, usize) {
    // The first faces' separations are kept: the climbs revisit faces (the face they came
    // from, the faces around a vertex, the other climb's path). Any face seen before is no
    // better than the best so far, so a revisit never changes the path, only saves the scan.
    // The list stops growing when full: a face with hundreds of edges (a cylinder hull's cap)
    // would make each lookup a long search and the list spill to the heap, where a scan from a
    // neighbour's deepest vertex costs a few steps.
    let mut seen: SmallVec<[(usize, N, u32); SEEN_FACES]> = SmallVec::new();
    // (The rotation as a matrix: a third of the arithmetic of the quaternion's, per face.)
    let rot = pos.rotation.to_rotation_matrix();
    let mut separation = |f: usize, hint: u32| {
        if let Some(&(_, sep, v)) = seen.iter().find(|x| x.0 == f) {
            return (sep, v);
        }
        let (sep, v) = face_separation(p, f, other, (pos, &rot), hint);
        if seen.len() < SEEN_FACES {
            seen.push((f, sep, v));
        }
        (sep, v)
    };
    let mut climbs = starts.map(|start| {
        let (sep, hint) = separation(start, u32::MAX);
        (sep, start, hint)
    });
    // (Two climbs from one face would take the same path.)
    let distinct = if starts[0] == starts[1] { 1 } else { 2 };
    for climb in &mut climbs[..distinct] {
        let (mut best, mut hint) = ((climb.0, climb.1), climb.2);
        for _ in 0..MAX_FACE_STEPS {
            let here = best.1;
            // Neighbouring faces have nearby deepest vertices, and so do faces next to each
            // other around this one: each climb starts at the previous neighbour's deepest
            // vertex. (Starting every climb at this face's would walk half the other hull per
            // neighbour around a large face, such as a cylinder hull's cap.)
            let mut from = hint;
            for &e in p.face_edges(here) {
                let [f0, f1] = p.edges()[e as usize].faces;
                let f = if f0 as usize == here { f1 } else { f0 } as usize;
                let (sep, v) = separation(f, from);
                from = v;
                if sep > best.0 {
                    (best, hint) = ((sep, f), v);
                }
            }
            if best.1 == here {
                break;
            }
        }
        (climb.0, climb.1) = best;
    }
    best_of((climbs[0].0, climbs[0].1), (climbs[1].0, climbs[1].1))
}

/// The separation of `other` (placed by `pos`, in `p`'s frame) along the normal of face `face`
/// of `p`: how far `other`'s deepest vertex lies in front of the face's plane; with that vertex
/// (found by climbing from `hint`).
fn face_separation<N: Scalar>(
    p: &ConvexPolyhedron<N>,
    face: usize,
    other: &ConvexPolyhedron<N>,
    (pos, rot): (&Iso3<N>, &Rotation3<N>),
    hint: u32,
) -> (N, u32) {
    let n = p.face_normal(face).into_inner();
    let n_other = rot.inverse_transform_vector(&n);
    let corner = p.vertices()[p.face(face)[0] as usize];
    if other.vertices().len() <= SCAN_UP_TO {
        // (The separation as the full test's face scan computes it, up to the rounding of the
        // rotation, which is a matrix here.)
        let lowest = lowest_along(other, &n_other);
        return (lowest + pos.translation.vector.dot(&n) - n.dot(&corner.coords), hint);
    }
    let deepest = other.climb_support_vertex(&-n_other, hint);
    let q = pos * other.vertices()[deepest as usize];
    (n.dot(&(q - corner)), deepest)
}

/// An edge at a support vertex, for [`best_edge_pair`]: the squared cosine `c²` of its direction
/// with the normal, its first vertex, its direction and length (in B's frame), and its index.
type EdgeNearNormal<N> = (N, Point3<N>, Vec3<N>, N, usize);

/// The edge pair, one edge at vertex `va` of A and one at `vb` of B, whose common perpendicular
/// is closest to the normal (`nb`, in B's frame), with its separation and axis (B's frame, from
/// A to B) as the separating axis test reports an edge pair. `None` when every pair is parallel.
///
/// The pairs are ranked by the signed square of their axis's cosine with the normal,
/// `(l·n)|l·n| / |l|²` for the unnormalised axis `l` oriented as [`edge_pair_axis`] orients it
/// (the cosine's order, without a root or a division per pair), and only the best pair's axis
/// and separation are computed. Most pairs are not even ranked: the axis is perpendicular to
/// both edges, so an edge that makes the cosine `c` with the normal bounds the axis's squared
/// cosine by `1 − c²`. The edges are taken in order of `c²` on each side, and the search stops
/// where they cannot beat the best pair so far.
fn best_edge_pair<N: Scalar>(
    a: &ConvexPolyhedron<N>,
    va: usize,
    b: &ConvexPolyhedron<N>,
    vb: usize,
    pos_ba: &Iso3<N>,
    nb: &Vec3<N>,
) -> Option<(N, usize, usize, Vec3<N>)> {
    let centroid = pos_ba * a.vertex_centroid();
    let parallel = Tolerances::<N>::default().parallel_cosine;
    let lengths_b = b.edge_lengths();
    let squared_cosine = |d: &Vec3<N>, len: N| {
        let c = d.dot(nb);
        c * c / (len * len)
    };
    let mut edges_a: SmallVec<[EdgeNearNormal<N>; 16]> = a
        .vertex_edges(va)
        .iter()
        .map(|&ea| {
            let [i, j] = a.edges()[ea as usize].vertices;
            let p1 = pos_ba * a.vertices()[i as usize];
            let da = pos_ba * a.vertices()[j as usize] - p1;
            let len = a.edge_lengths()[ea as usize];
            (squared_cosine(&da, len), p1, da, len, ea as usize)
        })
        .collect();
    let mut edges_b: SmallVec<[EdgeNearNormal<N>; 16]> = b
        .vertex_edges(vb)
        .iter()
        .map(|&eb| {
            let [k, l] = b.edges()[eb as usize].vertices;
            let q1 = b.vertices()[k as usize];
            let db = b.vertices()[l as usize] - q1;
            let len = lengths_b[eb as usize];
            (squared_cosine(&db, len), q1, db, len, eb as usize)
        })
        .collect();
    let by_cosine = |x: &EdgeNearNormal<N>, y: &EdgeNearNormal<N>| {
        x.0.partial_cmp(&y.0).unwrap_or(core::cmp::Ordering::Equal)
    };
    edges_a.sort_unstable_by(by_cosine);
    edges_b.sort_unstable_by(by_cosine);
    // Pairs whose edges' c² exceed `limit` cannot beat the best; the slack covers the rounding
    // of the ranks and the cosines.
    let slack = N::lit(1e-3);
    let mut limit = N::MAX;
    let mut best: Option<(N, usize, usize)> = None;
    for (ia, &(ca, p1, da, da_len, _)) in edges_a.iter().enumerate() {
        if ca > limit {
            break;
        }
        let outward = p1 - centroid;
        for (ib, &(cb, _, db, db_len, _)) in edges_b.iter().enumerate() {
            if cb > limit {
                break;
            }
            let axis = da.cross(&db);
            let len2 = axis.norm_squared();
            let floor = parallel * da_len * db_len;
            if len2 <= floor * floor {
                continue;
            }
            let along = axis.dot(nb);
            let along = if axis.dot(&outward) < N::zero() { -along } else { along };
            let rank = along * along.abs() / len2;
            if best.is_none_or(|x| rank > x.0) {
                best = Some((rank, ia, ib));
                if rank > N::zero() {
                    limit = N::one() - rank + slack;
                }
            }
        }
    }
    let (_, ia, ib) = best?;
    let (_, p1, da, da_len, ea) = edges_a[ia];
    let (_, q1, db, db_len, eb) = edges_b[ib];
    let (sep, axis) = edge_pair_axis(&p1, &da, da_len, &q1, &db, db_len, &centroid)?;
    Some((sep, ea, eb, axis))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_hull<N: Scalar>(r: &mut ChaCha8Rng, n: usize) -> ConvexPolyhedron<N> {
        loop {
            let pts: Vec<Point3<N>> = (0..n)
                .map(|_| {
                    let x: [f64; 3] = core::array::from_fn(|_| r.random_range(-1.0..1.0));
                    Point3::new(N::lit(x[0]), N::lit(0.8 * x[1]), N::lit(0.6 * x[2]))
                })
                .collect();
            if let Ok(p) = ConvexPolyhedron::from_points(&pts) {
                return p;
            }
        }
    }

    fn random_unit<N: Scalar>(r: &mut ChaCha8Rng) -> Vec3<N> {
        loop {
            let v: [f64; 3] = core::array::from_fn(|_| r.random_range(-1.0..1.0));
            let v = Vec3::new(v[0], v[1], v[2]);
            if v.norm() > 0.1 {
                let v = v.normalize();
                return Vec3::new(N::lit(v.x), N::lit(v.y), N::lit(v.z));
            }
        }
    }

    /// Whether no neighbour of face `f` of `p` has a normal closer to `d`.
    fn locally_best<N: Scalar>(p: &ConvexPolyhedron<N>, f: usize, d: &Vec3<N>) -> bool {
        let here = p.face_normal(f).dot(d);
        p.face_edges(f).iter().all(|&e| {
            let g = p.edges()[e as usize].other_face(f as u32) as usize;
            p.face_normal(g).dot(d) <= here
        })
    }

    /// The climb over neighbouring faces ends on a face at least as close to the direction as
    /// every face around the support vertex, and closer than all its neighbours, on hulls of 8
    /// to 1000 vertices, in `f32` and `f64`; it takes steps (the start is not already the answer
    /// every time), and it almost always ends on the scan's face (the Gauss map of a hull with
    /// long thin faces can hold a local maximum of `normal · dir` away from the global one).
    fn aligned_face_matches_the_scan<N: Scalar>(seed: u64) {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let (mut moved, mut same, mut total) = (0, 0, 0);
        for k in 0..300 {
            let p: ConvexPolyhedron<N> = random_hull(&mut r, [8, 24, 64, 256, 1000][k % 5]);
            for _ in 0..20 {
                let d = random_unit::<N>(&mut r);
                let v = support_vertex(&p, &d) as usize;
                let start = best_face(&p, v, &d).expect("a vertex has faces");
                let climbed = aligned_face(&p, start, &d);
                let dc = p.face_normal(climbed).dot(&d);
                assert!(dc >= p.face_normal(start).dot(&d), "{k}: {climbed} below its start");
                assert!(locally_best(&p, climbed, &d), "{k}: {climbed} has a better neighbour");
                moved += usize::from(climbed != start);
                same += usize::from(climbed == p.support_face(&d));
                total += 1;
            }
        }
        eprintln!("moved {moved}, the scan's face {same} of {total}");
        assert!(moved > 100 && same * 100 > 95 * total, "moved {moved}, same {same} of {total}");
    }

    #[test]
    fn aligned_face_matches_the_scan_f64() {
        aligned_face_matches_the_scan::<f64>(0xa119);
    }

    #[test]
    fn aligned_face_matches_the_scan_f32() {
        aligned_face_matches_the_scan::<f32>(0xa11a);
    }

    /// Every pair of edges at the two vertices ranked by the cosine of its axis with the normal,
    /// without pruning: the pruned search must find a pair as well aligned.
    fn best_edge_pair_unpruned<N: Scalar>(
        a: &ConvexPolyhedron<N>,
        va: usize,
        b: &ConvexPolyhedron<N>,
        vb: usize,
        pos_ba: &Iso3<N>,
        nb: &Vec3<N>,
    ) -> Option<f64> {
        let centroid = pos_ba * a.vertex_centroid();
        let mut best: Option<f64> = None;
        for &ea in a.vertex_edges(va) {
            let [i, j] = a.edges()[ea as usize].vertices;
            let p1 = pos_ba * a.vertices()[i as usize];
            let da = pos_ba * a.vertices()[j as usize] - p1;
            for &eb in b.vertex_edges(vb) {
                let [k, l] = b.edges()[eb as usize].vertices;
                let q1 = b.vertices()[k as usize];
                let db = b.vertices()[l as usize] - q1;
                let len = b.edge_lengths()[eb as usize];
                let a_len = a.edge_lengths()[ea as usize];
                if let Some((_, axis)) = edge_pair_axis(&p1, &da, a_len, &q1, &db, len, &centroid) {
                    let c = axis.dot(nb).to_f64();
                    best = Some(best.map_or(c, |x: f64| x.max(c)));
                }
            }
        }
        best
    }

    /// The pruned edge-pair search finds the best-aligned pair of the plain search (to
    /// rounding), on hulls of 8 to 1000 vertices in `f32` and `f64`, and it prunes.
    fn pruned_edge_pairs_match<N: Scalar>(seed: u64, eps: f64) {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let mut found = 0;
        for k in 0..600 {
            let a: ConvexPolyhedron<N> = random_hull(&mut r, [8, 24, 64, 256, 1000][k % 5]);
            let b: ConvexPolyhedron<N> = random_hull(&mut r, [24, 8, 1000, 64, 256][k % 5]);
            let axis = random_unit::<f64>(&mut r) * r.random_range(0.0..3.0);
            let t = random_unit::<f64>(&mut r) * r.random_range(0.0..2.0);
            let pos_ab = Iso3::new(t.map(N::lit), axis.map(N::lit));
            let pos_ba = pos_ab.inverse();
            let n = random_unit::<N>(&mut r);
            let nb = pos_ba.rotation * n;
            let (va, vb) = (support_vertex(&a, &n) as usize, support_vertex(&b, &-nb) as usize);
            let plain = best_edge_pair_unpruned(&a, va, &b, vb, &pos_ba, &nb);
            let pruned = best_edge_pair(&a, va, &b, vb, &pos_ba, &nb);
            match (plain, pruned) {
                (Some(c), Some((_, _, _, l))) => {
                    let cp = l.dot(&nb).to_f64();
                    assert!(cp >= c - eps, "{k}: pruned {cp} vs plain {c}");
                    found += 1;
                }
                (None, None) => {}
                (x, y) => panic!("{k}: {x:?} vs {y:?}"),
            }
        }
        assert!(found > 550, "{found}");
    }

    #[test]
    fn pruned_edge_pairs_match_f64() {
        pruned_edge_pairs_match::<f64>(0xed9e, 1e-9);
    }

    #[test]
    fn pruned_edge_pairs_match_f32() {
        pruned_edge_pairs_match::<f32>(0xed9f, 1e-4);
    }
}
