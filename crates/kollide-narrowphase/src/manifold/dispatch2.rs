//! The 2D manifold dispatcher: one entry point for every pair of [`Shape2`]s.
//!
//! Each shape is first seen as what the routines need: a circle (a point plus a radius) or a
//! (rounded) polygon ([`PolygonView`]). A capsule is a rounded segment, a segment a two-vertex
//! polygon, a box a four-vertex one. Then the pair picks one of three routines. Two (rounded)
//! boxes skip the views and go to [`contact_boxes`], the polygon routine's steps in closed form
//! for boxes (the same manifolds). Adding a shape means adding one arm to [`view`]; adding a specialised
//! pair routine means adding one arm to [`manifold2`], as the boxes have.
//!
//! Feature ids are those of the views: for a box, vertices are numbered counter-clockwise from
//! `(−x, −y)` and edge `i` runs from vertex `i` to `i + 1`; for a segment or capsule, vertex 0 is
//! `a`, vertex 1 is `b`, edge 0 is the side to the right of `a → b`.

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Scalar, UnitVec2, Vec2};
use kollide_shapes::{ConvexPolygon, Shape2};

use super::box_box::{box_normals, box_vertices};
use super::{
    PolygonView, contact_boxes, contact_circle_polygon, contact_circles, contact_polygons,
};

/// Inline storage for the views of small shapes (segments, boxes, triangles).
#[derive(Clone, Copy, Debug)]
struct SmallPolygon<N: Scalar> {
    vertices: [Point2<N>; 4],
    normals: [UnitVec2<N>; 4],
    len: usize,
}

impl<N: Scalar> SmallPolygon<N> {
    fn new() -> Self {
        Self {
            vertices: [Point2::origin(); 4],
            normals: [UnitVec2::new_unchecked(Vec2::x()); 4],
            len: 0,
        }
    }

    /// A closed loop of counter-clockwise vertices (or a 2-vertex segment), with its normals.
    fn set(&mut self, pts: &[Point2<N>]) {
        self.len = pts.len();
        for (i, p) in pts.iter().enumerate() {
            self.vertices[i] = *p;
        }
        for i in 0..pts.len() {
            let e = pts[(i + 1) % pts.len()] - pts[i];
            self.normals[i] = UnitVec2::new_normalize(Vec2::new(e.y, -e.x));
        }
    }

    /// A box: its vertices, and its normals as the exact constants (what [`Self::set`] would
    /// compute, without four square roots and divisions).
    fn set_box(&mut self, h: Vec2<N>) {
        self.len = 4;
        self.vertices = box_vertices(h);
        self.normals = box_normals();
    }
}

enum View<'a, N: Scalar> {
    Circle(N),
    Polygon(PolygonView<'a, N>),
}

fn view<'a, N: Scalar>(shape: &'a Shape2<N>, buf: &'a mut SmallPolygon<N>) -> View<'a, N> {
    let small = |buf: &'a mut SmallPolygon<N>, pts: &[Point2<N>], radius: N| {
        buf.set(pts);
        let len = buf.len;
        View::Polygon(PolygonView {
            vertices: &buf.vertices[..len],
            normals: &buf.normals[..len],
            radius,
        })
    };
    let rect = |buf: &'a mut SmallPolygon<N>, h: Vec2<N>, radius: N| {
        buf.set_box(h);
        View::Polygon(PolygonView { vertices: &buf.vertices, normals: &buf.normals, radius })
    };
    match shape {
        Shape2::Circle(c) => View::Circle(c.radius()),
        Shape2::Capsule(c) => small(buf, &[c.segment().a(), c.segment().b()], c.radius()),
        Shape2::Segment(s) => small(buf, &[s.a(), s.b()], N::zero()),
        Shape2::Cuboid(c) => rect(buf, c.half_extents(), N::zero()),
        Shape2::RoundedCuboid(r) => rect(buf, r.inner().half_extents(), r.border_radius()),
        Shape2::Triangle(t) => small(buf, &[t.a(), t.b(), t.c()], N::zero()),
        Shape2::Polygon(p) => View::Polygon(stored(p)),
    }
}

/// A stored polygon's view.
fn stored<N: Scalar>(p: &ConvexPolygon<N>) -> PolygonView<'_, N> {
    PolygonView { vertices: p.vertices(), normals: p.normals(), radius: N::zero() }
}

/// A (rounded) box's half extents and radius.
fn as_box<N: Scalar>(shape: &Shape2<N>) -> Option<(Vec2<N>, N)> {
    match shape {
        Shape2::Cuboid(c) => Some((c.half_extents(), N::zero())),
        Shape2::RoundedCuboid(r) => Some((r.inner().half_extents(), r.border_radius())),
        _ => None,
    }
}

/// The contact manifold of two 2D shapes at `pos_a` and `pos_b`, with contacts up to `margin`
/// apart (the speculative margin), in world coordinates. The normal points from A to B; an empty
/// manifold means the shapes are farther apart than `margin`.
///
/// ```
/// use kollide_math::{Iso2, Vec2};
/// use kollide_shapes::{Cuboid, Shape2};
/// use kollide_narrowphase::manifold2;
/// let ground: Shape2<f64> = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap().into();
/// let crate_: Shape2<f64> = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap().into();
/// let m = manifold2::<f64, ()>(&Iso2::translation(0.0, -0.5), &ground,
///                              &Iso2::translation(0.0, 0.49), &crate_, 0.0);
/// assert_eq!(m.len(), 2); // a box resting on the ground touches at both corners
/// assert!((m.contacts()[0].separation + 0.01).abs() < 1e-12);
/// ```
pub fn manifold2<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    a: &Shape2<N>,
    pos_b: &Iso2<N>,
    b: &Shape2<N>,
    margin: N,
) -> Manifold<N, 2, U> {
    if let (Some((ha, ra)), Some((hb, rb))) = (as_box(a), as_box(b)) {
        return contact_boxes(pos_a, ha, ra, pos_b, hb, rb, margin);
    }
    // Two stored polygons need no buffers.
    if let (Shape2::Polygon(pa), Shape2::Polygon(pb)) = (a, b) {
        return contact_polygons(pos_a, &stored(pa), pos_b, &stored(pb), margin);
    }
    let mut buf_a = SmallPolygon::new();
    let mut buf_b = SmallPolygon::new();
    match (view(a, &mut buf_a), view(b, &mut buf_b)) {
        (View::Circle(ra), View::Circle(rb)) => contact_circles(pos_a, ra, pos_b, rb, margin),
        (View::Circle(ra), View::Polygon(pb)) => {
            contact_circle_polygon(pos_a, ra, pos_b, &pb, margin)
        }
        (View::Polygon(pa), View::Circle(rb)) => {
            contact_circle_polygon::<N, U>(pos_b, rb, pos_a, &pa, margin).flipped()
        }
        (View::Polygon(pa), View::Polygon(pb)) => contact_polygons(pos_a, &pa, pos_b, &pb, margin),
    }
}
