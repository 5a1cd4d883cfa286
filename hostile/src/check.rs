//! The checks: every answer of a case against the oracle and the documented identities.
//!
//! Tolerances (`Tol`): in `f64`, `1e-9 · max(|d|, S)` with `S` the larger shape's bounding
//! radius; in `f32`, `1e-3 · max(|d|, 0.01·S)` (the issue's `1e-3 · max(|d|, 0.01)` at unit
//! scale). Both add what the inputs themselves cannot represent: `4ε` times the largest
//! coordinate (the relative pose of two shapes far from the origin) and `16ε(1 + |k|)·S` for a
//! rotation `k` ulps off unit, and the documented coarsening of a hull as built: `2 · 64ε` times
//! its points' extent (at least `2 · 8ε` times their largest coordinate), the distance by which
//! `ConvexPolygon::from_hull` may drop a point near an edge and by which `convex_hull_3d`'s
//! merged faces may bend. The *touching band* is the tolerance at `d = 0`: a pair whose
//! separation the oracle brackets within the band may be called touching or not, and no
//! "miss" or "false hit" is charged there. A ray meets A alone, so its tolerances take `S` from
//! A's size. Two more follow from lengths: a cast may stop late as well as early when the shapes
//! are within the band of each other there (along a grazing path a length is a long time), and
//! a contact's normal is held to what `f64` rounding of the points can fix of it, `16ε` times
//! their coordinates over the distance (no more than rounding far from touching).
//!
//! Manifolds are held to the tolerance plus 5 % of the depth on their deepest point, or plus
//! the SAT routines' bias where that is larger: they prefer a stable reference face within
//! 1e-4 of the pair's size of the deepest axis (see docs/conventions.md).

use crate::geom::{Body, Core, V};
use crate::oracle::{directional_depth, gap, outside_by, signed_distance, time_of_impact};
use crate::run::{CastOut, ContactOut, Motion, Outputs, Query, RAY_MAX_T};

/// The kinds of failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fail {
    /// A constructor refused a shape the generator considers valid.
    Rejected,
    /// The query panicked.
    Panic,
    /// A NaN or infinite number in an answer to finite input.
    NaN,
    /// "Apart" (or no contact / no hit) where the oracle proves overlap or a hit.
    SilentMiss,
    /// "Overlap" (or a contact / a hit) where the oracle proves the shapes apart or no hit.
    FalseHit,
    /// A contact farther apart than the margin asked for.
    BeyondMargin,
    /// A separation, distance or time outside the oracle's bounds.
    Error,
    /// The normal does not attain the reported separation (`g(n) ≠ separation`).
    Attain,
    /// `point_b − point_a ≠ separation · normal` (or the cast's points do not meet).
    Identity,
    /// A normal that is not unit length.
    NotUnit,
    /// A witness or manifold point not on its shape's surface.
    OffSurface,
    /// `contact(A, B)` and `contact(B, A)` disagree.
    Flip,
}

impl Fail {
    /// The report's name.
    pub fn name(self) -> &'static str {
        match self {
            Fail::Rejected => "rejected",
            Fail::Panic => "panic",
            Fail::NaN => "nan",
            Fail::SilentMiss => "silent-miss",
            Fail::FalseHit => "false-hit",
            Fail::BeyondMargin => "beyond-margin",
            Fail::Error => "error",
            Fail::Attain => "normal-not-attained",
            Fail::Identity => "identity",
            Fail::NotUnit => "normal-not-unit",
            Fail::OffSurface => "off-surface",
            Fail::Flip => "flip",
        }
    }

    /// Every kind.
    pub const ALL: [Fail; 12] = [
        Fail::Rejected,
        Fail::Panic,
        Fail::NaN,
        Fail::SilentMiss,
        Fail::FalseHit,
        Fail::BeyondMargin,
        Fail::Error,
        Fail::Attain,
        Fail::Identity,
        Fail::NotUnit,
        Fail::OffSurface,
        Fail::Flip,
    ];
}

/// The tolerance model (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Tol {
    /// `true` for `f32`.
    pub f32: bool,
    /// The scalar's machine epsilon.
    pub eps: f64,
    /// The pair's length scale `S`.
    pub scale: f64,
    /// The largest absolute coordinate of the poses.
    pub offset: f64,
    /// Ulps off unit of the rotations.
    pub ulp_k: f64,
    /// How far a shape as built may lie inside its description (a hull's tolerance, twice).
    pub built: f64,
    /// The same for A alone, which is all that a ray meets.
    pub built_a: f64,
}

impl Tol {
    /// The tolerance on a length near `d`.
    pub fn at(&self, d: f64) -> f64 {
        let base = if self.f32 {
            1e-3 * d.abs().max(0.01 * self.scale)
        } else {
            1e-9 * d.abs().max(self.scale)
        };
        base + 4.0 * self.eps * self.offset
            + 16.0 * self.eps * (1.0 + self.ulp_k.abs()) * self.scale
            + self.built
    }

    /// The touching band.
    pub fn band(&self) -> f64 {
        self.at(0.0)
    }

    fn unit(&self) -> f64 {
        if self.f32 { 1e-4 } else { 1e-9 }
    }
}

/// What a case is checked against.
pub struct Ctx<'a, const D: usize> {
    /// Shape A in the world (rounded inputs).
    pub a: &'a Body<D>,
    /// Shape B in the world (rounded inputs).
    pub b: &'a Body<D>,
    /// The case's motion and ray (rounded).
    pub m: &'a Motion<D>,
    /// Sample directions.
    pub dirs: &'a [V<D>],
    /// Tolerances.
    pub tol: Tol,
}

/// One failure found: the query, the kind, and what was seen.
pub type Finding = (Query, Fail, String);

fn finite<const D: usize>(v: &V<D>) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn fmt_v<const D: usize>(v: &V<D>) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:e}")).collect();
    format!("({})", parts.join(", "))
}

/// Checks every answer of a case; returns the failures.
pub fn check<const D: usize>(o: &Outputs<D>, cx: &Ctx<'_, D>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let truth = signed_distance(cx.a, cx.b, cx.dirs);
    let band = cx.tol.band();
    let tol = cx.tol.at(truth.value());
    let overlap = truth.hi < -band;
    let apart = truth.lo > band;
    let sd_txt = format!(
        "sd in [{:e}, {:e}]{}",
        truth.lo,
        truth.hi,
        if truth.exact { " exact" } else { "" }
    );
    let mut push = |q: Query, f: Fail, s: String| {
        if !out.iter().any(|(q2, f2, _)| *q2 == q && *f2 == f) {
            out.push((q, f, format!("{s}; {sd_txt}")));
        }
    };

    // intersection_test
    match &o.intersect {
        Err(e) => push(Query::Intersection, Fail::Panic, e.clone()),
        Ok(hit) => {
            if overlap && !hit {
                push(Query::Intersection, Fail::SilentMiss, "intersecting = false".into());
            }
            if apart && *hit {
                push(Query::Intersection, Fail::FalseHit, "intersecting = true".into());
            }
        }
    }

    // contact (margin 0), both orders
    match &o.contact {
        Err(e) => push(Query::Contact, Fail::Panic, e.clone()),
        Ok(None) => {
            if overlap {
                push(Query::Contact, Fail::SilentMiss, "None".into());
            }
        }
        Ok(Some(c)) => {
            if c.sep > band {
                push(
                    Query::Contact,
                    Fail::BeyondMargin,
                    format!("separation {:e} > margin 0", c.sep),
                );
            } else if apart {
                push(Query::Contact, Fail::FalseHit, format!("separation {:e}", c.sep));
            }
            check_contact(Query::Contact, c, cx, &truth, tol, &mut push);
        }
    }
    match (&o.contact, &o.contact_flip) {
        (_, Err(e)) => push(Query::Contact, Fail::Panic, format!("flipped: {e}")),
        (Ok(Some(x)), Ok(Some(y))) if (x.sep - y.sep).abs() > tol => {
            push(
                Query::Contact,
                Fail::Flip,
                format!("sep(A,B) {:e} vs sep(B,A) {:e}", x.sep, y.sep),
            );
        }
        (Ok(x), Ok(y)) if x.is_some() != y.is_some() && (overlap || apart) => {
            push(
                Query::Contact,
                Fail::Flip,
                format!("(A,B) some = {}, (B,A) some = {}", x.is_some(), y.is_some()),
            );
        }
        _ => {}
    }

    // closest_points
    match &o.closest {
        Err(e) => push(Query::ClosestPoints, Fail::Panic, e.clone()),
        Ok(c) => check_contact(Query::ClosestPoints, c, cx, &truth, tol, &mut push),
    }

    // distance
    match &o.distance {
        Err(e) => push(Query::Distance, Fail::Panic, e.clone()),
        Ok(d) if !d.is_finite() => push(Query::Distance, Fail::NaN, format!("{d}")),
        Ok(d) => {
            if overlap && *d > band {
                push(Query::Distance, Fail::SilentMiss, format!("distance {d:e}"));
            } else if apart && *d <= 0.0 {
                push(Query::Distance, Fail::FalseHit, format!("distance {d:e}"));
            } else if *d < truth.lo.max(0.0) - tol || *d > truth.hi.max(0.0) + tol {
                push(Query::Distance, Fail::Error, format!("distance {d:e}"));
            }
        }
    }

    // manifold
    if let Some(m) = &o.manifold {
        match m {
            Err(e) => push(Query::Manifold, Fail::Panic, e.clone()),
            Ok(m) if m.contacts.is_empty() => {
                if overlap {
                    push(Query::Manifold, Fail::SilentMiss, "empty manifold".into());
                }
            }
            Ok(m) => {
                let bad = !finite(&m.n)
                    || m.contacts
                        .iter()
                        .any(|(p, q, s)| !finite(p) || !finite(q) || !s.is_finite());
                if bad {
                    push(Query::Manifold, Fail::NaN, format!("{m:?}"));
                } else {
                    check_manifold(m, cx, &truth, tol, band, apart, &mut push);
                }
            }
        }
    }

    // directional_penetration
    let dlen = cx.m.dir.norm();
    match &o.directional {
        Err(e) => push(Query::Directional, Fail::Panic, e.clone()),
        Ok(None) => {
            if overlap && dlen > 0.0 {
                push(Query::Directional, Fail::SilentMiss, "None".into());
            }
        }
        Ok(Some(h)) => {
            if !h.t.is_finite() || !finite(&h.n) || !finite(&h.pa) || !finite(&h.pb) {
                push(Query::Directional, Fail::NaN, format!("{h:?}"));
            } else if apart {
                push(Query::Directional, Fail::FalseHit, format!("t = {:e}", h.t));
            } else if dlen > 0.0 {
                let d = cx.m.dir / dlen;
                let (t_hi, exact) = directional_depth(cx.a, cx.b, &d, cx.dirs);
                let tol_t = cx.tol.at(t_hi);
                let off = h.t > t_hi + tol_t || (exact && overlap && h.t < t_hi - tol_t);
                if off && !leaves_touching(cx, &(d * h.t), tol_t) {
                    push(
                        Query::Directional,
                        Fail::Error,
                        format!(
                            "t = {:e}, oracle {}{:e}",
                            h.t,
                            if exact { "" } else { "≤ " },
                            t_hi
                        ),
                    );
                }
                let nn = h.n.norm();
                if (nn - 1.0).abs() > cx.tol.unit() {
                    push(Query::Directional, Fail::NotUnit, format!("|n| = {nn:e}"));
                } else {
                    let g = gap(cx.a, cx.b, &(h.n / nn)) + h.t * (h.n / nn).dot(&d);
                    if g.abs() > tol_t {
                        push(
                            Query::Directional,
                            Fail::Attain,
                            format!("gap after the push {g:e}, n = {}", fmt_v(&h.n)),
                        );
                    }
                }
                if (h.pb - h.pa).norm() > tol_t {
                    push(
                        Query::Directional,
                        Fail::Identity,
                        format!("|point_b − point_a| = {:e}", (h.pb - h.pa).norm()),
                    );
                }
            }
        }
    }

    // shape_cast and ray_cast
    let v = cx.m.vel_b - cx.m.vel_a;
    check_cast(Query::ShapeCast, &o.cast, cx.a, cx.b, &v, 1.0, &cx.tol, cx, &mut push);
    // The ray meets A alone: its band is A's, not the pair's (a ray passing within the band of
    // a pair with a 1e4 times larger B would be "certain" to hit a small A, even a segment), and
    // so is the coarsening of a hull as built (B's, 6e-4 for a 40 m hull in `f32`, made a ray
    // 1.6e-7 past a 2.5 mm segment a certain hit).
    let point = Body::new(Core::Points(vec![cx.m.ray_origin]), 0.0);
    let ray_tol = Tol { scale: cx.a.size, built: cx.tol.built_a, ..cx.tol };
    let (ray, dir) = (&o.ray, &cx.m.ray_dir);
    check_cast(Query::RayCast, ray, cx.a, &point, dir, RAY_MAX_T, &ray_tol, cx, &mut push);
    out
}

/// Whether B pushed by `push` touches A within `tol`: what a directional penetration's `t` must
/// do. Along a nearly tangent direction the push's effect on the separation is `t·|n·d|`, so
/// the rounding of the contact (divided by `|n·d|`) moves `t` far more than it moves the shapes:
/// such a `t` is charged only when it leaves them overlapping or apart by more than `tol`. Past
/// the exit the separation grows at least linearly in `t` (the distance from a line to a convex
/// set is convex), so this bounds `|t − t*|` by `tol / |n·d|`.
fn leaves_touching<const D: usize>(cx: &Ctx<'_, D>, push: &V<D>, tol: f64) -> bool {
    let after = signed_distance(cx.a, &cx.b.translated(push), cx.dirs);
    after.lo <= tol && after.hi >= -tol
}

fn check_contact<const D: usize>(
    q: Query,
    c: &ContactOut<D>,
    cx: &Ctx<'_, D>,
    truth: &crate::oracle::Truth<D>,
    tol: f64,
    push: &mut dyn FnMut(Query, Fail, String),
) {
    if !finite(&c.pa) || !finite(&c.pb) || !finite(&c.n) || !c.sep.is_finite() {
        push(q, Fail::NaN, format!("{c:?}"));
        return;
    }
    let nn = c.n.norm();
    if (nn - 1.0).abs() > cx.tol.unit() {
        push(q, Fail::NotUnit, format!("|n| = {nn:e}, separation {:e}", c.sep));
    }
    let id = (c.pb - c.pa - c.n * c.sep).norm();
    if id > tol {
        push(
            q,
            Fail::Identity,
            format!("|point_b − point_a − separation·normal| = {id:e}, separation {:e}", c.sep),
        );
    }
    let wrong = if truth.exact {
        (c.sep - truth.lo).abs() > tol
    } else {
        c.sep < truth.lo - tol || c.sep > truth.hi + tol
    };
    if wrong {
        push(q, Fail::Error, format!("separation {:e}", c.sep));
    }
    // The normal of nearly touching shapes is fixed only to the rounding of the points that
    // define it (`f64`'s, here as in the oracle, whose points are rounded in the world) over
    // their distance, and a normal tilted by `δ` moves the gap along it, and the supporting
    // planes, by up to `δ` times the shapes' reach. Two 20 m segments 4.4e-8 apart, a vertex
    // against an edge: kollide's normal has g(n) 1.3e-6 below the separation, a tilt of about
    // 6e-8 rad over their length, from coordinates of 20 rounded to 4e-15.
    let tilt =
        16.0 * f64::EPSILON * (cx.tol.offset + cx.tol.scale) / truth.lo.abs().max(cx.tol.band());
    let tol_n = tol + tilt * 2.0 * cx.tol.scale;
    if nn > 0.5 {
        let n = c.n / nn;
        let g = gap(cx.a, cx.b, &n);
        if (g - c.sep).abs() > tol_n {
            push(
                q,
                Fail::Attain,
                format!("g(n) = {g:e} but separation {:e}, n = {}", c.sep, fmt_v(&n)),
            );
        }
        let off = |along: f64, outside: f64| (along.abs() - (tol_n - tol)).max(outside);
        let off_a = off(c.pa.dot(&n) - cx.a.h(&n), outside_by(cx.a, &c.pa, cx.dirs));
        let off_b = off(c.pb.dot(&n) + cx.b.h(&-n), outside_by(cx.b, &c.pb, cx.dirs));
        if off_a > tol || off_b > tol {
            push(
                q,
                Fail::OffSurface,
                format!("point_a off by {off_a:e}, point_b off by {off_b:e}"),
            );
        }
    }
}

fn check_manifold<const D: usize>(
    m: &crate::run::ManifoldOut<D>,
    cx: &Ctx<'_, D>,
    truth: &crate::oracle::Truth<D>,
    tol: f64,
    band: f64,
    apart: bool,
    push: &mut dyn FnMut(Query, Fail, String),
) {
    let q = Query::Manifold;
    let min_sep = m.contacts.iter().map(|c| c.2).fold(f64::MAX, f64::min);
    let max_sep = m.contacts.iter().map(|c| c.2).fold(f64::MIN, f64::max);
    if max_sep > band {
        push(q, Fail::BeyondMargin, format!("a contact at separation {max_sep:e} > margin 0"));
    } else if apart {
        push(q, Fail::FalseHit, format!("{} contacts, deepest {min_sep:e}", m.contacts.len()));
    }
    let nn = m.n.norm();
    if (nn - 1.0).abs() > cx.tol.unit() {
        push(q, Fail::NotUnit, format!("|n| = {nn:e}"));
        return;
    }
    let n = m.n / nn;
    // A manifold keeps a face axis over an edge pair, and A's face over B's, unless the other is
    // shallower by more than its bias, 1e-4 of the larger bounding radius (clamped to
    // `[1e-3, 1e3]`; see docs/conventions.md): its deepest contact may be that much deeper than
    // the least penetration. Its radii are about the shapes' own origins, up to twice `scale`.
    // The points themselves are on their shapes whichever axis won.
    let bias = 1e-4 * (2.0 * cx.tol.scale).clamp(1e-3, 1e3);
    let tol_on = tol + 0.05 * truth.lo.abs();
    let tol_m = tol + (0.05 * truth.lo.abs()).max(bias);
    if min_sep < truth.lo - tol_m || min_sep > truth.hi + tol {
        push(q, Fail::Error, format!("deepest contact {min_sep:e}"));
    }
    let g = gap(cx.a, cx.b, &n);
    if (g - min_sep).abs() > tol_m {
        push(
            q,
            Fail::Attain,
            format!("g(n) = {g:e} but deepest contact {min_sep:e}, n = {}", fmt_v(&n)),
        );
    }
    for (pa, pb, s) in &m.contacts {
        let id = (pb - pa - n * *s).norm();
        if id > tol {
            push(q, Fail::Identity, format!("|point_b − point_a − separation·normal| = {id:e}"));
        }
        let on = |body: &Body<D>, p: &V<D>| {
            if body.has_exact_sdf() {
                body.sdf_upper(p).abs()
            } else {
                outside_by(body, p, cx.dirs)
            }
        };
        let (oa, ob) = (on(cx.a, pa), on(cx.b, pb));
        if oa > tol_on || ob > tol_on {
            push(q, Fail::OffSurface, format!("point_a off by {oa:e}, point_b off by {ob:e}"));
        }
    }
}

fn check_cast<const D: usize>(
    q: Query,
    hit: &crate::run::Answer<Option<CastOut<D>>>,
    a: &Body<D>,
    b: &Body<D>,
    v: &V<D>,
    max_t: f64,
    tol: &Tol,
    cx: &Ctx<'_, D>,
    push: &mut dyn FnMut(Query, Fail, String),
) {
    let h = match hit {
        Err(e) => return push(q, Fail::Panic, e.clone()),
        Ok(h) => h,
    };
    let band = tol.band();
    let toi = time_of_impact(a, b, v, max_t, band, cx.dirs);
    let speed = v.norm();
    let tol_t = if speed > 0.0 { band / speed } else { f64::MAX };
    let txt =
        format!("toi ≥ {:e}{}, hit {:?}", toi.lo, if toi.exact { " exact" } else { "" }, toi.hit);
    let Some(h) = h else {
        if toi.hit == Some(true) {
            push(q, Fail::SilentMiss, format!("None; {txt}"));
        }
        return;
    };
    if !h.t.is_finite() || !finite(&h.n) || !finite(&h.pa) || !finite(&h.pb) {
        return push(q, Fail::NaN, format!("{h:?}"));
    }
    if toi.hit == Some(false) {
        return push(q, Fail::FalseHit, format!("t = {:e}, n = {}; {txt}", h.t, fmt_v(&h.n)));
    }
    if toi.start_overlap {
        if h.t > tol_t {
            push(q, Fail::Error, format!("t = {:e} but overlapping at t = 0", h.t));
        }
        return;
    }
    // A hit a little before the bound is fine when the shapes are within the touching band at
    // it: a cast stops once they are that close, and where B barely closes in on A (gliding
    // along a face) that is long before they touch. A disc gliding at 1/180 of its speed onto a
    // plate stopped 1.3e-12 m short, 7e-10 of the time early.
    let sd_at_hit = || {
        let o = a.center();
        let at_hit = b.translated(&(v * h.t - o));
        signed_distance(&a.translated(&-o), &at_hit, cx.dirs).lo
    };
    let early = h.t < toi.lo - tol_t && sd_at_hit() > band;
    // Likewise a hit a little after it, when the shapes still touch within the band there: the
    // band is a length, and where B barely closes in on A (a ray grazing a face) a length of it
    // is a long time. A hull built in `f32` lies within its tolerance of its description, not on
    // it: a ray closing in on a 40 m sliver hull at 1/12 of its speed hit 7e-6 of the time (1 mm
    // along it) late, 8e-5 inside the description, within the band of 9e-4.
    let late =
        toi.exact && toi.hit == Some(true) && h.t > toi.lo + tol_t && sd_at_hit().abs() > band;
    if early || late {
        push(q, Fail::Error, format!("t = {:e}; {txt}", h.t));
    }
    if h.t > tol_t && toi.hit.is_some() {
        let nn = h.n.norm();
        if (nn - 1.0).abs() > tol.unit() {
            push(q, Fail::NotUnit, format!("|n| = {nn:e} at t = {:e}", h.t));
        } else {
            let n = h.n / nn;
            let g = gap(a, b, &n) + h.t * n.dot(v);
            if g.abs() > band {
                push(
                    q,
                    Fail::Attain,
                    format!("gap at t along n = {g:e}, t = {:e}, n = {}", h.t, fmt_v(&n)),
                );
            }
        }
        if (h.pb - h.pa).norm() > band {
            push(
                q,
                Fail::Identity,
                format!("|point_b − point_a| = {:e} at the hit", (h.pb - h.pa).norm()),
            );
        }
    }
}
