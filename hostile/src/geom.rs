//! The oracle's geometry: shapes in world space, in `f64`, described independently of kollide.
//!
//! Every kollide shape is a convex *core* grown by a radius. Here a core is either the convex
//! hull of a list of points (a point, segment, triangle, box, polygon or polyhedron: the raw
//! points the shape was built from, never kollide's hull) or a solid of revolution (cylinder,
//! cone) given by its centre, axis, half height and radius. From that description the oracle
//! needs two functions only:
//!
//! * the **support function** `h(n) = max { p · n : p ∈ S }`, in closed form for every core
//!   (a maximum over the points; `c·n + hh·|a·n| + r·|n − (a·n) a|` for a cylinder), plus the
//!   radius times `|n|`;
//! * an **upper bound on the signed distance function** `sdf(p)` (negative inside): exact for
//!   small point sets (from their facets, found by brute force over all triples of points),
//!   exact in closed form for cylinders and cones, and for a large hull the exact value of a
//!   small polytope known to lie inside it (the inner witness, built into the generated cloud).
//!
//! A small point set (at most [`EXACT_POINTS`] points) also gets its *facets* and *edges* by
//! brute force: a facet is a triple (a pair in 2D) of points with every point on one side of
//! its plane. Those feed the exact candidate directions of [`crate::oracle`].

use kollide::math::nalgebra::SVector;

/// A vector of the oracle (world space, `f64`).
pub type V<const D: usize> = SVector<f64, D>;

/// Point sets up to this size get facets, edges and an exact distance function.
pub const EXACT_POINTS: usize = 16;

/// A facet of a small point set: its outward unit normal and its offset (`h(normal)`), and the
/// indices of the points that span it (two in 2D, three in 3D).
#[derive(Clone, Debug)]
pub struct Facet<const D: usize> {
    /// Outward unit normal.
    pub n: V<D>,
    /// `max p · n` over the points.
    pub h: f64,
    /// The spanning points (the third is unused in 2D).
    pub idx: [usize; 3],
}

/// A convex core in world space.
#[derive(Clone, Debug)]
pub enum Core<const D: usize> {
    /// The convex hull of these points.
    Points(Vec<V<D>>),
    /// A cylinder: centre, unit axis, half height, radius.
    Cylinder {
        /// Centre.
        c: V<D>,
        /// Unit axis.
        axis: V<D>,
        /// Half height.
        hh: f64,
        /// Radius.
        r: f64,
    },
    /// A cone with its apex at `c + hh·axis` and its base disc at `c − hh·axis`.
    Cone {
        /// Middle of the axis.
        c: V<D>,
        /// Unit axis (towards the apex).
        axis: V<D>,
        /// Half height.
        hh: f64,
        /// Base radius.
        r: f64,
    },
}

/// A shape in world space: a core, a radius, and (for point sets) the brute-force facets.
#[derive(Clone, Debug)]
pub struct Body<const D: usize> {
    /// The core.
    pub core: Core<D>,
    /// The radius grown around the core.
    pub radius: f64,
    /// Facets of a small point core (empty otherwise or when flat).
    pub facets: Vec<Facet<D>>,
    /// Edges of a small point core (pairs of indices).
    pub edges: Vec<(usize, usize)>,
    /// For a large point core: a small point set whose hull lies inside it, as a body.
    pub inner: Option<Box<Body<D>>>,
    /// The bounding radius about [`Body::center`].
    pub size: f64,
}

/// The length of the part of `n` perpendicular to the unit `axis`, from that part itself:
/// `√(|n|² − (axis·n)²)` cancels catastrophically for `n` nearly along the axis (an error of
/// `√ε·|n|`, which a cone's or cylinder's radius turns into a support error of about
/// `1e-8·radius` in `f64`, enough to see a face-to-face overlap as a gap).
fn perp_norm<const D: usize>(n: &V<D>, axis: &V<D>) -> f64 {
    (n - axis * axis.dot(n)).norm()
}

/// `a × b` for 3D vectors stored as `V<D>` (zero in other dimensions).
pub fn cross<const D: usize>(a: &V<D>, b: &V<D>) -> V<D> {
    let mut c = V::<D>::zeros();
    if D == 3 {
        c[0] = a[1] * b[2] - a[2] * b[1];
        c[1] = a[2] * b[0] - a[0] * b[2];
        c[2] = a[0] * b[1] - a[1] * b[0];
    }
    c
}

/// The 2D vector rotated clockwise by 90° (zero in other dimensions).
pub fn perp2<const D: usize>(a: &V<D>) -> V<D> {
    let mut c = V::<D>::zeros();
    if D == 2 {
        c[0] = a[1];
        c[1] = -a[0];
    }
    c
}

/// Distance from `p` to the segment `a b`.
pub fn seg_dist<const D: usize>(p: &V<D>, a: &V<D>, b: &V<D>) -> f64 {
    let e = b - a;
    let l2 = e.norm_squared();
    let t = if l2 > 0.0 { ((p - a).dot(&e) / l2).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + e * t)).norm()
}

/// Distance from `p` to the triangle `a b c` (3D; Ericson's region tests, written out).
pub fn tri_dist<const D: usize>(p: &V<D>, a: &V<D>, b: &V<D>, c: &V<D>) -> f64 {
    let n = cross(&(b - a), &(c - a));
    let nn = n.norm_squared();
    if nn > 0.0 {
        // Inside the prism over the triangle: the distance to the plane.
        let inside = [(a, b), (b, c), (c, a)]
            .iter()
            .all(|(u, v)| cross(&(*v - *u), &(p - *u)).dot(&n) >= 0.0);
        if inside {
            return ((p - a).dot(&n) / nn.sqrt()).abs();
        }
    }
    seg_dist(p, a, b).min(seg_dist(p, b, c)).min(seg_dist(p, c, a))
}

/// Brute-force facets and edges of a small point set.
fn facets_of<const D: usize>(pts: &[V<D>]) -> (Vec<Facet<D>>, Vec<(usize, usize)>) {
    let scale = pts.iter().map(|p| (p - pts[0]).norm()).fold(0.0, f64::max).max(1e-300);
    let eps = 1e-12 * scale;
    let mut facets = Vec::new();
    let push = |n: V<D>, idx: [usize; 3], facets: &mut Vec<Facet<D>>| {
        let (mut lo, mut hi) = (f64::MAX, f64::MIN);
        let base = pts[idx[0]].dot(&n);
        for p in pts {
            // Measured from the facet's own point: far from the origin, `p·n − base` would round
            // at the coordinates' scale, far above `eps`, and drop true facets (and their edges
            // and candidate axes) from the exact oracle.
            let s = (p - pts[idx[0]]).dot(&n);
            lo = lo.min(s);
            hi = hi.max(s);
        }
        if hi <= eps {
            facets.push(Facet { n, h: base + hi, idx });
        }
        if lo >= -eps {
            facets.push(Facet { n: -n, h: -(base + lo), idx });
        }
    };
    let k = pts.len();
    if D == 2 {
        for i in 0..k {
            for j in i + 1..k {
                let n = perp2(&(pts[j] - pts[i]));
                if n.norm() > eps {
                    push(n.normalize(), [i, j, j], &mut facets);
                }
            }
        }
    } else {
        for i in 0..k {
            for j in i + 1..k {
                for l in j + 1..k {
                    let n = cross(&(pts[j] - pts[i]), &(pts[l] - pts[i]));
                    if n.norm() > eps * scale {
                        push(n.normalize(), [i, j, l], &mut facets);
                    }
                }
            }
        }
    }
    let mut edges = Vec::new();
    for f in &facets {
        let pairs: &[(usize, usize)] = if D == 2 { &[(0, 1)] } else { &[(0, 1), (1, 2), (0, 2)] };
        for &(x, y) in pairs {
            let e = (f.idx[x].min(f.idx[y]), f.idx[x].max(f.idx[y]));
            if e.0 != e.1 && !edges.contains(&e) {
                edges.push(e);
            }
        }
    }
    if edges.is_empty() && k >= 2 {
        // Collinear points: every pair (only the extreme pair matters, the rest is harmless).
        for i in 0..k {
            for j in i + 1..k {
                edges.push((i, j));
            }
        }
    }
    (facets, edges)
}

impl<const D: usize> Body<D> {
    /// A body from a core and a radius; facets and edges are found for small point sets.
    pub fn new(core: Core<D>, radius: f64) -> Self {
        let (facets, edges) = match &core {
            Core::Points(p) if p.len() <= EXACT_POINTS => facets_of(p),
            _ => (Vec::new(), Vec::new()),
        };
        let mut b = Body { core, radius, facets, edges, inner: None, size: 0.0 };
        let c = b.center();
        b.size = match &b.core {
            Core::Points(p) => p.iter().map(|q| (q - c).norm()).fold(0.0, f64::max),
            Core::Cylinder { hh, r, .. } | Core::Cone { hh, r, .. } => (hh * hh + r * r).sqrt(),
        } + radius;
        b
    }

    /// Attaches an inner witness: a small point set inside a large point core.
    pub fn with_inner(mut self, pts: Vec<V<D>>) -> Self {
        self.inner = Some(Box::new(Body::new(Core::Points(pts), self.radius)));
        self
    }

    /// The points of a point core (empty for solids of revolution).
    pub fn points(&self) -> &[V<D>] {
        match &self.core {
            Core::Points(p) => p,
            _ => &[],
        }
    }

    /// `true` when the core is a small point set: the pair oracles are then exact.
    pub fn is_exact(&self) -> bool {
        matches!(&self.core, Core::Points(p) if p.len() <= EXACT_POINTS)
    }

    /// The centre: the mean of the points, or the middle of the axis.
    pub fn center(&self) -> V<D> {
        match &self.core {
            Core::Points(p) => p.iter().fold(V::zeros(), |s, q| s + q) / p.len() as f64,
            Core::Cylinder { c, .. } | Core::Cone { c, .. } => *c,
        }
    }

    /// The support function of the core, `max p · n` (any `n`, not only unit).
    pub fn core_h(&self, n: &V<D>) -> f64 {
        match &self.core {
            Core::Points(p) => p.iter().map(|q| q.dot(n)).fold(f64::MIN, f64::max),
            Core::Cylinder { c, axis, hh, r } => {
                c.dot(n) + hh * axis.dot(n).abs() + r * perp_norm(n, axis)
            }
            Core::Cone { c, axis, hh, r } => {
                let apex = c.dot(n) + hh * axis.dot(n);
                let rim = c.dot(n) - hh * axis.dot(n) + r * perp_norm(n, axis);
                apex.max(rim)
            }
        }
    }

    /// The support function of the whole shape.
    pub fn h(&self, n: &V<D>) -> f64 {
        self.core_h(n) + self.radius * n.norm()
    }

    /// The exact distance function of the core (negative inside), when it is known exactly.
    fn core_sdf_exact(&self, p: &V<D>) -> Option<f64> {
        match &self.core {
            Core::Points(pts) if pts.len() <= EXACT_POINTS => {
                let out = self.facets.iter().map(|f| p.dot(&f.n) - f.h).fold(f64::MIN, f64::max);
                if out <= 0.0 && self.is_solid() {
                    return Some(out);
                }
                let mut d = f64::MAX;
                if !self.facets.is_empty() {
                    for f in &self.facets {
                        let [i, j, k] = f.idx;
                        d = d.min(if D == 2 {
                            seg_dist(p, &pts[i], &pts[j])
                        } else {
                            tri_dist(p, &pts[i], &pts[j], &pts[k])
                        });
                    }
                } else if !self.edges.is_empty() {
                    for &(i, j) in &self.edges {
                        d = d.min(seg_dist(p, &pts[i], &pts[j]));
                    }
                } else {
                    d = (p - pts[0]).norm();
                }
                Some(d)
            }
            Core::Cylinder { c, axis, hh, r } => {
                let q = p - c;
                let y = axis.dot(&q);
                let rho = perp_norm(&q, axis);
                let (dx, dy) = (rho - r, y.abs() - hh);
                Some(if dx <= 0.0 && dy <= 0.0 {
                    dx.max(dy)
                } else {
                    (dx.max(0.0).powi(2) + dy.max(0.0).powi(2)).sqrt()
                })
            }
            Core::Cone { c, axis, hh, r } => {
                let q = p - c;
                let y = axis.dot(&q);
                let rho = perp_norm(&q, axis);
                let m: V<D> = nalgebra_v2(rho, y);
                let (apex, rim, base): (V<D>, V<D>, V<D>) =
                    (nalgebra_v2(0.0, *hh), nalgebra_v2(*r, -hh), nalgebra_v2(0.0, -hh));
                let d = seg_dist(&m, &apex, &rim).min(seg_dist(&m, &base, &rim));
                // Inside: above the base and on the axis side of the slant line.
                let slant = (rim - apex).normalize();
                let out_n: V<D> = nalgebra_v2::<D>(slant[1], -slant[0]) * -1.0;
                let inside = y >= -hh && (m - apex).dot(&out_n) <= 0.0;
                Some(if inside { -d } else { d })
            }
            Core::Points(_) => None,
        }
    }

    /// `true` for a point core with volume (area in 2D): it has facets facing more than two ways.
    fn is_solid(&self) -> bool {
        let Some(f0) = self.facets.first() else { return false };
        self.facets.iter().any(|f| f.n.dot(&f0.n).abs() < 1.0 - 1e-9)
    }

    /// An upper bound on the signed distance from `p` to the shape (exact where known).
    pub fn sdf_upper(&self, p: &V<D>) -> f64 {
        if let Some(d) = self.core_sdf_exact(p) {
            return d - self.radius;
        }
        match &self.inner {
            Some(inner) => inner.sdf_upper(p),
            // A large cloud without a witness: the distance to its nearest point.
            None => {
                self.points().iter().map(|q| (p - q).norm()).fold(f64::MAX, f64::min) - self.radius
            }
        }
    }

    /// `true` when the exact distance function is available (for on-surface checks).
    pub fn has_exact_sdf(&self) -> bool {
        !matches!(&self.core, Core::Points(p) if p.len() > EXACT_POINTS)
    }

    /// The body moved by `t`.
    pub fn translated(&self, t: &V<D>) -> Self {
        let mut b = self.clone();
        match &mut b.core {
            Core::Points(p) => p.iter_mut().for_each(|q| *q += t),
            Core::Cylinder { c, .. } | Core::Cone { c, .. } => *c += t,
        }
        for f in &mut b.facets {
            f.h += f.n.dot(t);
        }
        if let Some(inner) = &b.inner {
            b.inner = Some(Box::new(inner.translated(t)));
        }
        b
    }
}

fn nalgebra_v2<const D: usize>(x: f64, y: f64) -> V<D> {
    let mut v = V::<D>::zeros();
    v[0] = x;
    if D > 1 {
        v[1] = y;
    }
    v
}
