//! Debug drawing of shapes: [`Draw2`] for every 2D shape, [`Draw3`] for every 3D shape through
//! an orthographic projection ([`Ortho`]), both into any [`DebugDraw`] backend.
//!
//! Polygons draw their vertices. Round shapes (capsules, rounded boxes) and anything else that is
//! only known by its support function draw the outline [`support_outline2`] recovers from it:
//! support points in a fan of directions, refined between two neighbours `p`, `q` by asking for
//! the support in the normal of `p → q` until no new point lies farther out than a small fraction
//! of the shape's size. For a polygon this finds every vertex exactly (the same recovery that
//! 2D EPA performs); for a curve it stops at a chord error of about 0.1 % of the size.
//!
//! A 3D shape draws its silhouette (the outline of its projection, again from the support
//! function, since the support of the projection in a screen direction is the projection of the
//! support in that direction), filled, then its edges: solid when visible, dashed when both
//! faces they join face away from the viewer. Round shapes draw a few rings (a ball's great
//! circles, a cylinder's caps) split the same way.
//!
//! **Design:** `kollide-draw` is a normal dependency rather than an optional feature: it has no
//! dependency of its own besides `kollide-math`, the drawing code costs nothing unless called,
//! and every check (tests, clippy, docs) covers it without a feature matrix.

use kollide_draw::{Color, DebugDraw, Ortho, Style};
use kollide_math::{Iso2, Iso3, Point2, Point3, Scalar, Vec2, Vec3};

use crate::{
    Aabb, Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder, Rounded, Segment,
    Shape2, Shape3, SupportMap, Triangle,
};

/// The number of directions [`support_outline2`] starts from.
const FAN: usize = 32;
/// The largest number of halvings between two fan directions.
const MAX_DEPTH: u32 = 6;
/// Segments of a ring (a circle drawn in 3D).
const RING: usize = 48;

/// The counter-clockwise outline of a convex 2D set given by its support function, refined until
/// every edge lies on the boundary to within `0.001 · scale` (see the module docs). `scale` is
/// the set's size (any positive length of its order).
///
/// ```
/// use kollide_math::{Point2, Vec2};
/// use kollide_shapes::draw::support_outline2;
/// let square = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| Point2::new(x, y));
/// let support = |d: &Vec2<f64>| {
///     *square.iter().max_by(|a, b| a.coords.dot(d).total_cmp(&b.coords.dot(d))).unwrap()
/// };
/// assert_eq!(support_outline2(support, 1.0).len(), 4);
/// ```
pub fn support_outline2<N: Scalar>(
    support: impl Fn(&Vec2<N>) -> Point2<N>,
    scale: N,
) -> Vec<Point2<N>> {
    let tol = scale * N::lit(1e-3);
    let dirs: Vec<Vec2<N>> = (0..FAN)
        .map(|i| {
            let t = N::two_pi() * N::from_count(i) / N::from_count(FAN);
            Vec2::new(t.cos(), t.sin())
        })
        .collect();
    let pts: Vec<Point2<N>> = dirs.iter().map(&support).collect();
    let mut out: Vec<Point2<N>> = Vec::with_capacity(FAN * 2);
    for i in 0..FAN {
        let j = (i + 1) % FAN;
        push_distinct(&mut out, pts[i], tol);
        refine(&support, pts[i], pts[j], MAX_DEPTH, tol, &mut out);
    }
    while out.len() > 1 && (out[0] - out[out.len() - 1]).norm() <= tol * N::lit(0.01) {
        out.pop();
    }
    // A fan direction exactly normal to an edge may return a point inside that edge (support ties
    // of two shapes, for a Minkowski difference): drop points on the line through their
    // neighbours.
    let mut i = 0;
    while out.len() > 3 && i < out.len() {
        let n = out.len();
        let (p, q, r) = (out[(i + n - 1) % n], out[i], out[(i + 1) % n]);
        let e = r - p;
        let len = e.norm();
        if len > N::zero()
            && (e.x * (q.y - p.y) - e.y * (q.x - p.x)).abs() <= tol * N::lit(1e-3) * len
        {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    out
}

fn push_distinct<N: Scalar>(out: &mut Vec<Point2<N>>, p: Point2<N>, tol: N) {
    if out.last().is_none_or(|q| (p - q).norm() > tol * N::lit(0.01)) {
        out.push(p);
    }
}

fn refine<N: Scalar>(
    support: &impl Fn(&Vec2<N>) -> Point2<N>,
    p: Point2<N>,
    q: Point2<N>,
    depth: u32,
    tol: N,
    out: &mut Vec<Point2<N>>,
) {
    let e = q - p;
    if depth == 0 || e.norm() <= tol {
        return;
    }
    let n = Vec2::new(e.y, -e.x);
    let w = support(&n);
    if n.dot(&(w - p)) <= tol * e.norm() {
        return;
    }
    refine(support, p, w, depth - 1, tol, out);
    push_distinct(out, w, tol);
    refine(support, w, q, depth - 1, tol, out);
}

/// A rough size of a support-mapped shape: its farthest support point along ±x and ±y.
fn size2<N: Scalar, S: SupportMap<N, 2> + ?Sized>(s: &S) -> N {
    [Vec2::x(), -Vec2::x(), Vec2::y(), -Vec2::y()]
        .iter()
        .map(|d| s.local_support_point(d).coords.norm())
        .fold(N::EPSILON, |a, b| a.max_of(b))
}

/// The world outline of any 2D support-mapped shape at `pose`, radius included.
pub fn outline2<N: Scalar, S: SupportMap<N, 2> + ?Sized>(
    shape: &S,
    pose: &Iso2<N>,
) -> Vec<Point2<N>> {
    let local = support_outline2(|d| shape.local_support_point(d), size2(shape));
    local.iter().map(|p| pose * p).collect()
}

/// Shapes that can draw themselves in 2D.
pub trait Draw2<N: Scalar> {
    /// Draws the shape placed at `pose` (world units) in `style`.
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style);
}

/// A thin dashed variant of a style, for construction lines (cores, axes).
fn construction(style: &Style) -> Style {
    Style {
        stroke: style.stroke.map(|c| c.with_alpha(160)),
        fill: None,
        width: style.width * 0.6,
        dashed: true,
    }
}

impl<N: Scalar> Draw2<N> for Ball<N, 2> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let c = Point2::from(pose.translation.vector);
        dd.circle(&c, self.radius(), style);
        // A radius shows the rotation.
        dd.segment(&c, &(pose * Point2::new(self.radius(), N::zero())), &construction(style));
    }
}

impl<N: Scalar> Draw2<N> for Segment<N, 2> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let s = Style { fill: None, width: style.width * 1.5, ..*style };
        dd.polyline(&[pose * self.a(), pose * self.b()], &s);
    }
}

impl<N: Scalar> Draw2<N> for Capsule<N, 2> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        dd.polygon(&outline2(self, pose), style);
        dd.segment(
            &(pose * self.segment().a()),
            &(pose * self.segment().b()),
            &construction(style),
        );
    }
}

impl<N: Scalar> Draw2<N> for Cuboid<N, 2> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let h = self.half_extents();
        let pts = [(-h.x, -h.y), (h.x, -h.y), (h.x, h.y), (-h.x, h.y)]
            .map(|(x, y)| pose * Point2::new(x, y));
        dd.polygon(&pts, style);
    }
}

impl<N: Scalar> Draw2<N> for Triangle<N, 2> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        dd.polygon(&self.vertices().map(|p| pose * p), style);
    }
}

impl<N: Scalar> Draw2<N> for ConvexPolygon<N> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let pts: Vec<Point2<N>> = self.vertices().iter().map(|p| pose * p).collect();
        dd.polygon(&pts, style);
    }
}

impl<N: Scalar, S: SupportMap<N, 2> + Draw2<N>> Draw2<N> for Rounded<S, N> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        dd.polygon(&outline2(self, pose), style);
        self.inner().draw2(pose, dd, &construction(style));
    }
}

impl<N: Scalar> Draw2<N> for Shape2<N> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        match self {
            Self::Circle(s) => s.draw2(pose, dd, style),
            Self::Capsule(s) => s.draw2(pose, dd, style),
            Self::Segment(s) => s.draw2(pose, dd, style),
            Self::Cuboid(s) => s.draw2(pose, dd, style),
            Self::Triangle(s) => s.draw2(pose, dd, style),
            Self::Polygon(s) => s.draw2(pose, dd, style),
            Self::RoundedCuboid(s) => s.draw2(pose, dd, style),
        }
    }
}

impl<N: Scalar> Draw2<N> for Aabb<N, 2> {
    /// Draws the box's corners moved by `pose` (pass the identity for a world-space AABB).
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let (a, b) = (self.mins, self.maxs);
        let pts =
            [(a.x, a.y), (b.x, a.y), (b.x, b.y), (a.x, b.y)].map(|(x, y)| pose * Point2::new(x, y));
        dd.polygon(&pts, style);
    }
}

/// Shapes that can draw themselves in 3D, through an orthographic view.
pub trait Draw3<N: Scalar> {
    /// Draws the shape placed at `pose`, projected by `view`, in `style`.
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style);
}

/// The projected silhouette of a 3D support-mapped shape (radius included).
pub fn silhouette3<N: Scalar, S: SupportMap<N, 3> + ?Sized>(
    shape: &S,
    pose: &Iso3<N>,
    view: &Ortho<N>,
) -> Vec<Point2<N>> {
    let size = [Vec3::x(), Vec3::y(), Vec3::z(), -Vec3::x(), -Vec3::y(), -Vec3::z()]
        .iter()
        .map(|d| shape.local_support_point(d).coords.norm())
        .fold(N::EPSILON, |a, b| a.max_of(b));
    support_outline2(
        |d| view.project(&shape.support_point(pose, &view.unproject_dir(d.x, d.y))),
        size,
    )
}

/// The style of visible and of hidden edges.
fn edge_styles(style: &Style) -> (Style, Style) {
    let stroke = style.stroke.unwrap_or(Color::BLACK);
    let visible =
        Style { stroke: Some(stroke), fill: None, width: style.width * 0.8, dashed: false };
    let hidden = Style {
        stroke: Some(stroke.with_alpha(150)),
        width: style.width * 0.6,
        dashed: true,
        ..visible
    };
    (visible, hidden)
}

/// Draws the silhouette: fill first, outline last (call [`finish_silhouette`] after the edges).
fn fill_silhouette<N: Scalar>(sil: &[Point2<N>], dd: &mut dyn DebugDraw<N>, style: &Style) {
    if style.fill.is_some() {
        dd.polygon(sil, &Style { stroke: None, ..*style });
    }
}

fn finish_silhouette<N: Scalar>(sil: &[Point2<N>], dd: &mut dyn DebugDraw<N>, style: &Style) {
    dd.polygon(sil, &Style { fill: None, ..*style });
}

/// Draws straight edges `(p, q, hidden)` in world coordinates.
fn draw_edges<N: Scalar>(
    edges: &[(Point3<N>, Point3<N>, bool)],
    view: &Ortho<N>,
    dd: &mut dyn DebugDraw<N>,
    style: &Style,
) {
    let (visible, hidden) = edge_styles(style);
    for pass in [true, false] {
        for (p, q, h) in edges {
            if *h == pass {
                let s = if *h { &hidden } else { &visible };
                dd.segment(&view.project(p), &view.project(q), s);
            }
        }
    }
}

/// Draws a circle of `radius` around `center` in the plane spanned by the unit vectors `u`, `v`
/// (world), solid where `visible(point, radial direction)` holds and dashed elsewhere.
fn ring<N: Scalar>(
    center: &Point3<N>,
    u: &Vec3<N>,
    v: &Vec3<N>,
    radius: N,
    visible: impl Fn(&Vec3<N>) -> bool,
    view: &Ortho<N>,
    dd: &mut dyn DebugDraw<N>,
    style: &Style,
) {
    let (vis_style, hid_style) = edge_styles(style);
    let samples: Vec<(Point2<N>, bool)> = (0..=RING)
        .map(|i| {
            let t = N::two_pi() * N::from_count(i) / N::from_count(RING);
            let radial = u * t.cos() + v * t.sin();
            (view.project(&(center + radial * radius)), visible(&radial))
        })
        .collect();
    let mut run: Vec<Point2<N>> = vec![samples[0].0];
    let mut state = samples[0].1;
    for (p, vis) in samples.iter().skip(1) {
        run.push(*p);
        if *vis != state {
            dd.polyline(&run, if state { &vis_style } else { &hid_style });
            run = vec![*p];
            state = *vis;
        }
    }
    if run.len() > 1 {
        dd.polyline(&run, if state { &vis_style } else { &hid_style });
    }
}

/// A unit vector perpendicular to `n`, and a second one completing the basis.
fn basis<N: Scalar>(n: &Vec3<N>) -> (Vec3<N>, Vec3<N>) {
    let a = if n.x.abs() < N::lit(0.6) { Vec3::x() } else { Vec3::y() };
    let u = n.cross(&a).normalize();
    (u, n.cross(&u))
}

impl<N: Scalar> Draw3<N> for Ball<N, 3> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let sil = silhouette3(self, pose, view);
        fill_silhouette(&sil, dd, style);
        let c = Point3::from(pose.translation.vector);
        let axes = [Vec3::x(), Vec3::y(), Vec3::z()].map(|a| pose.rotation * a);
        let toward = view.toward_viewer;
        for k in 0..3 {
            let (u, v) = (axes[(k + 1) % 3], axes[(k + 2) % 3]);
            ring(&c, &u, &v, self.radius(), |r| r.dot(&toward) >= N::zero(), view, dd, style);
        }
        finish_silhouette(&sil, dd, style);
    }
}

impl<N: Scalar> Draw3<N> for Segment<N, 3> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let s = Style { fill: None, width: style.width * 1.5, ..*style };
        dd.segment(&view.project(&(pose * self.a())), &view.project(&(pose * self.b())), &s);
    }
}

impl<N: Scalar> Draw3<N> for Capsule<N, 3> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let sil = silhouette3(self, pose, view);
        fill_silhouette(&sil, dd, style);
        let (a, b) = (pose * self.segment().a(), pose * self.segment().b());
        if let Some(axis) = (b - a).try_normalize(N::EPSILON) {
            let (u, v) = basis(&axis);
            let toward = view.toward_viewer;
            for c in [a, b] {
                ring(&c, &u, &v, self.radius(), |r| r.dot(&toward) >= N::zero(), view, dd, style);
            }
        }
        dd.segment(&view.project(&a), &view.project(&b), &construction(style));
        finish_silhouette(&sil, dd, style);
    }
}

impl<N: Scalar> Draw3<N> for Cuboid<N, 3> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let sil = silhouette3(self, pose, view);
        fill_silhouette(&sil, dd, style);
        let verts = self.vertices();
        let mut edges = Vec::with_capacity(12);
        for i in 0..8usize {
            for k in 0..3 {
                let j = i | (1 << k);
                if j == i {
                    continue;
                }
                // The two faces that meet at this edge are those of the other two axes.
                let hidden = (0..3).filter(|&m| m != k).all(|m| {
                    let sign = if i & (1 << m) != 0 { N::one() } else { -N::one() };
                    let mut n = Vec3::zeros();
                    n[m] = sign;
                    (pose.rotation * n).dot(&view.toward_viewer) < N::zero()
                });
                edges.push((pose * verts[i], pose * verts[j], hidden));
            }
        }
        draw_edges(&edges, view, dd, style);
        finish_silhouette(&sil, dd, style);
    }
}

impl<N: Scalar> Draw3<N> for Triangle<N, 3> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let pts = self.vertices().map(|p| view.project(&(pose * p)));
        dd.polygon(&pts, style);
    }
}

impl<N: Scalar> Draw3<N> for ConvexPolyhedron<N> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let sil = silhouette3(self, pose, view);
        fill_silhouette(&sil, dd, style);
        let verts = self.vertices();
        let away = |f: u32| {
            (pose.rotation * self.face_normal(f as usize).into_inner()).dot(&view.toward_viewer)
                < N::zero()
        };
        let edges: Vec<_> = self
            .edges()
            .iter()
            .map(|e| {
                let [i, j] = e.vertices;
                (
                    pose * verts[i as usize],
                    pose * verts[j as usize],
                    away(e.faces[0]) && away(e.faces[1]),
                )
            })
            .collect();
        draw_edges(&edges, view, dd, style);
        finish_silhouette(&sil, dd, style);
    }
}

/// The cap ring of a cylinder or cone: solid when the cap faces the viewer, else split by the
/// side's visibility.
fn cap<N: Scalar>(
    pose: &Iso3<N>,
    y: N,
    outward: N,
    radius: N,
    view: &Ortho<N>,
    dd: &mut dyn DebugDraw<N>,
    style: &Style,
) {
    let c = pose * Point3::new(N::zero(), y, N::zero());
    let n = pose.rotation * (Vec3::y() * outward);
    let (u, v) = (pose.rotation * Vec3::x(), pose.rotation * Vec3::z());
    let toward = view.toward_viewer;
    let cap_visible = n.dot(&toward) >= N::zero();
    ring(&c, &u, &v, radius, |r| cap_visible || r.dot(&toward) >= N::zero(), view, dd, style);
}

impl<N: Scalar> Draw3<N> for Cylinder<N> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let sil = silhouette3(self, pose, view);
        fill_silhouette(&sil, dd, style);
        cap(pose, self.half_height(), N::one(), self.radius(), view, dd, style);
        cap(pose, -self.half_height(), -N::one(), self.radius(), view, dd, style);
        finish_silhouette(&sil, dd, style);
    }
}

impl<N: Scalar> Draw3<N> for Cone<N> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        let sil = silhouette3(self, pose, view);
        fill_silhouette(&sil, dd, style);
        cap(pose, -self.half_height(), -N::one(), self.radius(), view, dd, style);
        finish_silhouette(&sil, dd, style);
    }
}

impl<N: Scalar> Draw3<N> for Shape3<N> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        match self {
            Self::Ball(s) => s.draw3(pose, view, dd, style),
            Self::Capsule(s) => s.draw3(pose, view, dd, style),
            Self::Segment(s) => s.draw3(pose, view, dd, style),
            Self::Cuboid(s) => s.draw3(pose, view, dd, style),
            Self::Triangle(s) => s.draw3(pose, view, dd, style),
            Self::Polyhedron(s) => s.draw3(pose, view, dd, style),
            Self::Cylinder(s) => s.draw3(pose, view, dd, style),
            Self::Cone(s) => s.draw3(pose, view, dd, style),
        }
    }
}

/// Draws a pose's local axes (x in vermilion, y in sky blue, length `len`): where a body is and how
/// it is turned.
pub fn draw_frame2<N: Scalar>(pose: &Iso2<N>, len: N, dd: &mut dyn DebugDraw<N>) {
    let o = pose * Point2::origin();
    dd.arrow(
        &o,
        &(pose * Point2::new(len, N::zero())),
        &Style::stroke(Color::VERMILION).width(1.0),
    );
    dd.arrow(&o, &(pose * Point2::new(N::zero(), len)), &Style::stroke(Color::SKY_BLUE).width(1.0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_draw::SvgCanvas;

    #[test]
    fn outline_of_a_polygon_is_its_vertices() {
        let pts = [(0.0, 0.0), (2.0, 0.0), (2.5, 1.0), (1.0, 2.0), (-0.5, 1.0)]
            .map(|(x, y)| Point2::new(x, y));
        let poly = ConvexPolygon::<f64>::from_convex_ccw(&pts).unwrap();
        let out = outline2(&poly, &Iso2::identity());
        assert_eq!(out.len(), 5, "{out:?}");
        for p in &pts {
            assert!(out.iter().any(|q| (p - q).norm() < 1e-12));
        }
    }

    #[test]
    fn outline_of_a_capsule_is_smooth_and_on_the_surface() {
        let cap =
            Capsule::<f64, 2>::new(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0), 0.5).unwrap();
        let out = outline2(&cap, &Iso2::identity());
        assert!(out.len() > 40);
        for p in &out {
            let d = (p.x.clamp(-1.0, 1.0) - p.x).hypot(p.y);
            assert!((d - 0.5).abs() < 1e-9, "on the surface: {p:?}");
        }
    }

    #[test]
    fn every_shape_draws_something() {
        let v = Vec2::new(1.0, 0.5);
        let shapes: Vec<Shape2<f64>> = vec![
            Ball::new(1.0).unwrap().into(),
            Cuboid::new(v).unwrap().into(),
            Capsule::new(Point2::origin(), Point2::new(1.0, 0.0), 0.3).unwrap().into(),
            Segment::new(Point2::origin(), Point2::new(1.0, 0.0)).unwrap().into(),
            Triangle::new(Point2::origin(), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0))
                .unwrap()
                .into(),
            Rounded::new(Cuboid::new(v).unwrap(), 0.2).unwrap().into(),
        ];
        for s in &shapes {
            let mut c = SvgCanvas::new();
            s.draw2(&Iso2::new(Vec2::new(1.0, 2.0), 0.3), &mut c, &Style::filled(Color::BLUE));
            assert!(!c.is_empty());
        }
        let view = Ortho::standard();
        let shapes3: Vec<Shape3<f64>> = vec![
            Ball::new(1.0).unwrap().into(),
            Cuboid::new(Vec3::new(1.0, 0.5, 0.3)).unwrap().into(),
            Cylinder::new(1.0, 0.5).unwrap().into(),
            Cone::new(1.0, 0.5).unwrap().into(),
            Capsule::new_axis(1.0, 0.5).unwrap().into(),
            ConvexPolyhedron::from_cuboid(Vec3::new(1.0, 1.0, 1.0)).unwrap().into(),
        ];
        for s in &shapes3 {
            let mut c = SvgCanvas::new();
            s.draw3(&Iso3::identity(), &view, &mut c, &Style::filled(Color::BLUE));
            let b = c.bounds().unwrap();
            assert!(b.width() > 0.5 && b.height() > 0.5);
        }
    }
}
