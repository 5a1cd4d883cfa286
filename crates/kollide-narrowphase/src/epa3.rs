//! EPA in 3D: the polytope is a triangle mesh with outward normals. Adding a support point `w`
//! removes every face `w` can see and closes the hole with a fan of new faces from `w` to the
//! horizon: the edges that belong to exactly one removed face (the seed's "unique edges" repair).
//! Faces wait in a binary min-heap keyed by their distance to the origin; removed faces are only
//! marked dead and skipped when popped. See [`crate::epa`] for the algorithm.
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
    normal: Vec3<N>,
    dist: N,
    alive: bool,
}

struct Polytope<N: Scalar> {
    verts: SmallVec<[Sp<N>; 64]>,
    faces: SmallVec<[Face<N>; 128]>,
    heap: SmallVec<[(N, u16); 128]>,
}

impl<N: Scalar> Polytope<N> {
    fn add_face(&mut self, a: u16, b: u16, c: u16) -> N {
        let pa = self.verts[a as usize].point;
        let n = (self.verts[b as usize].point - pa).cross(&(self.verts[c as usize].point - pa));
        let len = n.norm();
        let (normal, dist) =
            if len > N::zero() { (n / len, (n / len).dot(&pa)) } else { (Vec3::zeros(), N::MAX) };
        let idx = self.faces.len() as u16;
        self.faces.push(Face { v: [a, b, c], normal, dist, alive: true });
        self.heap_push(dist, idx);
        dist
    }

    fn heap_push(&mut self, key: N, idx: u16) {
        self.heap.push((key, idx));
        let mut i = self.heap.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.heap[i].0 < self.heap[parent].0 {
                self.heap.swap(i, parent);
                i = parent;
            } else {
                break;
            }
        }
    }

    fn heap_pop(&mut self) -> Option<u16> {
        loop {
            if self.heap.is_empty() {
                return None;
            }
            let last = self.heap.len() - 1;
            self.heap.swap(0, last);
            let (_, idx) = self.heap.pop()?;
            let n = self.heap.len();
            let mut i = 0;
            loop {
                let l = 2 * i + 1;
                let r = l + 1;
                let mut m = i;
                if l < n && self.heap[l].0 < self.heap[m].0 {
                    m = l;
                }
                if r < n && self.heap[r].0 < self.heap[m].0 {
                    m = r;
                }
                if m == i {
                    break;
                }
                self.heap.swap(i, m);
                i = m;
            }
            if self.faces[idx as usize].alive {
                return Some(idx);
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
    let Some(tet) = initial_tetrahedron(support, simplex, tol) else {
        return flat(simplex, fallback);
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
    poly.add_face(0, 1, 2);
    poly.add_face(0, 3, 1);
    poly.add_face(0, 2, 3);
    poly.add_face(1, 3, 2);

    let mut status = Status::IterationCap;
    let mut iterations = 0;
    let mut best: Option<u16> = None;
    let mut horizon: SmallVec<[(u16, u16); 32]> = SmallVec::new();
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
        if d - face.dist <= tol || poly.verts.iter().any(|v| v.point == w.point) {
            status = Status::Converged;
            break;
        }
        if poly.verts.len() >= u16::MAX as usize - 1 {
            status = Status::IterationCap;
            break;
        }
        let wi = poly.verts.len() as u16;
        poly.verts.push(w);
        // Remove every face that sees w; collect the horizon (edges of exactly one removed face).
        horizon.clear();
        for f in poly.faces.iter_mut() {
            if !f.alive {
                continue;
            }
            let pa = poly.verts[f.v[0] as usize].point;
            if f.normal.dot(&(w.point - pa)) > tol {
                f.alive = false;
                for k in 0..3 {
                    let e = (f.v[k], f.v[(k + 1) % 3]);
                    if let Some(pos) = horizon.iter().position(|&h| h == (e.1, e.0)) {
                        horizon.swap_remove(pos);
                    } else {
                        horizon.push(e);
                    }
                }
            }
        }
        if horizon.is_empty() {
            status = Status::Degenerate;
            break;
        }
        let mut non_convex = false;
        for &(a, b) in horizon.iter() {
            let dist = poly.add_face(a, b, wi);
            if dist < face.dist - tol {
                non_convex = true;
            }
        }
        if non_convex {
            // Rounding broke convexity: the popped face is the best answer available.
            status = Status::Degenerate;
            break;
        }
    }
    match best {
        Some(fi) => finish(&poly, fi, status, iterations),
        None => flat(simplex, fallback),
    }
}

fn finish<N: Scalar>(poly: &Polytope<N>, fi: u16, status: Status, iterations: u32) -> RawEpa<N, 3> {
    let f = poly.faces[fi as usize];
    let [a, b, c] = f.v.map(|i| poly.verts[i as usize]);
    let p = f.normal * f.dist;
    let (u, v, w) = barycentric(&a.point, &b.point, &c.point, &p);
    RawEpa {
        depth: f.dist.max_of(N::zero()),
        normal: f.normal,
        point_a: Point3::from(a.a.coords * u + b.a.coords * v + c.a.coords * w),
        point_b: Point3::from(a.b.coords * u + b.b.coords * v + c.b.coords * w),
        status,
        iterations,
    }
}

/// Barycentric coordinates of `p` (in the plane of the triangle) with respect to `a, b, c`,
/// clamped to the triangle so witness points stay on the shapes.
fn barycentric<N: Scalar>(a: &Vec3<N>, b: &Vec3<N>, c: &Vec3<N>, p: &Vec3<N>) -> (N, N, N) {
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
        return (N::one(), N::zero(), N::zero());
    }
    let mut v = (d11 * d20 - d01 * d21) / denom;
    let mut w = (d00 * d21 - d01 * d20) / denom;
    v = v.max_of(N::zero());
    w = w.max_of(N::zero());
    let s = v + w;
    if s > N::one() {
        v /= s;
        w /= s;
    }
    (N::one() - v - w, v, w)
}

fn flat<N: Scalar>(simplex: &[Sp<N>], fallback: &Vec3<N>) -> RawEpa<N, 3> {
    let p =
        simplex.first().copied().unwrap_or(SupportPoint::new(Point3::origin(), Point3::origin()));
    let n = fallback.try_normalize(N::zero()).unwrap_or(Vec3::x());
    RawEpa {
        depth: N::zero(),
        normal: n,
        point_a: p.a,
        point_b: p.b,
        status: Status::Converged,
        iterations: 0,
    }
}

/// Grows GJK's simplex (1 to 4 points) into a tetrahedron with positive volume. Returns `None`
/// when the Minkowski difference has no volume (flat shapes touching).
fn initial_tetrahedron<N: Scalar>(
    support: &impl Fn(&Vec3<N>) -> Sp<N>,
    simplex: &[Sp<N>],
    tol: N,
) -> Option<[Sp<N>; 4]> {
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
            return None;
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
            _ => return None,
        }
    }
    if pts.len() == 3 {
        let n = (pts[1].point - pts[0].point).cross(&(pts[2].point - pts[0].point)).normalize();
        let w1 = support(&n);
        let w2 = support(&-n);
        let h1 = n.dot(&(w1.point - pts[0].point));
        let h2 = -n.dot(&(w2.point - pts[0].point));
        if h1.max_of(h2) <= tol {
            return None;
        }
        pts.push(if h1 >= h2 { w1 } else { w2 });
    }
    Some([pts[0], pts[1], pts[2], pts[3]])
}
