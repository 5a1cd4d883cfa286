//! Contacts of a reference face and an incident feature (face, edge or vertex), by clipping.
//!
//! This is the 3D core of every polyhedral manifold (the manifold seed's reference and incident
//! faces; Catto, "Contact Manifolds", GDC 2007; Gregorius, "Robust Contact Creation for
//! Physics Simulations", GDC 2015):
//!
//! 1. The **reference face** `R` (corners `r₀ … r_{m−1}` counter-clockwise seen from outside,
//!    outward normal `n_R`) and a **contact direction** `d` from the reference shape towards the
//!    other one. For SAT routines `d = n_R`; the generic routine uses GJK/EPA's normal, which
//!    may differ a little from a face normal.
//! 2. Each edge `rₖ → rₖ₊₁` has a **side plane** containing `d`, with outward normal
//!    `sₖ = (rₖ₊₁ − rₖ) × d / |…|`. The prism they bound is the reference face swept along `d`.
//! 3. The **incident feature** (a face of the other shape, or a segment such as a capsule's axis)
//!    is clipped against the side planes ([`super::clip3`]), leaving the part of it that lies
//!    over the reference face.
//! 4. Each point `p` left is **lifted** back to the reference face along `d`:
//!    `t = n_R · (p − r₀) / (n_R · d)`, the reference point is `p − t·d`, and `t` is the gap
//!    between the cores along `d` (negative when `p` is below the face). Rounded shapes move the
//!    points out to their surfaces along `d` and subtract that from the separation: the radius,
//!    except where a side plane cut a tilted capsule axis, whose surface lies `r / cos θ` below
//!    the cut ([`super::segment_closest::drop_to_capsule_surface`]). Points with a separation
//!    above the margin are dropped.
//!
//! ```text
//!          incident face          d ↑
//!       ┌───────•──────────•───┐     (• = points kept, clipped to the prism)
//!  ─────┼───r₀━━━━━━━━━━━━━r₁──┼─────  reference face
//!       │   ┃  side planes  ┃  │
//! ```
//!
//! **Slack.** When the incident face rests on the reference face (their normals anti-parallel
//! within about 8°), the side planes are moved out by a small length (the bias tolerance, `1e-4`
//! of the shapes' size). An incident corner lying exactly on a side plane, such as the corner of
//! a box stacked on an equal box, then stays *one* point with its vertex id, instead of turning
//! into two crossing points or back with every bit of rotation noise: ids, and the solver's warm
//! starts, stay put. The slack only decides which points there are and their ids: a point it
//! kept beyond the rim is moved back onto the rim across `d` (and along `d` into the incident
//! face's plane), or, where that would take it off the incident face (an incident edge crossing
//! the rim at an angle), to the nearest point of the incident face clipped without slack.
//! Tilted incident features get no slack: a crossing a slack farther out would also be deeper,
//! by the slack times the slope. Reference corners left by the clip are put back exactly on the
//! line through the true corner along `d`.
//!
//! Ids follow [`super::clip3`]: `(reference face, incident vertex)` for kept incident vertices,
//! `(reference edge, incident edge)` for crossings, `(reference corner, incident face)` for
//! reference corners inside the incident face.

use kollide_manifold::{Contact, ContactId};
use kollide_math::{Point3, Scalar, Vec3};
use kollide_shapes::FeatureId;
use smallvec::SmallVec;

use super::assemble3::Candidates;
use super::clip3::{ClipEdge, ClipVertex3, SidePlane, clip_polygon};
use super::segment_closest::{drop_to_capsule_surface, segment_point_closest};

/// Faces whose normals are anti-parallel within this cosine (about 8°) count as resting on each
/// other, and get the clipping slack.
const PARALLEL_FACES: f64 = 0.99;

/// The reference face of a face contact, in the reference shape's frame.
#[derive(Clone, Copy, Debug)]
pub struct ReferenceFace<'a, N: Scalar> {
    /// Corners, counter-clockwise seen from outside (at least 3).
    pub vertices: &'a [Point3<N>],
    /// The id of each corner.
    pub vertex_ids: &'a [FeatureId],
    /// The id of each edge; edge `k` runs from corner `k` to corner `k + 1`.
    pub edge_ids: &'a [FeatureId],
    /// Outward unit normal.
    pub normal: Vec3<N>,
    /// The face's id.
    pub id: FeatureId,
    /// Rounding radius of the reference shape (0 for sharp shapes).
    pub radius: N,
}

/// The incident feature of a face contact, expressed in the reference shape's frame.
#[derive(Clone, Copy, Debug)]
pub struct IncidentFeature<'a, N: Scalar> {
    /// Its points: one (a vertex), two (an edge) or a polygon, counter-clockwise seen from
    /// outside its shape.
    pub vertices: &'a [Point3<N>],
    /// The id of each point.
    pub vertex_ids: &'a [FeatureId],
    /// The id of each edge (edge `k` from point `k` to `k + 1`; one edge for a segment).
    pub edge_ids: &'a [FeatureId],
    /// The feature's id (the incident face's, for a polygon).
    pub id: FeatureId,
    /// Rounding radius of the incident shape (0 for sharp shapes).
    pub radius: N,
}

/// Clips `inc` against the side planes of `r` along the unit direction `dir` (from the reference
/// shape to the incident one, with `r.normal · dir > 0`), and pushes every resulting contact with
/// a separation up to `margin` to `out`. Contacts are `(point on reference, point on incident)`.
/// `slack` moves the side planes out (see the module docs). Returns the number pushed.
pub fn clip_reference_face<N: Scalar, U: Copy + Default>(
    r: &ReferenceFace<'_, N>,
    inc: &IncidentFeature<'_, N>,
    dir: &Vec3<N>,
    margin: N,
    slack: N,
    out: &mut Candidates<N, U>,
) -> usize {
    let m = r.vertices.len();
    let denom = r.normal.dot(dir);
    if m < 3 || denom <= N::zero() || inc.vertices.is_empty() {
        return 0;
    }
    let n_inc = inc.vertices.len();
    let closed = n_inc >= 3;
    let inc_normal = if closed { newell_normal(inc.vertices) } else { Vec3::zeros() };
    // The slack only where it is harmless: faces resting on each other (nearly parallel), where
    // a point a slack beyond the rim is as deep as one on it. For a tilted incident feature a
    // crossing a slack farther out would also be deeper, by the slack times the slope.
    let slack =
        if -inc_normal.dot(&r.normal) >= N::lit(PARALLEL_FACES) { slack } else { N::zero() };
    let mut planes: SmallVec<[SidePlane<N>; 16]> = SmallVec::new();
    // The corner each side plane starts at, for the slack rule's point location.
    let mut corners: SmallVec<[Point3<N>; 16]> = SmallVec::new();
    for k in 0..m {
        let (a, b) = (r.vertices[k], r.vertices[(k + 1) % m]);
        let s = (b - a).cross(dir);
        let len = s.norm();
        if len <= N::zero() {
            continue;
        }
        let s = s / len;
        planes.push(SidePlane {
            normal: s,
            offset: s.dot(&a.coords) + slack,
            edge: r.edge_ids[k],
            start: r.vertex_ids[k],
            end: r.vertex_ids[(k + 1) % m],
        });
        corners.push(a);
    }
    let input: SmallVec<[ClipVertex3<N>; 16]> = (0..n_inc)
        .map(|k| ClipVertex3 {
            p: inc.vertices[k],
            id: ContactId::new(r.id, inc.vertex_ids[k]),
            edge: ClipEdge::Incident(
                inc.edge_ids.get(k).or(inc.edge_ids.last()).copied().unwrap_or_default(),
            ),
        })
        .collect();
    let clipped = clip_polygon(&input, closed, &planes, inc.id);
    // A reference corner left by the clip is where two slackened side planes meet, which is
    // farther from the true corner than the slack itself when the corner is sharp. Put it back:
    // the true corner's line along `dir`, through the incident face's plane.
    let inc_denom = inc_normal.dot(dir);
    let corner = |v: &ClipVertex3<N>| -> Point3<N> {
        if v.id.b != inc.id || inc_denom.abs() <= N::lit(1e-3) {
            return v.p;
        }
        match r.vertex_ids.iter().position(|&id| id == v.id.a) {
            Some(k) => {
                let c = r.vertices[k];
                c + dir * (inc_normal.dot(&(inc.vertices[0] - c)) / inc_denom)
            }
            None => v.p,
        }
    };
    let origin = r.vertices[0];
    // How far below a clipped point the incident surface lies: the radius, or more where a side
    // plane cut a tilted rounded segment (a capsule's axis).
    let drop = |p: &Point3<N>| match inc.vertices {
        [a, b] if inc.radius > N::zero() => drop_to_capsule_surface(p, &[*a, *b], dir, inc.radius),
        _ => inc.radius,
    };
    // The slack decides which points are kept and their ids; a kept point beyond the rim is
    // moved back ([`settle_slack_point`]).
    let mut rim = PolygonRim {
        planes: &planes,
        corners: &corners,
        dir: *dir,
        slack,
        input: &input,
        closed,
        incident: inc,
        inc_normal,
        exact: None,
    };
    let incident_plane = IncidentPlane {
        point: inc.vertices[0],
        normal: inc_normal,
        denom: inc_denom,
        on_face_tol: slack * N::EPSILON.sqrt() * N::lit(10.0),
    };
    let mut pushed = 0;
    for v in &clipped {
        let p = corner(v);
        let p = if slack > N::zero() && p != v.p {
            settle_slack_corner(&mut rim, p, &incident_plane)
        } else if slack > N::zero() {
            settle_slack_point(&mut rim, p, dir, &incident_plane)
        } else {
            Some(p)
        };
        let Some(p) = p else { continue };
        let v = &ClipVertex3 { p, ..*v };
        let gap = r.normal.dot(&(v.p - origin)) / denom;
        let below = drop(&v.p);
        let sep = gap - r.radius - below;
        if sep <= margin {
            let on_ref = v.p - dir * gap;
            out.push(Contact::new(on_ref + dir * r.radius, v.p - dir * below, sep, v.id));
            pushed += 1;
        }
    }
    pushed
}

/// The parts of the slack rule (see the module docs) that depend on how a face clipper stores
/// its side planes and incident face; [`settle_slack_point`] is the rule itself.
pub(crate) trait SlackRim<N: Scalar> {
    /// `p` moved back onto the reference face's rim across the contact direction (onto the side
    /// planes without their slack), or `None` when it lies within them all.
    fn onto_rim(&self, p: &Point3<N>) -> Option<Point3<N>>;
    /// How far `p`, a point of the incident face's plane, lies outside the incident face.
    fn off_face(&self, p: &Point3<N>) -> N;
    /// The incident face clipped without slack, made on the first call and kept; empty when
    /// nothing is left (the faces meet only within the slack).
    fn exact_clip(&mut self) -> &[Point3<N>];
}

/// The incident face's plane, as the slack rule moves points into it along the contact
/// direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IncidentPlane<N: Scalar> {
    /// A point of the plane (the incident face's first corner).
    pub(crate) point: Point3<N>,
    /// The incident face's unit normal.
    pub(crate) normal: Vec3<N>,
    /// `normal · dir`, which points are moved along `dir` by; far from zero wherever there is
    /// slack, which only faces nearly anti-parallel get.
    pub(crate) denom: N,
    /// How far off the incident face a moved point may be and still count as on it.
    pub(crate) on_face_tol: N,
}

/// Where the contact point `p`, kept by the clipping slack, goes (the rule of the module docs):
/// itself when it is within the side planes without slack; else moved back onto the rim across
/// `dir` and along `dir` into the incident face's plane; or, where that takes it off the
/// incident face (an incident edge crossing the rim at an angle), the nearest point of the
/// incident face clipped without slack, which lies on the rim and on the incident face. `None`
/// when that clip is empty: the faces meet only within the slack, and the exact contact stands
/// for them.
#[inline(always)]
pub(crate) fn settle_slack_point<N: Scalar>(
    rim: &mut impl SlackRim<N>,
    p: Point3<N>,
    dir: &Vec3<N>,
    plane: &IncidentPlane<N>,
) -> Option<Point3<N>> {
    let Some(q) = rim.onto_rim(&p) else { return Some(p) };
    // Back into the incident face's plane along `dir`, which keeps it on the rim.
    let q = q + dir * (plane.normal.dot(&(plane.point - q)) / plane.denom);
    // (A move shorter than the tolerance cannot leave the face by more.)
    let tol = plane.on_face_tol;
    if (q - p).norm_squared() <= tol * tol || rim.off_face(&q) <= tol {
        return Some(q);
    }
    nearest_on_polygon(rim.exact_clip(), &p)
}

/// Where a reference corner left by the clip goes, once put back on the true corner's line
/// along the contact direction (`p`, in the incident face's plane): itself when it lies on the
/// incident face; else the nearest point of the incident face clipped without slack, `None`
/// when that clip is empty. The clip found the corner of the *slackened* side planes inside the
/// incident face, and the true corner lies up to the slack beyond it: where the incident face
/// ends between the two, the true corner is off it (a hull's corner by a triangle's edge, faces
/// 12° from the normal: 1.8e-8 off the triangle, and deeper than the exact contact).
#[inline(always)]
pub(crate) fn settle_slack_corner<N: Scalar>(
    rim: &mut impl SlackRim<N>,
    p: Point3<N>,
    plane: &IncidentPlane<N>,
) -> Option<Point3<N>> {
    if rim.off_face(&p) <= plane.on_face_tol {
        return Some(p);
    }
    nearest_on_polygon(rim.exact_clip(), &p)
}

/// The general clipper's side planes and incident polygon, for [`settle_slack_point`].
struct PolygonRim<'a, N: Scalar> {
    /// The side planes, moved out by `slack`.
    planes: &'a [SidePlane<N>],
    /// The reference corner each plane starts at.
    corners: &'a [Point3<N>],
    /// The contact direction, which every side plane contains.
    dir: Vec3<N>,
    slack: N,
    /// The incident feature as clipped, and whether it is a closed polygon.
    input: &'a [ClipVertex3<N>],
    closed: bool,
    incident: &'a IncidentFeature<'a, N>,
    inc_normal: Vec3<N>,
    /// The clip without slack, once made.
    exact: Option<SmallVec<[Point3<N>; 16]>>,
}

impl<N: Scalar> PolygonRim<'_, N> {
    /// How far `q` lies beyond the side plane `s` without its slack (negative inside).
    fn excess(&self, s: &SidePlane<N>, q: &Point3<N>) -> N {
        s.distance(q) + self.slack
    }

    /// Whether `p` surely lies within every side plane without slack, to `tol`, found in
    /// `O(log m)` steps rather than a test of every plane (which made the slack rule `O(n·m)`
    /// on two large faces resting on each other): `p` is inside the face if it is inside the rim
    /// edge across its triangle of the corners' fan ([`fan_triangle`]), with that edge's two
    /// neighbours for rounding at the corners. `false` when `p` is outside the fan, or beyond
    /// one of those edges.
    fn surely_within(&self, p: &Point3<N>, tol: N) -> bool {
        fan_triangle(self.corners, &self.dir, p).is_some_and(|k| {
            [k - 1, k, k + 1].iter().all(|&k| self.excess(&self.planes[k], p) <= tol)
        })
    }

    /// How far `p` lies outside incident edge `k` (from point `k` to `k + 1`; zero for an
    /// edge of no length).
    fn outside_edge(&self, k: usize, p: &Point3<N>) -> N {
        let v = self.incident.vertices;
        let (a, b) = (v[k], v[(k + 1) % v.len()]);
        let out = (b - a).cross(&self.inc_normal);
        let len = out.norm();
        if len > N::zero() { out.dot(&(p - a)) / len } else { N::zero() }
    }

    /// The nearest point to `p` within every side plane (without slack, to `tol`): `p` moved
    /// onto one plane, or onto the line where two planes meet (the planes are all parallel to
    /// the contact direction, so this is the nearest point of the reference face seen along it).
    fn nearest_on_rim(&self, p: &Point3<N>, tol: N) -> Option<Point3<N>> {
        let (planes, excess) = (self.planes, |s: &SidePlane<N>, q: &Point3<N>| self.excess(s, q));
        let inside = |q: &Point3<N>| planes.iter().all(|s| excess(s, q) <= tol);
        let mut best: Option<(N, Point3<N>)> = None;
        let mut offer = |q: Point3<N>| {
            let d = (q - p).norm_squared();
            if inside(&q) && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, q));
            }
        };
        for (i, s) in planes.iter().enumerate() {
            offer(p - s.normal * excess(s, p));
            for t in &planes[i + 1..] {
                // `q = p − a·n_s − b·n_t` on both planes: a 2×2 system in `(a, b)`.
                let c = s.normal.dot(&t.normal);
                let det = N::one() - c * c;
                if det > N::lit(1e-12) {
                    let (es, et) = (excess(s, p), excess(t, p));
                    let (a, b) = ((es - c * et) / det, (et - c * es) / det);
                    offer(p - s.normal * a - t.normal * b);
                }
            }
        }
        best.map(|(_, q)| q)
    }
}

impl<N: Scalar> SlackRim<N> for PolygonRim<'_, N> {
    fn onto_rim(&self, p: &Point3<N>) -> Option<Point3<N>> {
        // (A point beyond by less than the tolerance below would be moved less than that.)
        let tol = self.slack * N::lit(1e-3);
        if self.surely_within(p, tol) {
            return None;
        }
        // One pass: each plane's value is taken at the point as moved by the planes before it,
        // which is `p` itself up to the first plane it lies beyond.
        let mut q = *p;
        let mut beyond = false;
        for s in self.planes {
            let excess = self.excess(s, &q);
            if excess > N::zero() {
                q -= s.normal * excess;
                beyond = true;
            }
        }
        if !beyond {
            return None;
        }
        // At a sharp corner the pass stops short: moved onto one plane, the point lies beyond
        // its neighbour again (a 7° corner of a sliver hull left a point 9e-3 out). Then the
        // nearest point of the rim is found outright: on one side plane or where two meet.
        if self.planes.iter().all(|s| self.excess(s, &q) <= tol) {
            Some(q)
        } else {
            Some(self.nearest_on_rim(p, tol).unwrap_or(q))
        }
    }

    fn off_face(&self, p: &Point3<N>) -> N {
        // Inside the edge across its triangle of the face's fan (and that edge's neighbours),
        // `p` is on the face: `O(log n)` for the corners of a large reference face, which all
        // lie on a large incident one.
        let v = self.incident.vertices;
        let inside = |k: usize| self.outside_edge(k, p) <= N::zero();
        if fan_triangle(v, &self.inc_normal, p).is_some_and(|k| (k - 1..=k + 1).all(inside)) {
            return N::zero();
        }
        (0..v.len()).fold(N::zero(), |off, k| off.max_of(self.outside_edge(k, p)))
    }

    fn exact_clip(&mut self) -> &[Point3<N>] {
        self.exact.get_or_insert_with(|| {
            let true_planes: SmallVec<[SidePlane<N>; 16]> = self
                .planes
                .iter()
                .map(|s| SidePlane { offset: s.offset - self.slack, ..*s })
                .collect();
            clip_polygon(self.input, self.closed, &true_planes, self.incident.id)
                .iter()
                .map(|v| v.p)
                .collect()
        })
    }
}

/// The triangle of the fan of the convex polygon `corners` (counter-clockwise about `axis`)
/// from its first corner that `p` lies in, seen along `axis`: the `k` in `1..m − 1` with `p`
/// between the rays to corners `k` and `k + 1`, found by a binary search on the turn from the
/// first corner to `p`. Inside that triangle's far edge, `p` is inside the polygon. `None` for
/// fewer than 3 corners, or `p` outside the fan.
fn fan_triangle<N: Scalar>(corners: &[Point3<N>], axis: &Vec3<N>, p: &Point3<N>) -> Option<usize> {
    let (c, m) = (corners, corners.len());
    if m < 3 {
        return None;
    }
    let turn = |u: Vec3<N>, v: Vec3<N>| u.cross(&v).dot(axis);
    let q = p - c[0];
    if turn(c[1] - c[0], q) < N::zero() || turn(q, c[m - 1] - c[0]) < N::zero() {
        return None;
    }
    let (mut lo, mut hi) = (1, m - 1);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if turn(c[mid] - c[0], q) >= N::zero() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The point of the boundary of the convex polygon `poly` (in one plane with `p`) nearest to
/// `p`, a point outside it; `None` for an empty polygon.
pub(crate) fn nearest_on_polygon<N: Scalar>(
    poly: &[Point3<N>],
    p: &Point3<N>,
) -> Option<Point3<N>> {
    let m = poly.len();
    let dist = |q: &Point3<N>| (q - p).norm_squared();
    (0..m)
        .map(|k| segment_point_closest(&poly[k], &poly[(k + 1) % m], p).1)
        .reduce(|x, y| if dist(&y) < dist(&x) { y } else { x })
}

/// The unit normal of a polygon, counter-clockwise seen from the side it points to (Newell's sum
/// of `(vₖ − v₀) × (vₖ₊₁ − v₀)`); zero for a degenerate polygon.
#[inline]
pub(crate) fn newell_normal<N: Scalar>(pts: &[Point3<N>]) -> Vec3<N> {
    let n = pts.len();
    let mut s = Vec3::zeros();
    if n < 3 {
        return s;
    }
    let o = pts[0];
    for k in 1..n - 1 {
        s += (pts[k] - o).cross(&(pts[k + 1] - o));
    }
    s.try_normalize(N::zero()).unwrap_or_else(Vec3::zeros)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The side planes (moved out by `slack`) of a 40-gon on an ellipse in the plane z = 0,
    /// corners counter-clockwise about the contact direction +z, and the corner each starts at.
    fn ellipse_rim(slack: f64) -> (Vec<SidePlane<f64>>, Vec<Point3<f64>>) {
        let corners: Vec<_> = (0..40)
            .map(|k| {
                let a = (k as f64 + 0.3 * (k % 3) as f64) * core::f64::consts::TAU / 40.0;
                Point3::new(1.7 * a.cos() + 0.2, 0.4 * a.sin() - 0.1, 0.0)
            })
            .collect();
        let (mut planes, mut starts) = (Vec::new(), Vec::new());
        for k in 0..corners.len() {
            let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
            let s = (b - a).cross(&Vec3::z()).normalize();
            let id = FeatureId::Edge(k as u32);
            let (start, end) = (FeatureId::Vertex(k as u32), FeatureId::Vertex(k as u32 + 1));
            planes.push(SidePlane {
                normal: s,
                offset: s.dot(&a.coords) + slack,
                edge: id,
                start,
                end,
            });
            starts.push(a);
        }
        (planes, starts)
    }

    #[test]
    fn points_surely_within_the_rim_are_within_every_side_plane() {
        let slack = 1e-4;
        let (planes, corners) = ellipse_rim(slack);
        let incident = IncidentFeature {
            vertices: &[],
            vertex_ids: &[],
            edge_ids: &[],
            id: FeatureId::Face(1),
            radius: 0.0,
        };
        let rim = PolygonRim {
            planes: &planes,
            corners: &corners,
            dir: Vec3::z(),
            slack,
            input: &[],
            closed: true,
            incident: &incident,
            inc_normal: -Vec3::z(),
            exact: None,
        };
        let tol = slack * 1e-3;
        let (mut sure, mut inside) = (0, 0);
        for i in 0..20_000 {
            // Points over the whole face and around it, above and below it (the test is along
            // the contact direction), many of them within a slack of the rim.
            let (u, v) = ((i as f64 * 0.618_034).fract(), (i as f64 * 0.754_877).fract());
            let scale = if i % 2 == 0 { 1.0 + 4.0 * slack * (v - 0.5) } else { 1.3 * v };
            let a = u * core::f64::consts::TAU;
            let p = Point3::new(
                0.2 + 1.7 * scale * a.cos(),
                -0.1 + 0.4 * scale * a.sin(),
                (i % 7) as f64 - 3.0,
            );
            let within = planes.iter().all(|s| rim.excess(s, &p) <= tol);
            let strictly = planes.iter().all(|s| rim.excess(s, &p) <= -tol);
            if rim.surely_within(&p, tol) {
                sure += 1;
                assert!(within, "point {i} {p:?} is beyond a side plane");
            }
            if strictly {
                inside += 1;
                // Only the corner the fan starts from can leave it unsure.
                assert!(rim.surely_within(&p, tol) || (p - corners[0]).xy().norm() < 0.3, "{i}");
            }
        }
        assert!(sure > 7_000 && inside > 7_000, "{sure} {inside}");
    }

    #[test]
    fn off_face_agrees_with_a_test_of_every_edge() {
        let (planes, corners) = ellipse_rim(0.0);
        let ids = [FeatureId::Unknown; 40];
        let incident = IncidentFeature {
            vertices: &corners,
            vertex_ids: &ids,
            edge_ids: &ids,
            id: FeatureId::Face(1),
            radius: 0.0,
        };
        let rim = PolygonRim {
            planes: &planes,
            corners: &corners,
            dir: -Vec3::z(),
            slack: 0.0,
            input: &[],
            closed: true,
            incident: &incident,
            inc_normal: Vec3::z(),
            exact: None,
        };
        let mut on = 0;
        for i in 0..20_000 {
            let (u, v) = ((i as f64 * 0.618_034).fract(), (i as f64 * 0.754_877).fract());
            let a = u * core::f64::consts::TAU;
            let r = 1.3 * v;
            let p = Point3::new(0.2 + 1.7 * r * a.cos(), -0.1 + 0.4 * r * a.sin(), 0.0);
            let every = (0..40).fold(0.0_f64, |off, k| off.max(rim.outside_edge(k, &p)));
            assert!((rim.off_face(&p) - every).abs() < 1e-15, "point {i} {p:?}");
            on += usize::from(every == 0.0);
        }
        assert!(on > 8_000, "{on}");
    }
}
