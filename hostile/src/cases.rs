//! The generator: seeded hostile cases for every pair of shape kinds and every case class.
//!
//! A case is drawn in `f64` from a seed that is a pure function of (dimension, kinds, class,
//! index), so any row of the report can be regenerated from the seed it prints. Shapes are
//! described by their constructor arguments ([`Desc`]), never by kollide's field layout, so the
//! generator survives the shapes becoming opaque. Placements that must be exact (touching,
//! near-touching, sunk by a known amount) are made with the oracle, on the `f64` description.

use kollide::math::Scalar;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::geom::{Body, Core, V};
use crate::oracle::{sample_dirs, signed_distance};

/// A kind of shape. In 2D `Ball` is the circle, `Hull` the polygon and `Rounded` the rounded
/// box; cylinders and cones are 3D only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Circle / ball.
    Ball,
    /// Segment.
    Segment,
    /// Capsule.
    Capsule,
    /// Box.
    Cuboid,
    /// Triangle.
    Triangle,
    /// Convex polygon / polyhedron from a point cloud.
    Hull,
    /// Cylinder (3D).
    Cylinder,
    /// Cone (3D).
    Cone,
    /// Rounded box.
    Rounded,
}

impl Kind {
    /// The kinds of a dimension.
    pub fn all(dim: usize) -> &'static [Kind] {
        use Kind::*;
        if dim == 2 {
            &[Ball, Segment, Capsule, Cuboid, Triangle, Hull, Rounded]
        } else {
            &[Ball, Segment, Capsule, Cuboid, Triangle, Hull, Cylinder, Cone, Rounded]
        }
    }

    /// The shape's name in that dimension.
    pub fn name(self, dim: usize) -> &'static str {
        match (self, dim) {
            (Kind::Ball, 2) => "circle",
            (Kind::Ball, _) => "ball",
            (Kind::Segment, _) => "segment",
            (Kind::Capsule, _) => "capsule",
            (Kind::Cuboid, 2) => "box",
            (Kind::Cuboid, _) => "cuboid",
            (Kind::Triangle, _) => "triangle",
            (Kind::Hull, 2) => "polygon",
            (Kind::Hull, _) => "polyhedron",
            (Kind::Cylinder, _) => "cylinder",
            (Kind::Cone, _) => "cone",
            (Kind::Rounded, _) => "rounded",
        }
    }

    /// Flat shapes contain nothing.
    fn is_flat(self, dim: usize) -> bool {
        self == Kind::Segment || (self == Kind::Triangle && dim == 3)
    }
}

/// A class of hostile case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Random sizes (1e-2 to 1e2), rotations and placements.
    Random,
    /// Both shapes at the same pose (identical when of the same kind).
    Coincident,
    /// A small shape at the centre of a large one.
    Nested,
    /// Touching (separation 0 by the oracle).
    Touching,
    /// Within 1e-7 to 1e-3 of touching, either side.
    NearTouching,
    /// Sizes 1e4 : 1, the small one touching or sunk into the large one.
    Ratio,
    /// 1000 : 1 slivers, near-parallel, near-touching.
    Sliver,
    /// Both shapes far from the origin (to 1e6 in f64, 1e4 sizes in f32).
    Far,
    /// Rotations a few ulps off unit, coincident or touching.
    UlpRotation,
    /// 1000-vertex hulls: coincident, nested, touching.
    Hull1000,
}

impl Class {
    /// Every class.
    pub const ALL: [Class; 10] = [
        Class::Random,
        Class::Coincident,
        Class::Nested,
        Class::Touching,
        Class::NearTouching,
        Class::Ratio,
        Class::Sliver,
        Class::Far,
        Class::UlpRotation,
        Class::Hull1000,
    ];

    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Class::Random => "random",
            Class::Coincident => "coincident",
            Class::Nested => "nested",
            Class::Touching => "touching",
            Class::NearTouching => "near",
            Class::Ratio => "ratio1e4",
            Class::Sliver => "sliver",
            Class::Far => "far",
            Class::UlpRotation => "ulp-rot",
            Class::Hull1000 => "hull1000",
        }
    }

    /// `true` when the class applies to the pair (1000-vertex hulls need a hull).
    pub fn applies(self, a: Kind, b: Kind) -> bool {
        self != Class::Hull1000 || a == Kind::Hull || b == Kind::Hull
    }
}

/// A shape by its constructor arguments, in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Desc<const D: usize> {
    /// `Ball::new(r)`.
    Ball {
        /// Radius.
        r: f64,
    },
    /// `Segment::new(a, b)`.
    Segment {
        /// First end.
        a: V<D>,
        /// Second end.
        b: V<D>,
    },
    /// `Capsule::new(a, b, r)`.
    Capsule {
        /// First end.
        a: V<D>,
        /// Second end.
        b: V<D>,
        /// Radius.
        r: f64,
    },
    /// `Cuboid::new(h)`.
    Cuboid {
        /// Half extents.
        h: V<D>,
    },
    /// `Triangle::new(a, b, c)` (counter-clockwise in 2D).
    Triangle {
        /// Vertex a.
        a: V<D>,
        /// Vertex b.
        b: V<D>,
        /// Vertex c.
        c: V<D>,
    },
    /// `ConvexPolygon::from_hull` / `ConvexPolyhedron::from_points`; the first `inner` points
    /// span a polytope inside the hull (the oracle's inner witness).
    Hull {
        /// The cloud.
        pts: Vec<V<D>>,
        /// How many leading points form the inner witness (0: none).
        inner: usize,
    },
    /// `Cylinder::new(hh, r)`.
    Cylinder {
        /// Half height.
        hh: f64,
        /// Radius.
        r: f64,
    },
    /// `Cone::new(hh, r)`.
    Cone {
        /// Half height.
        hh: f64,
        /// Radius.
        r: f64,
    },
    /// `Rounded::new(Cuboid::new(h), r)`.
    Rounded {
        /// Half extents of the inner box.
        h: V<D>,
        /// Border radius.
        r: f64,
    },
}

impl<const D: usize> Desc<D> {
    /// Applies `f` to every number (used to round to the scalar under test).
    pub fn map(&self, f: &dyn Fn(f64) -> f64) -> Self {
        let v = |x: &V<D>| x.map(f);
        match self {
            Desc::Ball { r } => Desc::Ball { r: f(*r) },
            Desc::Segment { a, b } => Desc::Segment { a: v(a), b: v(b) },
            Desc::Capsule { a, b, r } => Desc::Capsule { a: v(a), b: v(b), r: f(*r) },
            Desc::Cuboid { h } => Desc::Cuboid { h: v(h) },
            Desc::Triangle { a, b, c } => Desc::Triangle { a: v(a), b: v(b), c: v(c) },
            Desc::Hull { pts, inner } => {
                Desc::Hull { pts: pts.iter().map(v).collect(), inner: *inner }
            }
            Desc::Cylinder { hh, r } => Desc::Cylinder { hh: f(*hh), r: f(*r) },
            Desc::Cone { hh, r } => Desc::Cone { hh: f(*hh), r: f(*r) },
            Desc::Rounded { h, r } => Desc::Rounded { h: v(h), r: f(*r) },
        }
    }

    /// The smallest of the sizes and lengths that kollide's constructors hold to
    /// `Scalar::MIN_SIZE` (docs/conventions.md, "The envelope"): radii, half extents, half
    /// heights, a segment's length, a triangle's longest edge, a hull's longest bounding-box side.
    pub fn smallest_size(&self) -> f64 {
        let longest_side = |pts: &[V<D>]| {
            (0..D)
                .map(|i| {
                    let (lo, hi) = pts
                        .iter()
                        .fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p[i]), hi.max(p[i])));
                    hi - lo
                })
                .fold(0.0, f64::max)
        };
        match self {
            Desc::Ball { r } => *r,
            Desc::Segment { a, b } => (b - a).norm(),
            Desc::Capsule { a, b, r } => r.min((b - a).norm()),
            Desc::Cuboid { h } => h.min(),
            Desc::Triangle { a, b, c } => (b - a).norm().max((c - b).norm()).max((a - c).norm()),
            Desc::Hull { pts, .. } => longest_side(pts),
            Desc::Cylinder { hh, r } | Desc::Cone { hh, r } => hh.min(*r),
            Desc::Rounded { h, r } => h.min().min(*r),
        }
    }
}

/// A pose: translation and rotation (`[cos, sin, 0, 0]` in 2D, a quaternion `[w, i, j, k]` in
/// 3D), with the rotation's components to be scaled by `1 + ulp_k·ε` of the scalar under test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseDesc<const D: usize> {
    /// Translation.
    pub t: V<D>,
    /// Rotation components.
    pub rot: [f64; 4],
    /// Ulps off unit (0: as unit as the scalar allows).
    pub ulp_k: i32,
}

impl<const D: usize> PoseDesc<D> {
    /// Rotates a local vector (the rotation normalised in f64).
    pub fn rotate(&self, v: &V<D>) -> V<D> {
        let mut out = V::<D>::zeros();
        if D == 2 {
            let l = (self.rot[0] * self.rot[0] + self.rot[1] * self.rot[1]).sqrt();
            let (c, s) = (self.rot[0] / l, self.rot[1] / l);
            out[0] = c * v[0] - s * v[1];
            out[1] = s * v[0] + c * v[1];
        } else {
            let l = self.rot.iter().map(|x| x * x).sum::<f64>().sqrt();
            let [w, x, y, z] = self.rot.map(|c| c / l);
            let (vx, vy, vz) = (v[0], v[1], v[2]);
            // v + 2w (q × v) + 2 q × (q × v)
            let (cx, cy, cz) = (y * vz - z * vy, z * vx - x * vz, x * vy - y * vx);
            let (ccx, ccy, ccz) = (y * cz - z * cy, z * cx - x * cz, x * cy - y * cx);
            out[0] = vx + 2.0 * (w * cx + ccx);
            out[1] = vy + 2.0 * (w * cy + ccy);
            out[2] = vz + 2.0 * (w * cz + ccz);
        }
        out
    }

    /// Maps a local point to the world.
    pub fn apply(&self, p: &V<D>) -> V<D> {
        self.rotate(p) + self.t
    }
}

/// The world body of a description at a pose.
pub fn body<const D: usize>(desc: &Desc<D>, pose: &PoseDesc<D>) -> Body<D> {
    let pts = |p: &[V<D>]| p.iter().map(|q| pose.apply(q)).collect::<Vec<_>>();
    let corners = |h: &V<D>| {
        (0..1usize << D)
            .map(|i| {
                pose.apply(&V::<D>::from_fn(|k, _| if i & (1 << k) != 0 { h[k] } else { -h[k] }))
            })
            .collect::<Vec<_>>()
    };
    let axis = || {
        let mut y = V::<D>::zeros();
        y[1] = 1.0;
        pose.rotate(&y)
    };
    match desc {
        Desc::Ball { r } => Body::new(Core::Points(vec![pose.t]), *r),
        Desc::Segment { a, b } => Body::new(Core::Points(pts(&[*a, *b])), 0.0),
        Desc::Capsule { a, b, r } => Body::new(Core::Points(pts(&[*a, *b])), *r),
        Desc::Cuboid { h } => Body::new(Core::Points(corners(h)), 0.0),
        Desc::Triangle { a, b, c } => Body::new(Core::Points(pts(&[*a, *b, *c])), 0.0),
        Desc::Hull { pts: p, inner } => {
            let b = Body::new(Core::Points(pts(p)), 0.0);
            if *inner > 0 && p.len() > crate::geom::EXACT_POINTS {
                b.with_inner(pts(&p[..*inner]))
            } else {
                b
            }
        }
        Desc::Cylinder { hh, r } => {
            Body::new(Core::Cylinder { c: pose.t, axis: axis(), hh: *hh, r: *r }, 0.0)
        }
        Desc::Cone { hh, r } => {
            Body::new(Core::Cone { c: pose.t, axis: axis(), hh: *hh, r: *r }, 0.0)
        }
        Desc::Rounded { h, r } => Body::new(Core::Points(corners(h)), *r),
    }
}

/// One generated case, in `f64`, before rounding to the scalar under test.
#[derive(Clone, Debug)]
pub struct Case<const D: usize> {
    /// The seed it was drawn from.
    pub seed: u64,
    /// Its class.
    pub class: Class,
    /// Shape A.
    pub a: Desc<D>,
    /// Shape B.
    pub b: Desc<D>,
    /// A's pose.
    pub pose_a: PoseDesc<D>,
    /// B's pose.
    pub pose_b: PoseDesc<D>,
    /// A's velocity (shape cast).
    pub vel_a: V<D>,
    /// B's velocity (shape cast).
    pub vel_b: V<D>,
    /// Direction for `directional_penetration` (unit).
    pub dir: V<D>,
    /// Ray origin (cast against A).
    pub ray_origin: V<D>,
    /// Ray direction (may be zero).
    pub ray_dir: V<D>,
}

/// The seed of case `index` of a category: a pure function of its arguments (SplitMix64).
pub fn case_seed(base: u64, dim: usize, a: Kind, b: Kind, class: Class, index: u64) -> u64 {
    let mut x = base
        ^ (dim as u64) << 56
        ^ (a as u64) << 48
        ^ (b as u64) << 40
        ^ (class as u64) << 32
        ^ index;
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

struct G<'r, const D: usize> {
    rng: &'r mut ChaCha8Rng,
}

impl<const D: usize> G<'_, D> {
    fn u(&mut self, lo: f64, hi: f64) -> f64 {
        self.rng.random_range(lo..hi)
    }

    fn unit(&mut self) -> V<D> {
        loop {
            let v = V::<D>::from_fn(|_, _| self.rng.random_range(-1.0..1.0));
            let l = v.norm();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }

    fn in_ball(&mut self, r: f64) -> V<D> {
        loop {
            let v = V::<D>::from_fn(|_, _| self.rng.random_range(-1.0..1.0));
            if v.norm() <= 1.0 {
                return v * r;
            }
        }
    }

    fn rotation(&mut self) -> [f64; 4] {
        if D == 2 {
            let a = self.u(-std::f64::consts::PI, std::f64::consts::PI);
            [a.cos(), a.sin(), 0.0, 0.0]
        } else {
            loop {
                let q: [f64; 4] = std::array::from_fn(|_| self.rng.random_range(-1.0..1.0));
                let l = q.iter().map(|x| x * x).sum::<f64>().sqrt();
                if l > 0.1 && l <= 1.0 {
                    return q.map(|x| x / l);
                }
            }
        }
    }

    /// A rotation within `angle` of `rot` (for near-parallel slivers).
    fn near_rotation(&mut self, rot: [f64; 4], angle: f64) -> [f64; 4] {
        if D == 2 {
            let a = rot[1].atan2(rot[0]) + self.u(-angle, angle);
            [a.cos(), a.sin(), 0.0, 0.0]
        } else {
            let axis = V::<3>::from_fn(|_, _| self.rng.random_range(-1.0..1.0)).normalize();
            let h = 0.5 * self.u(-angle, angle);
            let (s, c) = h.sin_cos();
            let d = [c, axis[0] * s, axis[1] * s, axis[2] * s];
            let [w1, x1, y1, z1] = d;
            let [w2, x2, y2, z2] = rot;
            [
                w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
            ]
        }
    }

    fn ellipse_hull(&mut self, s: f64, count: usize, thin: f64) -> Desc<D> {
        let axes = V::<D>::from_fn(|k, _| s * self.u(0.5, 1.0) * if k == 1 { thin } else { 1.0 });
        let mut pts = Vec::with_capacity(count);
        // The inner witness: the axis points and the diagonal points, all on the surface.
        for k in 0..D {
            for sign in [1.0, -1.0] {
                let mut p = V::<D>::zeros();
                p[k] = sign * axes[k];
                pts.push(p);
            }
        }
        for i in 0..1usize << D {
            let p = V::<D>::from_fn(|k, _| {
                let sign = if i & (1 << k) != 0 { 1.0 } else { -1.0 };
                sign * axes[k] / (D as f64).sqrt()
            });
            pts.push(p);
        }
        let inner = pts.len();
        while pts.len() < count {
            let u = self.unit();
            pts.push(u.component_mul(&axes));
        }
        Desc::Hull { pts, inner }
    }

    /// A shape of `kind` with characteristic size `s`.
    fn shape(&mut self, kind: Kind, s: f64, sliver: bool, big: bool) -> Desc<D> {
        let thin = if sliver { 1e-3 } else { 1.0 };
        match kind {
            Kind::Ball => Desc::Ball { r: s * self.u(0.5, 1.0) },
            Kind::Segment | Kind::Capsule => {
                let u = self.unit();
                let c = self.in_ball(0.2 * s);
                let l = s * self.u(0.4, 1.0);
                let (a, b) = (c - u * l, c + u * l);
                if kind == Kind::Segment {
                    Desc::Segment { a, b }
                } else {
                    let r = if sliver { l * 1e-3 } else { s * self.u(0.1, 0.5) };
                    Desc::Capsule { a, b, r }
                }
            }
            Kind::Cuboid => {
                let mut h = V::<D>::from_fn(|_, _| s * self.u(0.3, 1.0));
                h[1] *= thin;
                Desc::Cuboid { h }
            }
            Kind::Triangle => loop {
                let (mut a, mut b, mut c) = (self.in_ball(s), self.in_ball(s), self.in_ball(s));
                if sliver {
                    a = V::<D>::zeros();
                    a[0] = -s;
                    b = -a;
                    c = V::<D>::zeros();
                    c[0] = self.u(-s, s);
                    c[1] = s * 1e-3 * self.u(0.2, 1.0);
                    if D == 3 {
                        c[2] = s * 1e-3 * self.u(-1.0, 1.0);
                    }
                }
                let (u, v) = (b - a, c - a);
                let area2 =
                    (u.norm_squared() * v.norm_squared() - u.dot(&v).powi(2)).max(0.0).sqrt();
                if sliver || area2 > 0.2 * s * s {
                    if D == 2 && u[0] * v[1] - u[1] * v[0] < 0.0 {
                        std::mem::swap(&mut b, &mut c);
                    }
                    break Desc::Triangle { a, b, c };
                }
            },
            Kind::Hull => {
                if big {
                    self.ellipse_hull(s, 1000, thin)
                } else {
                    let n = if D == 2 {
                        self.rng.random_range(5..=12)
                    } else {
                        self.rng.random_range(5..=10)
                    };
                    let mut pts: Vec<V<D>> = (0..n).map(|_| self.in_ball(s)).collect();
                    for p in &mut pts {
                        p[1] *= thin;
                    }
                    Desc::Hull { pts, inner: 0 }
                }
            }
            Kind::Cylinder | Kind::Cone => {
                let (mut hh, mut r) = (s * self.u(0.3, 1.0), s * self.u(0.3, 1.0));
                if sliver {
                    if self.rng.random_bool(0.5) { hh *= 1e-3 } else { r *= 1e-3 }
                }
                if kind == Kind::Cylinder { Desc::Cylinder { hh, r } } else { Desc::Cone { hh, r } }
            }
            Kind::Rounded => {
                let mut h = V::<D>::from_fn(|_, _| s * self.u(0.2, 0.8));
                h[1] *= thin;
                let r = if sliver { s * 1e-4 * self.u(0.5, 1.0) } else { s * self.u(0.05, 0.3) };
                Desc::Rounded { h, r }
            }
        }
    }
}

/// Moves B (by translation) until the oracle's signed distance is `target` along the best
/// normal; a few rounds, since curved pairs are solved approximately.
fn place<const D: usize>(
    a: &Desc<D>,
    pa: &PoseDesc<D>,
    b: &Desc<D>,
    pb: &mut PoseDesc<D>,
    target: f64,
    dirs: &[V<D>],
) {
    for _ in 0..4 {
        let (ba, bb) = (body(a, pa), body(b, pb));
        let t = signed_distance(&ba, &bb, dirs);
        let err = t.value() - target;
        pb.t -= t.n * err;
        if t.exact {
            break;
        }
    }
}

/// Draws the case `seed` of `class` for kinds `(ka, kb)`. `f32` limits the far offsets to what
/// `f32` represents (1e1 to 1e4 shape sizes instead of 1e3 to 1e6 absolute). A case whose
/// smallest shape size falls below the scalar's `MIN_SIZE` is scaled up into the envelope
/// (`Case::within_envelope`).
pub fn generate<const D: usize>(ka: Kind, kb: Kind, class: Class, seed: u64, f32: bool) -> Case<D> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = G::<D> { rng: &mut rng };
    let dirs = sample_dirs::<D>(if D == 2 { 128 } else { 256 });
    let s0 = 10f64.powf(g.u(-2.0, 2.0));
    let sliver = class == Class::Sliver;
    let big = class == Class::Hull1000;
    let (mut sa, mut sb) = (s0 * 10f64.powf(g.u(-0.3, 0.3)), s0 * 10f64.powf(g.u(-0.3, 0.3)));
    // Nested and 1e4 : 1 cases: which shape is the small one.
    let small_b = match (ka.is_flat(D), kb.is_flat(D)) {
        (false, true) => true,
        (true, false) => false,
        _ => g.rng.random_bool(0.5),
    };
    let hull_mode = seed % 3;
    let nested = class == Class::Nested || (big && hull_mode == 1);
    let ratio = if nested {
        0.02
    } else if class == Class::Ratio {
        1e-4
    } else {
        1.0
    };
    if small_b {
        sb = sa * ratio
    } else {
        sa = sb * ratio
    }
    let a = g.shape(ka, sa, sliver, big);
    let coincident = class == Class::Coincident
        || (big && hull_mode == 0)
        || (class == Class::UlpRotation && seed.is_multiple_of(2));
    let b = if coincident && ka == kb { a.clone() } else { g.shape(kb, sb, sliver, big) };
    let ulp_k = if class == Class::UlpRotation { g.rng.random_range(-8..=8) } else { 0 };
    let offset = if class == Class::Far {
        if f32 { s0 * 10f64.powf(g.u(1.0, 4.0)) } else { 10f64.powf(g.u(3.0, 6.0)) }
    } else {
        0.0
    };
    let common = g.unit() * offset;
    let pose_a = PoseDesc { t: g.in_ball(s0) + common, rot: g.rotation(), ulp_k };
    let mut pose_b = PoseDesc { t: pose_a.t, rot: pose_a.rot, ulp_k };
    if !coincident {
        pose_b.rot = if sliver {
            let angle = g.u(1e-4, 0.1);
            g.near_rotation(pose_a.rot, angle)
        } else {
            g.rotation()
        };
        let (ba, bb) = (body(&a, &pose_a), body(&b, &PoseDesc { t: V::zeros(), ..pose_b }));
        let reach = ba.size + bb.size;
        let center_a = ba.center();
        if nested {
            // The small shape's centre at the large one's centre (either way round).
            pose_b.t = center_a - bb.center();
        } else {
            pose_b.t = center_a + g.unit() * reach * g.u(0.0, 1.2) - bb.center();
            let band = match class {
                Class::Touching | Class::UlpRotation => Some(0.0),
                Class::NearTouching => {
                    let sign = if g.rng.random_bool(0.5) { 1.0 } else { -1.0 };
                    Some(sign * reach * 10f64.powf(g.u(-7.0, -3.0)))
                }
                Class::Ratio => Some(sa.min(sb) * g.u(-0.5, 0.5)),
                Class::Sliver => Some(s0 * 1e-3 * g.u(-1.0, 1.0)),
                Class::Far if g.rng.random_bool(0.5) => Some(reach * 10f64.powf(g.u(-7.0, -3.0))),
                Class::Hull1000 => Some(0.0),
                _ => None,
            };
            if let Some(target) = band {
                place(&a, &pose_a, &b, &mut pose_b, target, &dirs);
            }
        }
    }
    let (ba, bb) = (body(&a, &pose_a), body(&b, &pose_b));
    let to_a = ba.center() - bb.center();
    let speed = to_a.norm().max(s0 * 0.1);
    let vel_a = if g.rng.random_bool(0.5) { V::zeros() } else { g.unit() * speed * 0.3 };
    let mode = g.u(0.0, 1.0);
    let vel_b = if mode < 0.2 {
        -to_a * g.u(0.5, 2.0) + vel_a
    } else {
        to_a * g.u(0.5, 3.0) + g.unit() * speed * 0.3 + vel_a
    };
    let dir = g.unit();
    let ca = ba.center();
    let (ray_origin, ray_dir) = {
        let m = g.u(0.0, 1.0);
        let o = if m < 0.15 {
            ca + g.in_ball(ba.size * 0.01)
        } else {
            ca + g.unit() * ba.size * g.u(1.05, 3.0)
        };
        let d = if m > 0.9 {
            V::zeros()
        } else if m > 0.8 {
            (o - ca) * g.u(0.1, 2.0)
        } else {
            (ca - o) * g.u(0.1, 2.0) + g.in_ball(ba.size * 0.5)
        };
        (o, d)
    };
    let case = Case { seed, class, a, b, pose_a, pose_b, vel_a, vel_b, dir, ray_origin, ray_dir };
    let min_size =
        if f32 { f64::from(<f32 as Scalar>::MIN_SIZE) } else { <f64 as Scalar>::MIN_SIZE };
    case.within_envelope(min_size)
}

impl<const D: usize> Case<D> {
    /// The case scaled up by a power of two (exact in `f64`, so touching stays touching) until
    /// each shape's smallest size is at least `1.25 · min_size`: a 1e4 : 1 pair or a sliver drawn
    /// at centimetre scale has sizes below `f32`'s envelope, which kollide rightly refuses, and
    /// refused cases test nothing. Lengths scale; rotations and the unit `dir` do not.
    fn within_envelope(mut self, min_size: f64) -> Self {
        let smallest = self.a.smallest_size().min(self.b.smallest_size());
        if smallest <= 0.0 || smallest >= 1.25 * min_size {
            return self;
        }
        let k = (1.25 * min_size / smallest).log2().ceil().exp2();
        let s = |x: f64| x * k;
        self.a = self.a.map(&s);
        self.b = self.b.map(&s);
        for v in [
            &mut self.pose_a.t,
            &mut self.pose_b.t,
            &mut self.vel_a,
            &mut self.vel_b,
            &mut self.ray_origin,
            &mut self.ray_dir,
        ] {
            *v *= k;
        }
        self
    }
}
