//! Debug drawing of the narrowphase: the Minkowski difference of two 2D shapes, GJK's simplex step
//! by step, EPA's polygon iteration by iteration, and contact manifolds with their reference and
//! incident faces. Everything draws into `kollide-draw`'s backend-independent [`DebugDraw`].
//!
//! ## Tracing without slowing the queries
//! * **GJK** is traced by running the real [`gjk`] again with an iteration cap of 1, 2, 3, …:
//!   a run stopped by the cap returns the simplex it had reached ([`gjk2_trace`]). The query code
//!   is untouched.
//! * **EPA** takes an observer (the `Observer` of the private `epa2` module): the queries pass
//!   `()`, whose empty inlined method compiles away (no branch, no allocation); [`epa2_trace`]
//!   passes a recorder that copies the polygon of every iteration into a `Vec`.
//!
//! ## Frames
//! GJK and EPA work in the frame of the configuration-space obstacle (CSO), A's local frame for a
//! [`MinkowskiDifference`]. The functions drawing CSO-space data draw it as is: place shape A at
//! the identity (as the figures do) to see the CSO and the shapes in one picture.
//! [`draw_minkowski_difference2`] and the manifold functions take world poses.
//!
//! Colours follow [`palette`]: A blue, B vermilion, the CSO grey, simplices and polytopes orange,
//! support points and normals purple.

use kollide_draw::{Color, DebugDraw, Style, palette};
use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Pose, Scalar, Vec2};
use kollide_shapes::draw::support_outline2;
use kollide_shapes::{
    MinkowskiDifference, SupportFeature, SupportFeatureMap, SupportMap, SupportPoint,
};

use crate::dim::{from_slice, point_from, sp2, to2};
use crate::epa::EpaResult;
use crate::{Cso, GjkResult, QuerySettings, Simplex, Status, epa2, gjk};

/// The outline of the Minkowski difference `A − B` of two 2D shapes (radii included) at world
/// poses, in world orientation: `{ a − b : a ∈ A, b ∈ B }` with both shapes where they are. It
/// contains the origin exactly when the shapes overlap. Recovered from support points (see
/// [`support_outline2`]); polygons give their exact vertices.
pub fn minkowski_outline2<N, A, B>(pos_a: &Iso2<N>, a: &A, pos_b: &Iso2<N>, b: &B) -> Vec<Point2<N>>
where
    N: Scalar,
    A: SupportMap<N, 2> + ?Sized,
    B: SupportMap<N, 2> + ?Sized,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let md = MinkowskiDifference::new(a, b, pos_ab).with_radii();
    let rot = pos_a.rotation;
    let scale = [Vec2::x(), Vec2::y(), -Vec2::x(), -Vec2::y()]
        .iter()
        .map(|d| md.support(d).point.norm())
        .fold(N::EPSILON, |m, x| m.max_of(x));
    support_outline2(|d| Point2::from(rot * md.support(&(rot.inverse() * d)).point), scale)
}

/// Draws the Minkowski difference `A − B` (see [`minkowski_outline2`]) in `style`.
pub fn draw_minkowski_difference2<N, A, B>(
    pos_a: &Iso2<N>,
    a: &A,
    pos_b: &Iso2<N>,
    b: &B,
    dd: &mut dyn DebugDraw<N>,
    style: &Style,
) where
    N: Scalar,
    A: SupportMap<N, 2> + ?Sized,
    B: SupportMap<N, 2> + ?Sized,
{
    dd.polygon(&minkowski_outline2(pos_a, a, pos_b, b), style);
}

/// Draws the origin as a small cross of half-size `size` (world units) labelled "O".
pub fn draw_origin2<N: Scalar>(size: N, dd: &mut dyn DebugDraw<N>) {
    let s = Style::stroke(palette::ORIGIN).width(1.2);
    dd.segment(&Point2::new(-size, N::zero()), &Point2::new(size, N::zero()), &s);
    dd.segment(&Point2::new(N::zero(), -size), &Point2::new(N::zero(), size), &s);
    dd.text(&Point2::origin(), "O", palette::ORIGIN);
}

/// GJK's state after each iteration: entry `k` is [`gjk`] on `cso` stopped after `k + 1`
/// iterations (arguments as for [`gjk`]); the last entry is the full run.
pub fn gjk2_trace<N: Scalar, C: Cso<N, 2> + ?Sized>(
    cso: &C,
    search_dir: &Vec2<N>,
    max_distance: N,
    touch_tolerance: N,
    settings: &QuerySettings<N>,
) -> Vec<GjkResult<N, 2>> {
    let mut out = Vec::new();
    for k in 1..=settings.gjk_max_iterations {
        let capped = QuerySettings { gjk_max_iterations: k, ..*settings };
        let r = gjk(cso, search_dir, max_distance, touch_tolerance, &capped);
        let done = r.status != Status::IterationCap || k == settings.gjk_max_iterations;
        out.push(r);
        if done {
            break;
        }
    }
    out
}

/// Draws a GJK simplex (CSO frame): its points, the segment or triangle they span, and an arrow
/// from the origin to its closest point `v` (the next search direction is `−v`).
pub fn draw_simplex2<N: Scalar>(simplex: &Simplex<N, 2>, dd: &mut dyn DebugDraw<N>, style: &Style) {
    let pts: Vec<Point2<N>> = simplex.points().iter().map(|p| Point2::from(p.point)).collect();
    match pts.len() {
        1 => {}
        2 => dd.polyline(&pts, style),
        _ => dd.polygon(&pts, style),
    }
    let color = style.stroke.unwrap_or(palette::SIMPLEX);
    for (i, p) in pts.iter().enumerate() {
        dd.point(p, color);
        dd.text(p, &format!("s{i}"), palette::TEXT);
    }
    let v = Point2::from(simplex.closest().0);
    if v.coords.norm() > N::EPSILON {
        dd.arrow(&Point2::origin(), &v, &Style::stroke(palette::SUPPORT).width(1.2).dashed());
    }
}

/// One EPA iteration (CSO frame): the polygon at the start of the iteration, the edge closest to
/// the origin, and the support point found along that edge's normal.
#[derive(Clone, Debug, PartialEq)]
pub struct EpaFrame2<N: Scalar> {
    /// The polygon, counter-clockwise.
    pub polygon: Vec<SupportPoint<N, 2>>,
    /// The closest edge runs from `polygon[closest]` to the next vertex.
    pub closest: usize,
    /// The support point in the closest edge's outward normal.
    pub support: SupportPoint<N, 2>,
}

impl<N: Scalar> EpaFrame2<N> {
    /// The closest edge's end points.
    pub fn closest_edge(&self) -> (Vec2<N>, Vec2<N>) {
        let n = self.polygon.len();
        (self.polygon[self.closest].point, self.polygon[(self.closest + 1) % n].point)
    }

    /// The closest edge's outward unit normal and its distance from the origin.
    pub fn closest_normal(&self) -> (Vec2<N>, N) {
        let (a, b) = self.closest_edge();
        let e = b - a;
        let n = Vec2::new(e.y, -e.x).try_normalize(N::zero()).unwrap_or(Vec2::x());
        (n, n.dot(&a))
    }
}

struct Recorder<N: Scalar>(Vec<EpaFrame2<N>>);

impl<N: Scalar> epa2::Observer<N> for Recorder<N> {
    fn iteration(
        &mut self,
        polygon: &[SupportPoint<N, 2>],
        closest: usize,
        support: &SupportPoint<N, 2>,
    ) {
        self.0.push(EpaFrame2 { polygon: polygon.to_vec(), closest, support: *support });
    }
}

/// [`crate::epa`] in 2D, recording the polygon of every iteration. Same arguments, same result.
pub fn epa2_trace<N: Scalar, C: Cso<N, 2> + ?Sized>(
    cso: &C,
    simplex: &Simplex<N, 2>,
    scale: N,
    fallback_normal: &Vec2<N>,
    settings: &QuerySettings<N>,
) -> (EpaResult<N, 2>, Vec<EpaFrame2<N>>) {
    let tol = crate::epa::stop_tolerance(settings, scale);
    let support = |d: &Vec2<N>| cso.support(d);
    let pts: smallvec::SmallVec<[SupportPoint<N, 2>; 4]> =
        simplex.points().iter().map(sp2).collect();
    let mut rec = Recorder(Vec::new());
    let r = epa2::run_observed(&support, &pts, tol, &to2(fallback_normal), settings, &mut rec);
    let result = EpaResult {
        depth: r.depth,
        normal: from_slice(r.normal.as_slice()),
        point_a: point_from::<N, 2, 2>(&r.point_a).coords,
        point_b: point_from::<N, 2, 2>(&r.point_b).coords,
        status: r.status,
        iterations: r.iterations,
        clamped: r.clamped,
        clamp_shift: r.clamp_shift(),
    };
    (result, rec.0)
}

/// Draws one EPA iteration (CSO frame): the polygon, its closest edge (thick) with the normal from
/// the origin to it, and the new support point `w` with the two edges that will replace the
/// closest one (dashed). When `w` adds nothing, the edge is on the boundary: EPA has converged.
pub fn draw_epa_frame2<N: Scalar>(frame: &EpaFrame2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
    let pts: Vec<Point2<N>> = frame.polygon.iter().map(|p| Point2::from(p.point)).collect();
    dd.polygon(&pts, style);
    let color = style.stroke.unwrap_or(palette::SIMPLEX);
    for p in &pts {
        dd.point(p, color);
    }
    let (a, b) = frame.closest_edge();
    let (a, b) = (Point2::from(a), Point2::from(b));
    dd.segment(&a, &b, &Style::stroke(color).width(style.width * 2.5));
    let (n, dist) = frame.closest_normal();
    dd.arrow(
        &Point2::origin(),
        &Point2::from(n * dist),
        &Style::stroke(palette::NORMAL).width(1.2),
    );
    let w = Point2::from(frame.support.point);
    let grows = n.dot(&w.coords) - dist > N::EPSILON.sqrt() * (N::one() + dist);
    if grows {
        let split = Style::stroke(palette::SUPPORT).width(1.2).dashed();
        dd.segment(&a, &w, &split);
        dd.segment(&w, &b, &split);
    }
    dd.point(&w, palette::SUPPORT);
    dd.text(&w, "w", palette::SUPPORT);
}

/// How [`draw_manifold2`] labels and sizes things.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldStyle<N> {
    /// Length of the normal arrow, in world units.
    pub normal_length: N,
    /// Write each contact's depth (or gap) next to it.
    pub labels: bool,
}

/// Draws a world-frame manifold: each contact's point on A (blue) and on B (vermilion) joined by a
/// segment whose length is the depth, a label with the depth (`d = …`, or `gap = …` for a
/// speculative contact), and the normal as an arrow from A to B starting at the contacts' centre.
pub fn draw_manifold2<N: Scalar, U: Copy + Default>(
    m: &Manifold<N, 2, U>,
    dd: &mut dyn DebugDraw<N>,
    style: &ManifoldStyle<N>,
) {
    if m.is_empty() {
        return;
    }
    let link = Style::stroke(palette::CONTACT).width(1.0);
    let mut centre = Vec2::zeros();
    for c in m.contacts() {
        dd.segment(&c.point_a, &c.point_b, &link);
        dd.point(&c.point_a, palette::SHAPE_A);
        dd.point(&c.point_b, palette::SHAPE_B);
        if style.labels {
            let label = if c.separation <= N::zero() {
                format!("d = {:.3}", (-c.separation).to_f64())
            } else {
                format!("gap = {:.3}", c.separation.to_f64())
            };
            dd.text(&c.point_b, &label, palette::TEXT);
        }
        centre += c.midpoint().coords;
    }
    let centre = Point2::from(centre / N::from_count(m.len()));
    dd.arrow(
        &centre,
        &(centre + m.normal * style.normal_length),
        &Style::stroke(palette::NORMAL).width(2.0),
    );
    dd.text(&(centre + m.normal * style.normal_length), "n", palette::NORMAL);
}

/// Which shape holds a manifold's reference face, read from its contact ids: the shape whose
/// feature is an edge (SAT clipping labels contacts with the reference *edge* and the incident
/// *vertices*). `None` for contacts without faces (circles, vertex–vertex).
pub fn reference_side<N: Scalar, U: Copy + Default>(m: &Manifold<N, 2, U>) -> Option<bool> {
    use kollide_shapes::FeatureId::Edge;
    let c = m.contacts().first()?;
    match (c.id.a, c.id.b) {
        (Edge(_), _) => Some(true),
        (_, Edge(_)) => Some(false),
        _ => None,
    }
}

fn world_feature<N: Scalar, S: SupportFeatureMap<N, 2> + ?Sized>(
    s: &S,
    pose: &Iso2<N>,
    world_dir: &Vec2<N>,
) -> Vec<Point2<N>> {
    let mut f = SupportFeature::new();
    s.local_support_feature(&pose.inverse_transform_vector(world_dir), &mut f);
    f.vertices.iter().map(|p| pose * p).collect()
}

/// Draws what SAT clipping built a polygon manifold from: the reference face (thick blue when it
/// is A's, vermilion when B's), the incident face (thick dashed), and the reference face's two
/// side planes (thin dashed lines along the normal) that the incident face was clipped against.
/// `extent` is how far the side planes reach on each side of the face, in world units.
pub fn draw_clip_features2<N, A, B, U>(
    pos_a: &Iso2<N>,
    a: &A,
    pos_b: &Iso2<N>,
    b: &B,
    m: &Manifold<N, 2, U>,
    extent: N,
    dd: &mut dyn DebugDraw<N>,
) where
    N: Scalar,
    A: SupportFeatureMap<N, 2> + ?Sized,
    B: SupportFeatureMap<N, 2> + ?Sized,
    U: Copy + Default,
{
    let Some(a_is_reference) = reference_side(m) else { return };
    let n = m.normal;
    let (reference, incident, ref_color, inc_color) = if a_is_reference {
        (
            world_feature(a, pos_a, &n),
            world_feature(b, pos_b, &-n),
            palette::SHAPE_A,
            palette::SHAPE_B,
        )
    } else {
        (
            world_feature(b, pos_b, &-n),
            world_feature(a, pos_a, &n),
            palette::SHAPE_B,
            palette::SHAPE_A,
        )
    };
    if reference.len() == 2 {
        let side = Style::stroke(Color::GREY).width(1.0).dashed();
        for v in &reference {
            dd.segment(&(v - n * extent), &(v + n * extent), &side);
        }
        dd.polyline(&reference, &Style::stroke(ref_color).width(4.0));
        dd.text(&label_at(&reference, &incident), "reference", ref_color);
    }
    if incident.len() == 2 {
        dd.polyline(&incident, &Style::stroke(inc_color).width(4.0).dashed());
        dd.text(&label_at(&incident, &reference), "incident", inc_color);
    }
}

/// Where to label a face: near its end farther from the other face, out of the contacts' way.
fn label_at<N: Scalar>(face: &[Point2<N>], other: &[Point2<N>]) -> Point2<N> {
    let centre =
        other.iter().fold(Vec2::zeros(), |s, p| s + p.coords) / N::from_count(other.len().max(1));
    let d = |p: &Point2<N>| (p.coords - centre).norm();
    let (far, near) =
        if d(&face[0]) >= d(&face[1]) { (face[0], face[1]) } else { (face[1], face[0]) };
    far + (near - far) * N::lit(0.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_draw::SvgCanvas;
    use kollide_math::Iso2;
    use kollide_shapes::{ConvexPolygon, Cuboid};

    fn square(h: f64) -> ConvexPolygon<f64> {
        ConvexPolygon::from_box(Vec2::new(h, h)).unwrap()
    }

    #[test]
    fn minkowski_outline_of_two_squares_is_the_summed_square() {
        let a = square(1.0);
        let b = square(0.5);
        let out = minkowski_outline2(&Iso2::identity(), &a, &Iso2::translation(3.0, 0.0), &b);
        assert_eq!(out.len(), 4, "{out:?}");
        // A − B = [−1.5, 1.5]² − (3, 0).
        for p in &out {
            assert!(((p.x + 3.0).abs() - 1.5).abs() < 1e-12 && (p.y.abs() - 1.5).abs() < 1e-12);
        }
    }

    #[test]
    fn epa_trace_gives_the_same_answer_as_epa() {
        let a = square(1.0);
        let b = Cuboid::<f64, 2>::new(Vec2::new(0.7, 0.4)).unwrap();
        let pos_ab = Iso2::new(Vec2::new(1.2, 0.5), 0.4);
        let md = MinkowskiDifference::new(&a, &b, pos_ab);
        let s = QuerySettings::default();
        let g = gjk(&md, &pos_ab.translation.vector, 0.0, 1e-9, &s);
        let trace = gjk2_trace(&md, &pos_ab.translation.vector, 0.0, 1e-9, &s);
        assert_eq!(trace.last().unwrap().iterations, g.iterations);
        let plain = crate::epa(&md, &g.simplex, 2.0, &Vec2::x(), &s);
        let (traced, frames) = epa2_trace(&md, &g.simplex, 2.0, &Vec2::x(), &s);
        assert_eq!(plain, traced);
        assert_eq!(frames.len() as u32, traced.iterations);
        assert!(frames.windows(2).all(|w| w[1].polygon.len() == w[0].polygon.len() + 1));
        let mut c = SvgCanvas::new();
        for f in &frames {
            draw_epa_frame2(f, &mut c, &Style::filled(palette::SIMPLEX));
        }
        assert!(!c.is_empty());
    }
}
