//! EPA in 3D: the polytope is a triangle mesh with outward normals. Adding a support point `w`
//! removes every face `w` can see and closes the hole with a fan of new faces from `w` to the
//! horizon: the edges that belong to exactly one removed face (the seed's "unique edges" repair).
//! Each face keeps its three neighbours, so the faces that see `w` are found by a depth-first walk
//! from the face just popped (which sees `w`), never by testing every face, and the walk lists the
//! horizon as an ordered loop that the new fan is stitched to. Faces wait in a binary min-heap
//! keyed by their distance to the origin; removed faces are only marked dead and skipped when
//! popped. See [`crate::epa`] for the algorithm.
//!
//! Storage is inline (`SmallVec`) and large enough for the common case, so a typical query does
//! not touch the heap allocator; pathological polytopes spill to the heap rather than fail.

use kollide_math::{Point3, Scalar, Vec3, geom::orthonormal_basis};
use kollide_shapes::SupportPoint;
use smallvec::SmallVec;

use crate::epa::RawEpa;
use crate::{QuerySettings, Status};

type Sp<N> = SupportPoint<N, 3>;

#[derive(Clone, Copy, Debug)]
struct Face<N: Scalar> {
    v: [u16; 3],
    /// `adj[k]`: the face across edge `k` (from `v[k]` to `v[k + 1]`).
    adj: [u16; 3],
    normal: Vec3<N>,
    dist: N,
    alive: bool,
}

struct Polytope<N: Scalar> {
    verts: SmallVec<[Sp<N>; 64]>,
    faces: SmallVec<[Face<N>; 128]>,
    heap: SmallVec<[(N, u16); 128]>,
}

/// The edge of face `f` that runs from `a` to `b`, if any.
#[inline]
fn edge_index(f: &[u16; 3], a: u16, b: u16) -> Option<usize> {
    (0..3).find(|&k| f[k] == a && f[(k + 1) % 3] == b)
}

impl<N: Scalar> Polytope<N> {
    #[cfg_attr(debug_assertions, inline(never))]
    fn add_face(&mut self, a: u16, b: u16, c: u16, adj: [u16; 3]) {
        let idx = self.faces.len() as u16;
        let dist = self.push_face(a, b, c, adj);
        self.heap_push(dist, idx);
    }

    /// Appends the face `a, b, c` (counter-clockwise from outside) with its unit normal and
    /// distance to the origin, without queueing it; returns the distance.
    #[cfg_attr(not(debug_assertions), inline)]
    #[cfg_attr(debug_assertions, inline(never))]
    fn push_face(&mut self, a: u16, b: u16, c: u16, adj: [u16; 3]) -> N {
        let pa = self.verts[a as usize].point;
        let n = (self.verts[b as usize].point - pa).cross(&(self.verts[c as usize].point - pa));
        let len = n.norm();
        let (normal, dist) =
            if len > N::zero() { (n / len, (n / len).dot(&pa)) } else { (Vec3::zeros(), N::MAX) };
        self.faces.push(Face { v: [a, b, c], adj, normal, dist, alive: true });
        dist
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn heap_push(&mut self, key: N, idx: u16) {
        self.heap.push((key, idx));
        // Sift up on a plain slice (one spilled-or-inline check instead of one per access),
        // moving the hole rather than swapping.
        let heap: &mut [(N, u16)] = &mut self.heap;
        let mut i = heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if key < heap[parent].0 {
                heap[i] = heap[parent];
                i = parent;
            } else {
                break;
            }
        }
        heap[i] = (key, idx);
    }

    #[cfg_attr(debug_assertions, inline(never))]
    fn heap_pop(&mut self) -> Option<u16> {
        loop {
            if self.heap.is_empty() {
                return None;
            }
            let last = self.heap.len() - 1;
            self.heap.swap(0, last);
            let (_, idx) = self.heap.pop()?;
            let heap: &mut [(N, u16)] = &mut self.heap;
            let n = heap.len();
            let mut i = 0;
            loop {
                let l = 2 * i + 1;
                let r = l + 1;
                let mut m = i;
                if l < n && heap[l].0 < heap[m].0 {
                    m = l;
                }
                if r < n && heap[r].0 < heap[m].0 {
                    m = r;
                }
                if m == i {
                    break;
                }
                heap.swap(i, m);
                i = m;
            }
            if self.faces[idx as usize].alive {
                return Some(idx);
            }
        }
    }

    /// Removes the faces that see `p`, found by a depth-first walk over the adjacency from face
    /// `start` (which sees `p`), and collects the horizon in order: `(a, b, outside face)` for
    /// each edge `a → b` of a removed face whose neighbour stays. Crossing each face's edges in
    /// turn after the one it was entered by lists the horizon as one counter-clockwise loop
    /// (seen from outside) when the removed faces form a disc, as they do on a convex polytope.
    #[cfg_attr(debug_assertions, inline(never))]
    fn carve(
        &mut self,
        start: u16,
        p: &Vec3<N>,
        tol: N,
        stack: &mut SmallVec<[(u16, u8); 32]>,
        horizon: &mut SmallVec<[(u16, u16, u16); 32]>,
    ) {
        horizon.clear();
        stack.clear();
        let faces: &mut [Face<N>] = &mut self.faces;
        let verts: &[Sp<N>] = &self.verts;
        let sees = |f: &Face<N>| f.normal.dot(&(p - verts[f.v[0] as usize].point)) > tol;
        faces[start as usize].alive = false;
        // (face, edge of that face to cross next); edges are crossed in increasing order, so
        // the pending ones are pushed in reverse.
        for k in (0..3u8).rev() {
            stack.push((start, k));
        }
        while let Some((f, k)) = stack.pop() {
            let face = &faces[f as usize];
            let (a, b) = (face.v[k as usize], face.v[(k as usize + 1) % 3]);
            let g = face.adj[k as usize];
            let gf = &mut faces[g as usize];
            if !gf.alive {
                continue;
            }
            if sees(gf) {
                gf.alive = false;
                let e = edge_index(&gf.v, b, a).unwrap_or(0) as u8;
                stack.push((g, (e + 2) % 3));
                stack.push((g, (e + 1) % 3));
            } else {
                horizon.push((a, b, g));
            }
        }
    }
}

pub(crate) fn run<N: Scalar>(
    support: &impl Fn(&Vec3<N>) -> Sp<N>,
    simplex: &[Sp<N>],
    tol: N,
    fallback: &Vec3<N>,
    settings: &QuerySettings<N>,
) -> RawEpa<N, 3> {
    let tet = match initial_tetrahedron(support, simplex, tol, fallback) {
        Ok(tet) => tet,
        Err(flat_dir) => return crate::epa::flat(simplex, flat_dir, fallback),
    };
    let mut poly =
        Polytope { verts: SmallVec::new(), faces: SmallVec::new(), heap: SmallVec::new() };
    poly.verts.extend_from_slice(&tet);
    // Orient the tetrahedron so that faces wind counter-clockwise seen from outside.
    let p = |i: usize| tet[i].point;
    let orient = (p(1) - p(0)).cross(&(p(2) - p(0))).dot(&(p(3) - p(0)));
    if orient > N::zero() {
        poly.verts.swap(1, 2);
    }
    // Faces 0..4 and, per edge, the face across it.
    poly.add_face(0, 1, 2, [1, 3, 2]);
    poly.add_face(0, 3, 1, [2, 3, 0]);
    poly.add_face(0, 2, 3, [0, 3, 1]);
    poly.add_face(1, 3, 2, [1, 2, 0]);

    let mut status = Status::IterationCap;
    let mut iterations = 0;
    let mut best: Option<u16> = None;
    let mut horizon: SmallVec<[(u16, u16, u16); 32]> = SmallVec::new();
    let mut stack: SmallVec<[(u16, u8); 32]> = SmallVec::new();
    for it in 0..settings.epa_max_iterations {
        iterations = it + 1;
        let Some(fi) = poly.heap_pop() else {
            status = Status::Degenerate;
            break;
        };
        best = Some(fi);
        let face = poly.faces[fi as usize];
        if face.dist == N::MAX {
            status = Status::Degenerate;
            break;
        }
        let w = support(&face.normal);
        let d = face.normal.dot(&w.point);
        let known = |i: &u16| poly.verts[*i as usize].point == w.point;
        if d - face.dist <= tol || face.v.iter().any(known) {
            status = Status::Converged;
            break;
        }
        if poly.verts.len() >= u16::MAX as usize - 1 {
            status = Status::IterationCap;
            break;
        }
        let wi = poly.verts.len() as u16;
        poly.verts.push(w);
        // Remove every face that sees w (a walk from the popped face, which does) and close the
        // hole with a fan from w to the horizon, stitched to its neighbours.
        poly.carve(fi, &w.point, tol, &mut stack, &mut horizon);
        let m = horizon.len();
        // The horizon must be one closed loop: each edge starts where the previous one ends.
        if m < 3 || horizon[m - 1].1 != horizon[0].0 || horizon.windows(2).any(|e| e[0].1 != e[1].0)
        {
            status = Status::Degenerate;
            break;
        }
        // A support point already in the polytope ends the expansion as the face's own
        // support would: it adds nothing. Only the faces around the carved hole can hold it
        // (a vertex elsewhere lies behind the popped face's plane, which `w` is beyond by more
        // than `tol`), so the horizon is searched, not every vertex: a scan of all of them made
        // EPA quadratic in its iterations.
        if horizon.iter().any(|e| poly.verts[e.0 as usize].point == w.point) {
            status = Status::Converged;
            break;
        }
        let first = poly.faces.len();
        if first + m > u16::MAX as usize {
            status = Status::IterationCap;
            break;
        }
        // The fan's faces first, then their heap entries (in the same order): the square roots
        // and divisions of successive faces overlap instead of waiting on the heap's compares.
        for (i, &(a, b, g)) in horizon.iter().enumerate() {
            // The fan's faces are numbered around the loop, so their neighbours across the
            // edges to w are the next and previous faces (wrapping without a division).
            let me = (first + i) as u16;
            let next = if i + 1 == m { first as u16 } else { me + 1 };
            let prev = if i == 0 { (first + m - 1) as u16 } else { me - 1 };
            poly.push_face(a, b, wi, [g, next, prev]);
            let gf = &mut poly.faces[g as usize];
            if let Some(e) = edge_index(&gf.v, b, a) {
                gf.adj[e] = me;
            }
        }
        let mut non_convex = false;
        for f in first..first + m {
            let dist = poly.faces[f].dist;
            poly.heap_push(dist, f as u16);
            non_convex |= dist < face.dist - tol;
        }
        if non_convex {
            // Rounding broke convexity: the popped face is the best answer available.
            status = Status::Degenerate;
            break;
        }
    }
    match best {
        Some(fi) => finish(&poly, fi, status, iterations),
        None => crate::epa::flat(simplex, None, fallback),
    }
}

#[cfg_attr(debug_assertions, inline(never))]
fn finish<N: Scalar>(poly: &Polytope<N>, fi: u16, status: Status, iterations: u32) -> RawEpa<N, 3> {
    let f = poly.faces[fi as usize];
    let [a, b, c] = f.v.map(|i| poly.verts[i as usize]);
    let p = f.normal * f.dist;
    let ((u, v, w), clamped) = barycentric(&a.point, &b.point, &c.point, &p);
    RawEpa {
        depth: f.dist.max_of(N::zero()),
        normal: f.normal,
        point_a: Point3::from(a.a.coords * u + b.a.coords * v + c.a.coords * w),
        point_b: Point3::from(a.b.coords * u + b.b.coords * v + c.b.coords * w),
        status,
        iterations,
        clamped,
    }
}

/// Barycentric coordinates of `p` (in the plane of the triangle) with respect to `a, b, c`,
/// clamped to the triangle so witness points stay on the shapes, and whether they cannot be
/// trusted: the clamp moved them by more than rounding, or the triangle is a sliver.
fn barycentric<N: Scalar>(a: &Vec3<N>, b: &Vec3<N>, c: &Vec3<N>, p: &Vec3<N>) -> ((N, N, N), bool) {
    let v0 = b - a;
    let v1 = c - a;
    let v2 = p - a;
    let d00 = v0.dot(&v0);
    let d01 = v0.dot(&v1);
    let d11 = v1.dot(&v1);
    let d20 = v2.dot(&v0);
    let d21 = v2.dot(&v1);
    let denom = d00 * d11 - d01 * d01;
    if denom <= N::zero() {
        return ((N::one(), N::zero(), N::zero()), true);
    }
    let mut v = (d11 * d20 - d01 * d21) / denom;
    let mut w = (d00 * d21 - d01 * d20) / denom;
    let slack = N::EPSILON * N::lit(64.0);
    // A sliver face multiplies the rounding of its weights by `d00·d11 / denom` (one over the
    // squared sine of its angle at `a`), and the witnesses move by that times the face's size.
    // Past the accuracy each scalar aims for (a ten-billionth of the size in `f64`, a
    // ten-thousandth in `f32`) they are no better than clamped ones, and are repaired the same
    // way: a 10 m segment through a 1 mm triangle made a face with a squared sine of 1e-8, and
    // its witness missed the triangle by 2e-8.
    let aim = if N::EPSILON.to_f64() < 1e-10 { 1e-10 } else { 1e-4 };
    let sliver = denom * N::lit(aim) < N::EPSILON * d00 * d11;
    let clamped = sliver || v < -slack || w < -slack || v + w > N::one() + slack;
    v = v.max_of(N::zero());
    w = w.max_of(N::zero());
    let s = v + w;
    if s > N::one() {
        v /= s;
        w /= s;
    }
    ((N::one() - v - w, v, w), clamped)
}

/// Grows GJK's simplex (1 to 4 points) into a tetrahedron with positive volume. When the
/// Minkowski difference has no volume (flat shapes touching) it returns `Err` with a direction
/// in which the difference is flat, if it has one short of being a point.
fn initial_tetrahedron<N: Scalar>(
    support: &impl Fn(&Vec3<N>) -> Sp<N>,
    simplex: &[Sp<N>],
    tol: N,
    fallback: &Vec3<N>,
) -> Result<[Sp<N>; 4], Option<Vec3<N>>> {
    let mut pts: SmallVec<[Sp<N>; 4]> = simplex.iter().copied().collect();
    if pts.len() == 4 {
        let p = |i: usize| pts[i].point;
        let vol = (p(1) - p(0)).cross(&(p(2) - p(0))).dot(&(p(3) - p(0))).abs();
        let scale = (p(1) - p(0)).norm().max_of((p(2) - p(0)).norm()).max_of((p(3) - p(0)).norm());
        if vol <= tol * scale * scale {
            pts.truncate(3);
        }
    }
    if pts.len() == 3 {
        let n = (pts[1].point - pts[0].point).cross(&(pts[2].point - pts[0].point));
        let scale =
            (pts[1].point - pts[0].point).norm().max_of((pts[2].point - pts[0].point).norm());
        if n.norm() <= tol * scale {
            pts.truncate(2);
        }
    }
    if pts.len() == 1 {
        for d in [Vec3::x(), -Vec3::x(), Vec3::y(), -Vec3::y(), Vec3::z(), -Vec3::z()] {
            let w = support(&d);
            if (w.point - pts[0].point).norm() > tol {
                pts.push(w);
                break;
            }
        }
        if pts.len() == 1 {
            return Err(None);
        }
    }
    if pts.len() == 2 {
        let e = pts[1].point - pts[0].point;
        let axis = e.normalize();
        let (t, b) = orthonormal_basis(&axis);
        let mut best: Option<(Sp<N>, N)> = None;
        for k in 0..6 {
            let ang = N::two_pi() * N::lit(k as f64) / N::lit(6.0);
            let d = t * ang.cos() + b * ang.sin();
            let w = support(&d);
            let off = w.point - pts[0].point;
            let h = (off - axis * off.dot(&axis)).norm();
            if best.as_ref().is_none_or(|(_, bh)| h > *bh) {
                best = Some((w, h));
            }
        }
        match best {
            Some((w, h)) if h > tol => pts.push(w),
            // A straight difference: flat across its axis, along `fallback`'s part there.
            _ => {
                let across = fallback - axis * fallback.dot(&axis);
                return Err(Some(if across.norm() > N::lit(1e-3) * fallback.norm() {
                    across
                } else {
                    t
                }));
            }
        }
    }
    if pts.len() == 3 {
        let n = (pts[1].point - pts[0].point).cross(&(pts[2].point - pts[0].point)).normalize();
        let w1 = support(&n);
        let w2 = support(&-n);
        let h1 = n.dot(&(w1.point - pts[0].point));
        let h2 = -n.dot(&(w2.point - pts[0].point));
        if h1.max_of(h2) <= tol {
            // A planar difference: flat along its plane's normal.
            return Err(Some(n));
        }
        pts.push(if h1 >= h2 { w1 } else { w2 });
    }
    Ok([pts[0], pts[1], pts[2], pts[3]])
}
