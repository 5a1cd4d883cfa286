//! The exact separating-axis test for 3D polytope pairs too large to try every axis against
//! every vertex.
//!
//! [`crate::sat`] answers a stalled GJK or EPA by the separating axis test over every candidate
//! axis, each axis scanned against every vertex: `(F_A + F_B + E_A·E_B) · (V_A + V_B)` work,
//! a fraction of a millisecond up to a few dozen vertices, seconds for two 1000-vertex hulls.
//! Most candidates cannot win, and the adjacency of a [`ConvexPolyhedron`] tells which:
//!
//! * **Two large hulls** walk each other's Gauss maps ([`crate::manifold::sat_walk`]; Gregorius,
//!   "The Separating Axis Test between Convex Polyhedra", GDC 2013): the best face of each and
//!   the best edge pair among those whose arcs cross, in time proportional to the edges and the
//!   crossings. The three winners are then measured again in `f64` against every vertex, so
//!   the answer is exact to the rounding of the inputs whatever the shapes' scalar type.
//! * **A hull `H` against a small polytope `S`** (a box, a triangle, a hull of a few dozen
//!   vertices): `H`'s extent along its own face normal is the face's plane, so its faces cost a
//!   scan of `S` only; `S`'s normals are scanned against every vertex; and an edge pair's axis
//!   `L = e_S × e_H` can be a face of `A − B` only where `H`'s edge supports `H` along it, that
//!   is where `L` lies in the wedge between the normals of the edge's two faces (the arc of the
//!   edge on `H`'s Gauss map), which the plane normal to `e_S` crosses where `e_S` has opposite
//!   signs against the two normals. Those few pairs climb `H` from the edge to its support along `L`
//!   (exact whatever rounding does to that test) and scan `S`.
//!
//! Every candidate's separation is computed from true support points, so each is a lower bound
//! on the signed distance and the largest is the exact answer when the shapes overlap, as in
//! [`crate::sat`].

use kollide_math::{Iso3, Scalar, Vec3, Vector};

use crate::manifold::Sat;
use kollide_shapes::{ConvexPolyhedron, PolyhedronEdge, Polytope};

use crate::sat::wide;
use nalgebra::{Matrix3, Quaternion, Translation3, UnitQuaternion};

/// Hulls of up to this many vertices are the small side `S` (their edges are crossed with every
/// edge of the other hull).
const SMALL: usize = 64;

/// One shape of the pair in the exact test's frame (world axes, A's position as origin).
pub(crate) struct Placed<'s, N: Scalar, const D: usize> {
    /// The shape's polytope view.
    pub shape: &'s dyn Polytope<N, D>,
    /// Its rotation, as `f64` matrix columns.
    pub rot: [Vector<f64, D>; D],
    /// The cofactor of `rot`, which maps its face normals.
    pub nrm: [Vector<f64, D>; D],
    /// Its vertices, rotated (B's not translated: `t` is added to each dot product).
    pub verts: &'s [Vector<f64, D>],
}

/// The pair: A, B, and B's position relative to A's (`t`).
pub(crate) struct Pair<'s, N: Scalar, const D: usize> {
    pub a: Placed<'s, N, D>,
    pub b: Placed<'s, N, D>,
    pub t: Vector<f64, D>,
}

/// The best axis (from A to B, in the test's frame) of a 3D pair of which at least one is a
/// [`ConvexPolyhedron`], with its separation; `None` in 2D or when neither shape is one.
///
/// `near` is a normal (from A to B, in the test's frame) that the stalled query found, with an
/// upper bound on the signed distance that GJK proved: two large hulls try the features around
/// that normal first ([`Pair3::proven_near`]).
pub(crate) fn best_axis<N: Scalar, const D: usize>(
    pair: &Pair<'_, N, D>,
    near: Option<(Vector<f64, D>, f64)>,
) -> Option<(f64, Vector<f64, D>)> {
    if D != 3 {
        return None;
    }
    #[cfg(test)]
    tests::RUNS.with(|c| c.set(c.get() + 1));
    let p = Pair3 { a: Side::of(&pair.a), b: Side::of(&pair.b), t: v3(&pair.t) };
    let (ha, hb) = (pair.a.shape.polyhedron(), pair.b.shape.polyhedron());
    let (na, nb) = (pair.a.verts.len(), pair.b.verts.len());
    let best = match (ha, hb) {
        (Some(ha), Some(hb)) if na > SMALL && nb > SMALL => {
            p.walked(ha, hb, near.map(|(n, upper)| (v3(&n), upper)))
        }
        (Some(h), _) if na >= nb || hb.is_none() => p.hull_and_small(h, true, &Small::of(&pair.b)),
        (_, Some(h)) => p.hull_and_small(h, false, &Small::of(&pair.a)),
        _ => return None,
    };
    let (s, n) = best?;
    Some((s, Vector::<f64, D>::from_fn(|i, _| n[i])))
}

/// `v` as a 3D vector (only called with `D == 3`).
fn v3<const D: usize>(v: &Vector<f64, D>) -> Vec3<f64> {
    Vec3::new(v[0], v[1], v[2])
}

/// One shape of a 3D pair: rotation, normal map and rotated vertices.
struct Side {
    rot: Matrix3<f64>,
    nrm: Matrix3<f64>,
    verts: Vec<Vec3<f64>>,
}

impl Side {
    fn of<N: Scalar, const D: usize>(p: &Placed<'_, N, D>) -> Self {
        let m = |c: &[Vector<f64, D>; D]| Matrix3::from_columns(&[v3(&c[0]), v3(&c[1]), v3(&c[2])]);
        Self { rot: m(&p.rot), nrm: m(&p.nrm), verts: p.verts.iter().map(v3).collect() }
    }

    fn max_along(&self, n: &Vec3<f64>) -> f64 {
        self.verts.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max)
    }
}

/// The small side's candidates: its face normals in the test's frame and its edges.
struct Small {
    normals: Vec<Vec3<f64>>,
    edges: Vec<[usize; 2]>,
}

impl Small {
    fn of<N: Scalar, const D: usize>(p: &Placed<'_, N, D>) -> Self {
        let shape = p.shape;
        let normals = (0..shape.normal_count())
            .map(|i| {
                let n = shape.normal(i);
                (0..D).fold(Vec3::zeros(), |acc, k| acc + v3(&p.nrm[k]) * n[k].to_f64())
            })
            .collect();
        Self { normals, edges: (0..shape.edge_count()).map(|j| shape.edge(j)).collect() }
    }
}

/// A 3D pair in the exact test's frame.
struct Pair3 {
    a: Side,
    b: Side,
    t: Vec3<f64>,
}

/// The better of two (separation, axis) candidates.
fn better(x: Option<(f64, Vec3<f64>)>, y: (f64, Vec3<f64>)) -> Option<(f64, Vec3<f64>)> {
    match x {
        Some(x) if x.0 >= y.0 => Some(x),
        _ if y.0.is_finite() => Some(y),
        _ => x,
    }
}

impl Pair3 {
    /// `min_B n·b − max_A n·a` along the unit axis `n`, against every vertex.
    fn separation(&self, n: &Vec3<f64>) -> f64 {
        -self.b.max_along(&-n) + n.dot(&self.t) - self.a.max_along(n)
    }

    /// The best of `±axis` (any length; `None` when it nearly vanishes).
    fn both_ways(&self, axis: &Vec3<f64>) -> Option<(f64, Vec3<f64>)> {
        let n = axis.try_normalize(1e-150)?;
        let (s, m) = (self.separation(&n), self.separation(&-n));
        Some(if s >= m { (s, n) } else { (m, -n) })
    }

    /// Two large hulls: the winners of the Gauss-map walk, measured again against every vertex;
    /// or the features around the normal of `near` when they prove the answer.
    fn walked<N: Scalar>(
        &self,
        ha: &ConvexPolyhedron<N>,
        hb: &ConvexPolyhedron<N>,
        near: Option<(Vec3<f64>, f64)>,
    ) -> Option<(f64, Vec3<f64>)> {
        let pos_ab = relative_pose::<N>(&self.a.rot, &self.b.rot, &self.t);
        if let Some((n, upper)) = near
            && let Some(best) = self.proven_near(ha, hb, &pos_ab, &n, upper)
        {
            return Some(best);
        }
        let sat = crate::manifold::sat_walk(ha, hb, &pos_ab, &pos_ab.inverse(), N::MAX).ok()?;
        self.winners(ha, hb, &sat)
    }

    /// The best face of A and of B and the edge pair found near the normal `n` (from A to B, in
    /// the test's frame) by [`crate::manifold::candidates`], when they prove the answer: each
    /// winner's separation, measured against every vertex, is a lower bound on the signed
    /// distance, and `upper` is an upper bound (GJK's, or EPA's for hulls that overlap), so a
    /// winner within a ten-billionth of the pair's size of it (plus the faces' flatness) is the
    /// best axis, as the walk's winners are. Touching hulls, whose GJK and EPA stall on the
    /// touch, are proven so at the cost of a few climbs.
    fn proven_near<N: Scalar>(
        &self,
        ha: &ConvexPolyhedron<N>,
        hb: &ConvexPolyhedron<N>,
        pos_ab: &Iso3<N>,
        n: &Vec3<f64>,
        upper: f64,
    ) -> Option<(f64, Vec3<f64>)> {
        let local = (self.a.rot.transpose() * n).map(N::lit);
        let sat = crate::manifold::candidates(ha, hb, pos_ab, &local)?;
        let best = self.winners(ha, hb, &sat)?;
        let extent = |s: &Side| s.verts.iter().map(|p| p.amax()).fold(0.0, f64::max);
        let size = extent(&self.a).max(extent(&self.b) + self.t.amax());
        // The walk measures the stored faces too, which hold their vertices only to the faces'
        // flatness, where the bound (GJK's or EPA's) measures the hull of the vertices: the
        // allowance of the manifold's certificate (`polyhedra_epa.rs`).
        let flatness = 2.0 * (ha.face_flatness() + hb.face_flatness()).to_f64();
        let proven = best.0 >= upper - 1e-10 * size - flatness;
        #[cfg(test)]
        tests::NEAR.with(|c| c.set(c.get() + usize::from(proven)));
        proven.then_some(best)
    }

    /// The axes of a SAT result's winners (A's face, B's face, the edge pair), measured again
    /// against every vertex: the best of them.
    fn winners<N: Scalar>(
        &self,
        ha: &ConvexPolyhedron<N>,
        hb: &ConvexPolyhedron<N>,
        sat: &Sat<N>,
    ) -> Option<(f64, Vec3<f64>)> {
        let mut best = None;
        let axes = [
            self.a.nrm * wide(&ha.face_normal(sat.face_a.1).into_inner()),
            self.b.nrm * wide(&hb.face_normal(sat.face_b.1).into_inner()),
        ];
        for axis in axes {
            if let Some(c) = self.both_ways(&axis) {
                best = better(best, c);
            }
        }
        if let Some((_, ea, eb, _)) = sat.edge {
            let dir = |h: &ConvexPolyhedron<N>, rot: &Matrix3<f64>, e: usize| {
                let [s, t] = h.edges()[e].vertices;
                rot * wide(&(h.vertices()[t as usize] - h.vertices()[s as usize]))
            };
            let axis = dir(ha, &self.a.rot, ea).cross(&dir(hb, &self.b.rot, eb));
            if let Some(c) = self.both_ways(&axis) {
                best = better(best, c);
            }
        }
        best
    }

    /// A hull `h` (A when `h_is_a`, else B) against the other, small, polytope.
    fn hull_and_small<N: Scalar>(
        &self,
        h: &ConvexPolyhedron<N>,
        h_is_a: bool,
        small: &Small,
    ) -> Option<(f64, Vec3<f64>)> {
        let (hs, ss) = if h_is_a { (&self.a, &self.b) } else { (&self.b, &self.a) };
        // The axis from A to B is `sign · d` for a direction `d` out of `h`.
        let sign = if h_is_a { 1.0 } else { -1.0 };
        // `h` extends to `h_ext` along `d`; `s` is scanned.
        let sep_with = |d: &Vec3<f64>, h_ext: f64| {
            let s_ext = ss.max_along(&-d);
            // A's extent along n = sign·d and B's along −n, with B's offset `t`.
            let offset = sign * d.dot(&self.t);
            -h_ext - s_ext + offset
        };
        let mut best = None;
        // The small shape's normals, against every vertex.
        for n in &small.normals {
            if let Some(c) = self.both_ways(n) {
                best = better(best, c);
            }
        }
        // The hull's faces: its extent along its own normal is the face's plane.
        for (f, normal) in h.face_normals().iter().enumerate() {
            let Some(d) = (hs.nrm * wide(&normal.into_inner())).try_normalize(1e-150) else {
                continue;
            };
            let h_ext =
                h.face(f).iter().map(|&v| hs.verts[v as usize].dot(&d)).fold(f64::MIN, f64::max);
            best = better(best, (sep_with(&d, h_ext), d * sign));
        }
        // Edge pairs whose axis the hull's edge supports.
        for &[s0, s1] in &small.edges {
            let ds = ss.verts[s1] - ss.verts[s0];
            // `ds` against `h`'s own normals: `(nrm n)·ds = n·(nrmᵀ ds)`.
            let ds_h = hs.nrm.transpose() * ds;
            let tol = 1e-9 * ds_h.norm();
            for e in h.edges() {
                let [f1, f2] = e.faces.map(|f| wide(&h.face_normal(f as usize).into_inner()));
                let (c1, c2) = (f1.dot(&ds_h), f2.dot(&ds_h));
                if (c1 > tol && c2 > tol) || (c1 < -tol && c2 < -tol) {
                    continue;
                }
                self.edge_pair(h, hs, e, &ds, &(f1 + f2), &mut |d, h_ext| {
                    best = better(best, (sep_with(d, h_ext), d * sign));
                });
            }
        }
        best
    }

    /// The axis `±(e_S × e_H)` of an edge pair whose hull edge `e` passed the arc test (the
    /// plane normal to `ds` crosses the edge's arc `n₁ n₂` on `h`'s Gauss map), turned towards
    /// the arc (`mid = n₁ + n₂`, both ways where the arc is a half circle), with `h`'s extent
    /// along it, climbed to from the edge: exact whatever rounding did to the arc test.
    fn edge_pair<N: Scalar>(
        &self,
        h: &ConvexPolyhedron<N>,
        hs: &Side,
        e: &PolyhedronEdge,
        ds: &Vec3<f64>,
        mid: &Vec3<f64>,
        found: &mut dyn FnMut(&Vec3<f64>, f64),
    ) {
        let [v0, v1] = e.vertices;
        let dh = hs.verts[v1 as usize] - hs.verts[v0 as usize];
        let l = ds.cross(&dh);
        if l.norm_squared() <= 1e-24 * ds.norm_squared() * dh.norm_squared() {
            return;
        }
        let mid = hs.nrm * mid;
        let slack = 1e-9 * l.norm() * mid.norm();
        for d in [l, -l] {
            if d.dot(&mid) < -slack {
                continue;
            }
            let d = d.normalize();
            let local = (hs.rot.transpose() * d).map(N::lit);
            let v = h.climb_support_vertex(&local, v0);
            found(&d, hs.verts[v as usize].dot(&d));
        }
    }
}

/// B's pose in A's frame, in `N`, from the `f64` rotations and offset (the nearest rotation to
/// `R_Aᵀ R_B`: poses a few ulps off unit are not quite orthogonal).
fn relative_pose<N: Scalar>(ra: &Matrix3<f64>, rb: &Matrix3<f64>, t: &Vec3<f64>) -> Iso3<N> {
    let q = UnitQuaternion::from_matrix(&(ra.transpose() * rb));
    let q = q.into_inner();
    let q = Quaternion::new(N::lit(q.w), N::lit(q.i), N::lit(q.j), N::lit(q.k));
    let t = ra.transpose() * t;
    Iso3::from_parts(
        Translation3::new(N::lit(t.x), N::lit(t.y), N::lit(t.z)),
        UnitQuaternion::new_normalize(q),
    )
}

#[cfg(test)]
mod tests {
    use kollide_math::{Point3, Pose};
    use kollide_shapes::{Cuboid, Triangle};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::sat::large_and_every_axis;
    use crate::{QuerySettings, Status, contact};

    thread_local! {
        /// How many times [`best_axis`] ran on this thread.
        pub(super) static RUNS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
        /// How many times [`Pair3::proven_near`] proved its answer on this thread.
        pub(super) static NEAR: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    /// `n` points on an ellipsoid with semi-axes `axes`: every one is a vertex of the hull.
    fn ellipsoid<N: Scalar>(r: &mut ChaCha8Rng, n: usize, axes: [f64; 3]) -> ConvexPolyhedron<N> {
        let pts: Vec<Point3<N>> = (0..n)
            .map(|_| {
                let u = random_unit(r);
                Point3::new(N::lit(u.x * axes[0]), N::lit(u.y * axes[1]), N::lit(u.z * axes[2]))
            })
            .collect();
        ConvexPolyhedron::from_points(&pts).unwrap()
    }

    fn random_unit(r: &mut ChaCha8Rng) -> Vec3<f64> {
        loop {
            let v = Vec3::new(
                r.random_range(-1.0..1.0),
                r.random_range(-1.0..1.0),
                r.random_range(-1.0..1.0),
            );
            if v.norm() > 0.1 && v.norm() <= 1.0 {
                return v.normalize();
            }
        }
    }

    fn random_pose<N: Scalar>(r: &mut ChaCha8Rng, reach: f64) -> Iso3<N> {
        let axis = random_unit(r) * r.random_range(0.0..3.0);
        let t = random_unit(r) * r.random_range(0.0..reach);
        let iso = Iso3::new(t, axis);
        let q = iso.rotation.into_inner();
        Iso3::from_parts(
            Translation3::new(N::lit(t.x), N::lit(t.y), N::lit(t.z)),
            UnitQuaternion::new_unchecked(Quaternion::new(
                N::lit(q.w),
                N::lit(q.i),
                N::lit(q.j),
                N::lit(q.k),
            )),
        )
    }

    /// The large-pair answer against every axis scanned against every vertex, for `a` and `b`
    /// at random poses: the difference of their separations when the shapes overlap.
    fn compare<N: Scalar>(
        r: &mut ChaCha8Rng,
        a: &dyn Polytope<N, 3>,
        b: &dyn Polytope<N, 3>,
        reach: f64,
    ) -> Option<f64> {
        let (pa, pb) = (random_pose::<N>(r, reach), random_pose::<N>(r, reach));
        let t = (pb.translation() - pa.translation()).map(|x| x.to_f64());
        let [large, every] = large_and_every_axis(
            a,
            b,
            &pa.rotation_columns_f64(),
            &pb.rotation_columns_f64(),
            t,
            true,
        );
        let (large, every) = (large.expect("a large answer"), every.expect("an answer"));
        assert!((large.1.norm() - 1.0).abs() < 1e-12);
        // Apart, both are only lower bounds on the distance (the queries ask GJK first).
        if every.0 > 0.0 {
            return None;
        }
        Some((large.0 - every.0).abs())
    }

    fn agree<N: Scalar>(tol: f64) {
        let mut r = ChaCha8Rng::seed_from_u64(0x5a7_1a26e);
        let (mut walked, mut small) = (0, 0);
        let mut worst = 0.0f64;
        let mut record = |d: Option<f64>, count: &mut usize| {
            if let Some(d) = d {
                worst = worst.max(d);
                *count += 1;
            }
        };
        for case in 0..24 {
            let big = ellipsoid::<N>(&mut r, 70 + case % 4 * 10, [1.0, 0.7, 0.5]);
            assert!(big.vertices().len() > SMALL);
            let other = ellipsoid::<N>(&mut r, 66 + case % 3 * 12, [0.6, 0.9, 0.4]);
            record(compare::<N>(&mut r, &big, &other, 0.8), &mut walked);
            let cube = Cuboid::new(Vec3::new(N::lit(0.3), N::lit(0.5), N::lit(0.2))).unwrap();
            let tri = Triangle::new(
                Point3::new(N::lit(-0.9), N::lit(0.1), N::lit(0.0)),
                Point3::new(N::lit(0.8), N::lit(-0.2), N::lit(0.3)),
                Point3::new(N::lit(0.1), N::lit(0.7), N::lit(-0.4)),
            )
            .unwrap();
            let few = ellipsoid::<N>(&mut r, 12 + case % 5 * 9, [0.5, 0.4, 0.8]);
            let smalls: [&dyn Polytope<N, 3>; 3] = [&cube, &tri, &few];
            for s in smalls {
                record(compare::<N>(&mut r, &big, s, 0.6), &mut small);
                record(compare::<N>(&mut r, s, &big, 0.6), &mut small);
            }
        }
        assert!(walked >= 12 && small >= 100, "overlapping cases: {walked} walked, {small} small");
        assert!(worst <= tol, "largest difference {worst:e}");
    }

    #[test]
    fn large_pairs_agree_with_every_axis_f64() {
        agree::<f64>(1e-12);
    }

    #[test]
    fn large_pairs_agree_with_every_axis_f32() {
        agree::<f32>(1e-5);
    }

    /// Nearly coincident round hulls of 1000 vertices, where EPA's polytope needs more than 128
    /// iterations to resolve the flat minimum: capped there, `contact` must still answer exactly
    /// (this module's test, which `agree` checks against every axis on smaller hulls), not with
    /// EPA's estimate, which was 0.5 % short. (The default cap is higher, and EPA settles these
    /// itself; the cap here makes the fallback run.) In `f32` the stalled run is first repeated
    /// in `f64` on the same support points (`query.rs`, for hulls whose exact test is costly),
    /// which settles these four without the fallback: `via_exact` says which path must have run.
    fn coincident_hulls_answer_exactly<N: Scalar>(via_exact: bool) {
        let mut r = ChaCha8Rng::seed_from_u64(0xc0_1c1de);
        let settings = QuerySettings { epa_max_iterations: 128, ..QuerySettings::default() };
        let (mut fell_back, cases) = (0, 4);
        for _ in 0..cases {
            let a = ellipsoid::<N>(&mut r, 1000, [0.01, 0.01, 0.01]);
            let b = ellipsoid::<N>(&mut r, 1000, [0.01, 0.01, 0.01]);
            let pa = random_pose::<N>(&mut r, 1e-4);
            let pb = Iso3::from_parts(
                Translation3::from(pa.translation.vector + Vec3::repeat(N::lit(2e-4))),
                random_pose::<N>(&mut r, 1e-9).rotation,
            );
            let t = (pb.translation() - pa.translation()).map(|x| x.to_f64());
            let (rot_a, rot_b) = (pa.rotation_columns_f64(), pb.rotation_columns_f64());
            let exact = large_and_every_axis(&a, &b, &rot_a, &rot_b, t, false)[0].unwrap();
            let before = RUNS.with(|c| c.get());
            let capped = contact(&pa, &a, &pb, &b, N::MAX, &settings).unwrap();
            fell_back += usize::from(RUNS.with(|c| c.get()) != before);
            let default = contact(&pa, &a, &pb, &b, N::MAX, &QuerySettings::default()).unwrap();
            for c in [capped, default] {
                assert_eq!(c.status, Status::Converged);
                assert!(
                    (c.separation.to_f64() - exact.0).abs() <= 1e-7 * exact.0.abs(),
                    "contact {:?} against {exact:?}",
                    c.separation
                );
            }
        }
        if via_exact {
            assert!(fell_back >= 1, "the large-pair test ran {fell_back} times in {cases}");
        } else {
            assert_eq!(fell_back, 0, "the f64 repeat should have settled all {cases}");
        }
    }

    #[test]
    fn coincident_hulls_answer_exactly_f64() {
        coincident_hulls_answer_exactly::<f64>(true);
    }

    #[test]
    fn coincident_hulls_answer_exactly_f32() {
        coincident_hulls_answer_exactly::<f32>(false);
    }

    /// Two 1000-vertex hulls on ellipsoids of about `size`, posed within `size / 2` of the origin.
    fn hull_pair<N: Scalar>(
        r: &mut ChaCha8Rng,
        size: f64,
    ) -> (ConvexPolyhedron<N>, ConvexPolyhedron<N>, Iso3<N>, Iso3<N>) {
        let a = ellipsoid::<N>(r, 1000, [size, 0.8 * size, 0.6 * size]);
        let b = ellipsoid::<N>(r, 1000, [0.7 * size, 0.9 * size, 0.5 * size]);
        (a, b, random_pose::<N>(r, 0.5 * size), random_pose::<N>(r, 0.5 * size))
    }

    /// B's pose moved along the walk's best axis to a separation of `gap` (to the rounding of
    /// `N`), with the walk's answer there (separation, axis).
    fn moved_to<N: Scalar>(
        (a, b): (&ConvexPolyhedron<N>, &ConvexPolyhedron<N>),
        (pa, pb): (&Iso3<N>, &Iso3<N>),
        gap: f64,
    ) -> (Iso3<N>, (f64, Vec3<f64>)) {
        let rot = (&pa.rotation_columns_f64(), &pb.rotation_columns_f64());
        let walk = |pb: &Iso3<N>| {
            let t = (pb.translation() - pa.translation()).map(|x| x.to_f64());
            large_and_every_axis(a, b, rot.0, rot.1, t, false)[0].unwrap()
        };
        let (s, n) = walk(pb);
        let moved = pb.translation().map(|x| x.to_f64()) + n * (gap - s);
        let pb = Iso3::from_parts(Translation3::from(moved.map(N::lit)), pb.rotation);
        let walked = walk(&pb);
        (pb, walked)
    }

    /// Touching hulls of 1000 vertices (whose GJK and EPA can stall on the touch): given a
    /// normal near the touch's, as a stalled EPA leaves it, and GJK's bound (zero: its simplex
    /// holds the origin), the exact test proves the features around that normal instead of
    /// walking both hulls, and answers as the walk does. A normal far from the touch's proves
    /// nothing, and the walk runs. (Overlapping pairs are moved apart along the walk's axis by
    /// their depth, which makes every axis's separation at most zero and that axis's zero.)
    #[test]
    fn touching_large_hulls_are_proven_near_the_normal() {
        use crate::sat::large_near;
        let mut r = ChaCha8Rng::seed_from_u64(0x70_c41e);
        let (mut near, mut far, cases) = (0, 0, 8);
        for k in 0..cases {
            let (a, b, pa, pb) = hull_pair::<f64>(&mut r, 1.0);
            let (pb, walked) = moved_to((&a, &b), (&pa, &pb), 0.0);
            let (rot, t) = (
                (&pa.rotation_columns_f64(), &pb.rotation_columns_f64()),
                pb.translation() - pa.translation(),
            );
            let n = walked.1;
            assert!(walked.0.abs() < 1e-12, "case {k}: {walked:?} after the move");
            // The normal tilted by a milliradian, and by a radian.
            let mut tilt = |angle: f64| {
                let side = n.cross(&random_unit(&mut r)).normalize();
                n * angle.cos() + side * angle.sin()
            };
            for (angle, proven) in [(1e-3, &mut near), (1.0, &mut far)] {
                let before = NEAR.with(|c| c.get());
                let got = large_near(&a, &b, rot, t, (tilt(angle), 0.0)).unwrap();
                *proven += NEAR.with(|c| c.get()) - before;
                assert!((got.0 - walked.0).abs() <= 1e-12, "case {k}: {got:?} vs {walked:?}");
                assert!(got.1.dot(&walked.1) > 1.0 - 1e-9, "case {k}: {got:?} vs {walked:?}");
            }
        }
        eprintln!("proven near the normal {near} of {cases}, from a radian off {far}");
        assert!(near == cases && far < cases / 2, "near {near}, far {far} of {cases}");
    }

    /// The queries without a contact normal of their own (`distance`, `intersection_test`,
    /// `closest_points`) on 1000-vertex hulls touching or a few tenths of a micrometre apart,
    /// where `f64` GJK stalls: they hand GJK's direction to the exact test, which proves the
    /// features around it instead of walking both hulls, and answer as the walk does.
    #[test]
    fn stalled_distance_queries_are_proven_near_gjk_direction() {
        use crate::{closest_points, distance, intersection_test};
        let mut r = ChaCha8Rng::seed_from_u64(0x057a_11ed);
        let s = QuerySettings::<f64>::default();
        let (mut runs, mut near) = (0, 0);
        for k in 0..6 {
            let (a, b, pa, pb) = hull_pair::<f64>(&mut r, 1.0);
            for gap in [0.0, 1e-9, 4e-7] {
                let (pb, walked) = moved_to((&a, &b), (&pa, &pb), gap);
                let before = (RUNS.with(|c| c.get()), NEAR.with(|c| c.get()));
                let d = distance(&pa, &a, &pb, &b, &s).0;
                let cp = closest_points(&pa, &a, &pb, &b, &s);
                let hit = intersection_test(&pa, &a, &pb, &b, None, &s).intersecting;
                runs += RUNS.with(|c| c.get()) - before.0;
                near += NEAR.with(|c| c.get()) - before.1;
                let case = format!("case {k}, gap {gap:e}: walked {walked:?}");
                assert!((d - walked.0.max(0.0)).abs() <= 1e-12, "{case}, distance {d:e}");
                assert!((cp.separation - walked.0).abs() <= 1e-12, "{case}, {cp:?}");
                assert_eq!(hit, gap == 0.0, "{case}");
            }
        }
        eprintln!("exact tests {runs}, proven near GJK's direction {near}");
        assert!(runs >= 6 && near == runs, "exact tests {runs}, proven near {near}");
    }

    /// `f32` 1000-vertex hulls sunk into each other by a few hundred-millionths, as they reach
    /// the exact test when the `f32` contact stalls: `f64` GJK's simplex holds the origin, and
    /// EPA on the same vertices gives the bound and the normal around which the features are
    /// proven, within the faces' flatness, instead of a walk of both hulls, with or without a
    /// normal from the caller. The answers agree with the walk's.
    #[test]
    fn slightly_overlapping_f32_hulls_are_proven_near_epa_normal() {
        let mut r = ChaCha8Rng::seed_from_u64(0x0e9a_5eed);
        let (mut runs, mut near) = (0, 0);
        for k in 0..6 {
            let (a, b, pa, pb) = hull_pair::<f32>(&mut r, 0.1);
            let (pb, walked) = moved_to((&a, &b), (&pa, &pb), -6e-8);
            let slack = 2.0 * f64::from(a.face_flatness() + b.face_flatness()) + 1e-10;
            for hint in [None, Some(walked.1.map(|x| x as f32))] {
                let before = (RUNS.with(|c| c.get()), NEAR.with(|c| c.get()));
                let got = crate::sat::exact(&pa, &a, &pb, &b, hint).unwrap();
                runs += RUNS.with(|c| c.get()) - before.0;
                near += NEAR.with(|c| c.get()) - before.1;
                let miss = (f64::from(got.separation) - walked.0).abs();
                assert!(miss <= slack + 1e-7 * walked.0.abs(), "case {k}: {got:?} {walked:?}");
            }
        }
        eprintln!("exact tests {runs}, proven near EPA's normal {near}");
        assert!(runs == 12 && near == runs, "exact tests {runs}, proven near {near}");
    }
}
