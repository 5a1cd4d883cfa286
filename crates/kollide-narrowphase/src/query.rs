//! The world-space queries between two shapes: intersection test, closest points and distance,
//! and the signed contact (distance or penetration) that contact generation builds on.
//!
//! All of them place B in A's local frame (`pos_ab = pos_a⁻¹ · pos_b`) and run on the Minkowski
//! difference of the shapes' *cores* (see `kollide_shapes::SupportMap`): the radii of balls,
//! capsules and rounded shapes are added at the end, and EPA runs only when the cores themselves
//! overlap. Pairs whose cores are both points or segments (balls, capsules, segments) skip GJK
//! altogether for the closed form of `segment_cores`. Working in A's frame keeps the arithmetic
//! near the origin, which is what makes results 10 km from the world origin as accurate as at the
//! origin.
//!
//! GJK's "apart" needs a proof, a separating plane (its lower bound). When GJK stalls without one
//! (rounding on a thin or far-reaching Minkowski difference), EPA is run on its simplex: EPA's
//! polytope lies inside the difference, so a positive depth proves the overlap.

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::{MinkowskiDifference, SupportMap};

use crate::core_closed_form::{point_inside_contact, projection_contact};
use crate::cso::{SmallHullDifference, Widened};
use crate::kinks::least_on_flat_normals;
use crate::polish::polish_penetration;
use crate::sat::exact;
use crate::segment_cores::segment_cores_contact;
use crate::{Cso, GjkOutcome, QuerySettings, Status, epa, gjk, gjk_with};

/// Warm-start data for GJK kept between frames for one pair: the last separating direction and
/// the hill-climbing vertices of both shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkCache<N: Scalar, const D: usize> {
    /// Last search direction (from A towards B), in A's local frame. Zero means "none yet".
    pub dir: Vector<N, D>,
    /// Last support vertex of A and of B.
    pub hints: (u32, u32),
}

impl<N: Scalar, const D: usize> Default for GjkCache<N, D> {
    fn default() -> Self {
        Self { dir: Vector::zeros(), hints: (0, 0) }
    }
}

/// The answer of [`intersection_test`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intersection {
    /// `true` when the shapes overlap or touch.
    pub intersecting: bool,
    /// How GJK ended. With [`Status::IterationCap`] the answer is GJK's best guess.
    pub status: Status,
}

/// A signed contact between two shapes, in world space.
///
/// **Conventions:** `normal` is a unit vector pointing from A to B. `separation` is the signed
/// distance: positive when the shapes are apart (the gap), negative when they overlap (minus the
/// penetration depth). `point_a` lies on A's surface and `point_b` on B's, and
/// `point_b − point_a = separation · normal`. Moving B by `−separation · normal` makes the shapes
/// touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeContact<N: Scalar, const D: usize> {
    /// Witness point on A (world).
    pub point_a: Point<N, D>,
    /// Witness point on B (world).
    pub point_b: Point<N, D>,
    /// Unit normal from A to B (world).
    pub normal: Vector<N, D>,
    /// Signed distance; negative when penetrating.
    pub separation: N,
    /// How the iterative parts ended.
    pub status: Status,
}

impl<N: Scalar, const D: usize> ShapeContact<N, D> {
    /// The same contact seen from B: points swapped, normal negated.
    pub fn flipped(&self) -> Self {
        Self {
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            separation: self.separation,
            status: self.status,
        }
    }

    /// The penetration depth, `max(−separation, 0)`.
    pub fn depth(&self) -> N {
        (-self.separation).max_of(N::zero())
    }
}

/// The length scale of a query: the larger bounding radius of the two shapes
/// ([`SupportMap::bounding_radius`], O(1) for every kollide shape), which the tolerances are
/// multiplied by.
#[inline]
pub(crate) fn scale_of<N: Scalar, const D: usize, A, B>(a: &A, b: &B) -> N
where
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    a.bounding_radius().max_of(b.bounding_radius()).max_of(N::EPSILON)
}

/// The gap at or below which two shapes of size `scale` count as touching (GJK stops with
/// "intersecting", the boolean test says `true`): a hundredth of the relative length tolerance,
/// relative to the shapes' own size with no floor. A floor at unit size (as
/// [`Tolerances::length`](kollide_math::Tolerances::length) has) would call centimetre shapes
/// touching across gaps of several times their accuracy goal and report a contact where there
/// is none. The envelope's smallest size keeps it above the rounding noise of the coordinates.
#[inline]
pub(crate) fn touch_tolerance<N: Scalar>(settings: &QuerySettings<N>, scale: N) -> N {
    settings.tolerances.relative_length * N::lit(0.01) * scale
}

/// The world position of a point core (a ball's centre, usually the local origin, which needs no
/// rotation).
#[inline]
pub(crate) fn core_center<N, const D: usize, P, S>(pose: &P, s: &S) -> Point<N, D>
where
    N: Scalar,
    P: Pose<N, D>,
    S: SupportMap<N, D> + ?Sized,
{
    let c = s.local_core_support(&Vector::zeros());
    if c.coords.iter().all(|x| *x == N::zero()) {
        Point::from(pose.translation())
    } else {
        pose.transform_point(&c)
    }
}

/// Two shapes whose cores are single points (balls): A's centre and the vector from it to B's
/// centre, in world space. `None` unless both cores are points. The closed forms built on this
/// skip the relative pose and the Minkowski difference altogether.
#[inline]
pub(crate) fn point_cores<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
) -> Option<(Point<N, D>, Vector<N, D>)>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    if a.core_is_point() && b.core_is_point() {
        let ca = core_center(pos_a, a);
        Some((ca, core_center(pos_b, b) - ca))
    } else {
        None
    }
}

/// `true` when the shapes overlap or touch.
///
/// With a `cache`, GJK starts from last frame's separating direction and support vertices and
/// stores this frame's for the next call: a pair that stays apart usually needs one iteration.
///
/// ```
/// use kollide_math::{Iso2, Vec2};
/// use kollide_shapes::Circle;
/// use kollide_narrowphase::{intersection_test, QuerySettings};
/// let c = Circle::new(1.0f64).unwrap();
/// let hit = intersection_test(&Iso2::identity(), &c, &Iso2::translation(1.5, 0.0), &c,
///                             None, &QuerySettings::default());
/// assert!(hit.intersecting);
/// ```
pub fn intersection_test<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    cache: Option<&mut GjkCache<N, D>>,
    settings: &QuerySettings<N>,
) -> Intersection
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let radii = a.radius() + b.radius();
    let touch = touch_tolerance(settings, scale_of(a, b));
    if let Some((_, d)) = point_cores(pos_a, a, pos_b, b) {
        // Two balls: compare the centre distance with the radii (or the touching tolerance).
        let reach = radii.max_of(touch);
        let dd = d.norm_squared();
        if let Some(c) = cache
            && dd > N::zero()
        {
            c.dir = pos_a.inverse_transform_vector(&d);
        }
        return Intersection { intersecting: dd <= reach * reach, status: Status::Converged };
    }
    if let Some(c) = segment_cores_contact(pos_a, a, pos_b, b) {
        // As for balls: touching within the tolerance counts, even for shapes without radius.
        let slack = (touch - radii).max_of(N::zero());
        return Intersection { intersecting: c.separation <= slack, status: Status::Converged };
    }
    let pos_ab = pos_a.inv_compose(pos_b);
    let (dir, hints) = match &cache {
        Some(c) if c.dir.norm_squared() > N::zero() => (c.dir, c.hints),
        // No hint: each shape starts climbing where it finds best.
        _ => (pos_ab.translation(), (u32::MAX, u32::MAX)),
    };
    // Only the outcome is read: the simplex keeps bare points, no witnesses.
    let (g, hints) = if let Some(hull) = b.small_hull() {
        let cso = SmallHullDifference::new(a, hull, &pos_ab, hints);
        (gjk_with::<_, D, _, Vector<N, D>>(&cso, &dir, radii, touch, settings), cso.hints())
    } else {
        let md = MinkowskiDifference::new(a, b, pos_ab).with_hints(hints.0, hints.1);
        (gjk_with::<_, D, _, Vector<N, D>>(&md, &dir, radii, touch, settings), md.hints())
    };
    let (mut intersecting, mut status) = match g.outcome {
        GjkOutcome::Intersecting => (true, g.status),
        // Unproven: a stalled run's `|v|` is only an upper bound on the cores' distance, so
        // unless its lower bound already clears the radii, the contact query settles it (with
        // the exact test behind it). So it does when the radii lie inside a converged run's
        // bracket `[lower_bound, |v|]` by more than the touching tolerance (see `contact_on`).
        GjkOutcome::Separated { v, lower_bound }
            if unproven(g.status, lower_bound, radii + touch)
                || inside_bracket(radii, v.norm(), lower_bound, touch) =>
        {
            match settle(pos_a, a, pos_b, b, settings) {
                Some(c) => (c.separation <= N::zero(), c.status),
                None => (false, Status::Converged),
            }
        }
        GjkOutcome::Separated { v, .. } => (v.norm() <= radii, g.status),
    };
    if status != Status::Converged
        && let Some(s) = exact(pos_a, a, pos_b, b, stalled_normal(pos_a, &g.outcome))
    {
        // GJK stalled without a proof either way: the exact answer decides.
        (intersecting, status) = (s.separation <= radii + touch, Status::Converged);
    }
    if let Some(c) = cache {
        if let GjkOutcome::Separated { v, .. } = g.outcome {
            c.dir = -v;
        }
        c.hints = hints;
    }
    Intersection { intersecting, status }
}

/// The signed contact between two shapes, if their separation is at most `margin`.
///
/// Returns `None` only when the shapes are *proven* farther apart than `margin` (GJK's lower
/// bound exceeds it). A contact found after an iteration cap is still returned, with its status.
/// Pass `N::MAX` as the margin to always get the closest points.
///
/// ```
/// use kollide_math::{Iso2, Vec2};
/// use kollide_shapes::Circle;
/// use kollide_narrowphase::{contact, QuerySettings};
/// let c = Circle::new(1.0f64).unwrap();
/// let k = contact(&Iso2::identity(), &c, &Iso2::translation(1.5, 0.0), &c, 0.0,
///                 &QuerySettings::default()).unwrap();
/// assert!((k.separation + 0.5).abs() < 1e-12);
/// assert!((k.normal - Vec2::x()).norm() < 1e-12);
/// ```
#[inline]
pub fn contact<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    margin: N,
    settings: &QuerySettings<N>,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    if let Some((ca, d)) = point_cores(pos_a, a, pos_b, b) {
        return ball_ball_contact(pos_a, ca, d, a.radius(), b.radius(), margin);
    }
    contact_gjk(pos_a, a, pos_b, b, margin, settings, true)
}

/// `Some(c)` when `c` is within `margin` (any `c` for an unbounded margin).
#[inline]
fn within<N: Scalar, const D: usize>(
    c: ShapeContact<N, D>,
    margin: N,
) -> Option<ShapeContact<N, D>> {
    if margin < N::MAX.sqrt() && c.separation > margin.max_of(N::zero()) { None } else { Some(c) }
}

/// [`contact`] for a caller that needs the normal and the separation but not the points (the
/// hull manifold, which builds its own): the witnesses are left as EPA gives them, without the
/// move onto both contact features ([`crate::witness`]), which scans every vertex.
pub(crate) fn contact_normal<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    margin: N,
    settings: &QuerySettings<N>,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    contact_gjk(pos_a, a, pos_b, b, margin, settings, false)
}

/// [`contact`] through GJK and EPA (everything but the ball–ball closed form, which stays in
/// the small, inlinable [`contact`]); `witnesses` says whether the points are wanted on both
/// contact features.
fn contact_gjk<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    margin: N,
    settings: &QuerySettings<N>,
    witnesses: bool,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    if let Some(c) = segment_cores_contact(pos_a, a, pos_b, b) {
        return within(c, margin);
    }
    if let Some(c) = point_inside_contact(pos_a, a, pos_b, b) {
        return within(c, margin);
    }
    if let Some(c) = projection_contact(pos_a, a, pos_b, b) {
        return within(c, margin);
    }
    let (ra, rb) = (a.radius(), b.radius());
    let pos_ab = pos_a.inv_compose(pos_b);
    let pair = Pair::of(a, b);
    let settings_here = first_pass_settings(&pair, settings);
    let c = if let Some(hull) = b.small_hull() {
        let cso = SmallHullDifference::new(a, hull, &pos_ab, (u32::MAX, u32::MAX));
        contact_on(&cso, pos_ab.translation(), &pair, margin, &settings_here)?
    } else {
        let md = MinkowskiDifference::new(a, b, pos_ab);
        contact_on(&md, pos_ab.translation(), &pair, margin, &settings_here)?
    };
    let on_features = |c: LocalContact<N, D>| {
        if witnesses && (c.clamped || pair.curved) {
            on_both_features(a, b, &pos_ab, &pair, c, settings)
        } else {
            c
        }
    };
    let c = on_features(c);
    let coarse = too_coarse(&pos_ab, a, b, c.separation, settings);
    if N::EPSILON.to_f64() > 1e-10
        && c.status != Status::Converged
        && !coarse
        && exact_is_costly(a, b)
    {
        // `f32` stalled on rounding between large hulls: the same run in `f64` on the same
        // support points first. It settles most such pairs for the cost of a GJK run, where the
        // exact test below walks both hulls in full (1.2 ms for two touching 1000-vertex hulls).
        // Its answer is off by the support points' rounding, a few `f32` ulps of the scale, well
        // within `f32`'s length tolerance; only a converged one is taken. Small polytopes (the
        // boxes of a world) keep the exact answer, which costs them little.
        let md = MinkowskiDifference::new(a, b, pos_ab);
        match widened(&md, &pos_ab, &pair, margin) {
            Some(w) if w.status == Status::Converged => {
                return within(finish_contact(pos_a, on_features(w)), margin);
            }
            None => return None,
            Some(_) => {}
        }
    }
    if (c.status != Status::Converged || coarse)
        && let Some(s) = exact(pos_a, a, pos_b, b, Some(pos_a.transform_vector(&c.normal)))
    {
        // GJK or EPA stalled on rounding, or could not resolve the smaller shape: the exact
        // answer replaces their estimate.
        let n = s.normal;
        let exact_contact = ShapeContact {
            point_a: Point::from(s.point_a + n * ra),
            point_b: Point::from(s.point_b - n * rb),
            normal: n,
            separation: s.separation - (ra + rb),
            status: Status::Converged,
        };
        // `None` when proven farther apart than `margin`.
        return within(exact_contact, margin);
    }
    if N::EPSILON.to_f64() > 1e-10
        && (pair.curved || c.status != Status::Converged || loose_normal(a, b, &pos_ab, &pair, &c))
    {
        // `f32` on a curved pair, stalled, or with a normal that misses its distance: the same
        // algorithm in `f64` on the same support points (see [`Widened`]) settles what `f32`
        // arithmetic could not. The support gap along a normal bounds the true separation (a
        // depth from above, a distance from below), so when both normals attain their
        // separations the one with the larger gap is the nearer: EPA's polish in `f32` settled a
        // 3.7e-4 deep tiny hull on a cone at 8.8e-4, on a normal that attains it. Otherwise the
        // answer whose normal better attains its separation is kept. An answer's witnesses count
        // too: EPA's on a sliver face can miss its depth by several times it (a 1.5 mm triangle
        // in a 16 m cone at 25 m from the origin: 2.2e-3 on a depth of 5.7e-4, and the rebuilt
        // points lay 1e-3 off the triangle), and such an answer's miss is theirs.
        let md = MinkowskiDifference::new(a, b, pos_ab);
        let w = widened(&md, &pos_ab, &pair, margin)?;
        let wide = Widened::new(&md);
        let radii = (ra + rb).to_f64();
        let (gap_w, gap_c) = (support_gap(&wide, &w, radii), support_gap(&wide, &c, radii));
        let miss_w = (gap_w - w.separation.to_f64()).abs().max(w.spread.to_f64());
        let miss_c = (gap_c - c.separation.to_f64()).abs().max(c.spread.to_f64());
        let tol = attain_tolerance(&pos_ab, &pair).to_f64();
        let take_wide =
            if miss_w <= tol && miss_c <= tol { gap_w >= gap_c } else { miss_w <= miss_c };
        if take_wide {
            return within(finish_contact(pos_a, on_features(w)), margin);
        }
    }
    within(finish_contact(pos_a, c), margin)
}

/// `c` with its witnesses moved onto both shapes' contact features ([`crate::witness`]), for a
/// penetration whose EPA witnesses were clamped to their face; `c` itself when a core is curved
/// or the features do not overlap along the normal.
#[cold]
#[inline(never)]
fn on_both_features<N, const D: usize, P, A, B>(
    a: &A,
    b: &B,
    pos_ab: &P,
    pair: &Pair<N>,
    c: LocalContact<N, D>,
    settings: &QuerySettings<N>,
) -> LocalContact<N, D>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let n = c.normal;
    let core_a = c.point_a - n * ra;
    // The features are the vertices within `tol` below each supporting plane, and the common
    // point is lifted onto the planes: a witness can lie as far off its shape as the lowest
    // vertex taken is below the plane, so `tol` is held to the pair's own size, without the
    // floor of `Tolerances::length` at a size of 1. With that floor, a dense hull 0.06 across
    // lent its face every vertex within 3.5e-5 of the plane, half a thousandth of its size,
    // and the witness lifted above them lay that far outside it.
    let reach = pos_ab.translation().norm() + pair.scale;
    let rounding = N::lit(8.0) * N::EPSILON * reach;
    let tol = if pair.curved {
        // A curved feature is listed exactly (not filtered from rounded vertices): a tenth of
        // the length tolerance.
        settings.tolerances.relative_length * N::lit(0.1) * pair.scale + rounding
    } else {
        // Vertices rounded in `N` and a normal tilted by its own rounding spread a flat face
        // by up to the length tolerance of its size.
        settings.tolerances.relative_length * pair.scale + rounding
    };
    match crate::witness::on_features(a, b, pos_ab, &n, c.separation + ra + rb, &core_a, tol) {
        Some((pa, pb)) => {
            LocalContact { point_a: pa + n * ra, point_b: pb - n * rb, spread: N::zero(), ..c }
        }
        None => c,
    }
}

/// Whether an `f32` contact has a normal that misses the separation it reports by more than a
/// millionth of the pair's size (plus the rounding of its coordinates). Three ways to get
/// there, one support query tells them all:
/// - rounded cores: GJK stops once the cores' *distance* `|v|` is within `√rel·|v|`, and the
///   distance is flat in the normal's direction (off by `|v|·θ²/2` for a normal `θ` off): a
///   polytope 1e-5 from a ball of radius 40 got a normal 1e-4 rad off, and its support points
///   along that normal missed by the polytope's extent times that;
/// - any cores a few thousand ulps of their coordinates apart: `v` is a difference of points
///   rounded at the coordinates' scale, so its direction is noise (a segment 2.4e-5 from a box's
///   edge at 10 m got a normal 0.02 rad off, and the witness on the box slid 0.55 m along the
///   edge, off the box);
/// - overlapping cores: EPA's face normal is the cross product of the face's edges, which on a
///   sliver are long and nearly parallel (a 6 m segment through a box 4 mm thick: a normal whose
///   gap was 1e-4 deeper than the depth EPA reported along it).
fn loose_normal<N, const D: usize, P, A, B>(
    a: &A,
    b: &B,
    pos_ab: &P,
    pair: &Pair<N>,
    c: &LocalContact<N, D>,
) -> bool
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let radii = pair.radii.0 + pair.radii.1;
    let md = MinkowskiDifference::new(a, b, *pos_ab);
    let gap = -c.normal.dot(&md.support(&c.normal).point) - radii;
    (gap - c.separation).abs() > attain_tolerance(pos_ab, pair)
}

/// How far a normal's support gap may be from the separation it comes with for the normal to
/// count as attaining it ([`loose_normal`]): a millionth of the pair's size, plus the rounding
/// of the coordinates.
#[inline]
fn attain_tolerance<N: Scalar, const D: usize, P: Pose<N, D>>(pos_ab: &P, pair: &Pair<N>) -> N {
    let reach = pos_ab.translation().norm() + pair.scale;
    N::lit(1e-6) * pair.scale + N::lit(8.0) * N::EPSILON * reach
}

/// The support gap of the shapes along a contact's normal, `g(n) = −h(n) − radii` with `h` the
/// support function of the cores' CSO (in `f64`): the separation the normal attains.
fn support_gap<N: Scalar, const D: usize, C: Cso<f64, D> + ?Sized>(
    cso: &C,
    c: &LocalContact<N, D>,
    radii: f64,
) -> f64 {
    let n = c.normal.map(|x| x.to_f64());
    -n.dot(&cso.support(&n).point) - radii
}

/// [`contact`] of `a` and `b` (B placed by `pos_ab` in A's frame) computed in `f64` on the
/// shapes' own support points ([`Widened`]), in A's frame. For callers that need the answer's
/// guarantees (EPA's depth a lower bound) in `f32`, where the `f32` polytope arithmetic of EPA
/// can stall short of them on slivers.
pub(crate) fn contact_wide<N, const D: usize, P, A, B>(
    a: &A,
    b: &B,
    pos_ab: &P,
    margin: N,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let md = MinkowskiDifference::new(a, b, *pos_ab);
    let c = widened(&md, pos_ab, &Pair::of(a, b), margin)?;
    within(finish_contact(&P::identity(), c), margin)
}

/// [`contact_on`] in `f64` through [`Widened`], the answer rounded back to `N`; `None` when
/// proven farther apart than `margin`.
#[cold]
#[inline(never)]
fn widened<N, const D: usize, P, C>(
    cso: &C,
    pos_ab: &P,
    pair: &Pair<N>,
    margin: N,
) -> Option<LocalContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    C: Cso<N, D> + ?Sized,
{
    widened_on(crate::cso::debug_erased(&cso), pos_ab, pair, margin)
}

/// [`widened`] on the CSO that `debug_erased` gives.
fn widened_on<N, const D: usize, P, C>(
    cso: &C,
    pos_ab: &P,
    pair: &Pair<N>,
    margin: N,
) -> Option<LocalContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    C: Cso<N, D> + ?Sized,
{
    let wide = Widened::new(cso);
    let pair64 = Pair {
        radii: (pair.radii.0.to_f64(), pair.radii.1.to_f64()),
        scale: pair.scale.to_f64(),
        curved: pair.curved,
        noise: N::EPSILON.to_f64(),
    };
    let margin64 = if margin >= N::MAX.sqrt() { f64::MAX } else { margin.to_f64() };
    let dir = pos_ab.translation().map(|x| x.to_f64());
    let c = contact_on(&wide, dir, &pair64, margin64, &widened_settings(pair.curved))?;
    let narrow = |v: Vector<f64, D>| v.map(N::lit);
    Some(LocalContact {
        point_a: Point::from(narrow(c.point_a.coords)),
        point_b: Point::from(narrow(c.point_b.coords)),
        normal: narrow(c.normal),
        separation: N::lit(c.separation),
        status: c.status,
        clamped: c.clamped,
        spread: N::lit(c.spread),
    })
}

/// EPA iterations at most of the `f64` run on an `f32` curved pair ([`widened`]).
const WIDENED_CURVED_EPA_ITERATIONS: u32 = 256;

/// The settings of the `f64` run on `f32` shapes: `f64`'s defaults, with EPA capped at
/// [`WIDENED_CURVED_EPA_ITERATIONS`] on a curved pair. There EPA only brings the normal into
/// the basin of the polish, which settles the depth (`crate::polish`); where every normal of a
/// ring is as deep (coincident cones), its polytope never meets the tolerance and runs to the
/// cap, and the second half of a 512-iteration run cost half the query (two coincident cones in
/// `f32`: 2.27 M instructions a contact, 1.22 M with 256). The answer is rounded to `f32`; the
/// hostile suite's 1000-vertex hulls against cones and cylinders, whose EPA takes longest to find
/// the basin, were answered wrongly with a cap of 64 and rightly with 128 and 192.
fn widened_settings(curved: bool) -> QuerySettings<f64> {
    let settings = QuerySettings::<f64>::default();
    if curved {
        QuerySettings { epa_max_iterations: WIDENED_CURVED_EPA_ITERATIONS, ..settings }
    } else {
        settings
    }
}

/// Polytopes of more vertices than this make the exact test ([`exact`]) cost more than a run
/// of GJK and EPA in `f64` (it walks the Gauss maps of both in full).
const COSTLY_EXACT_VERTICES: usize = 64;

/// Whether both cores are polytopes and one has more than [`COSTLY_EXACT_VERTICES`] vertices.
#[inline]
pub(crate) fn exact_is_costly<N, const D: usize, A, B>(a: &A, b: &B) -> bool
where
    N: Scalar,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    match (a.polytope(), b.polytope()) {
        (Some(pa), Some(pb)) => pa.vertex_count().max(pb.vertex_count()) > COSTLY_EXACT_VERTICES,
        _ => false,
    }
}

/// EPA iterations at most of the first, `f32` pass on a curved pair (see [`first_pass_settings`]).
const F32_CURVED_EPA_ITERATIONS: u32 = 48;

/// The settings of [`contact_gjk`]'s first pass: `settings`, except that an `f32` pass on a
/// curved pair caps EPA at [`F32_CURVED_EPA_ITERATIONS`]. Such a pair is settled again in `f64`
/// ([`widened`]), which runs to the caller's cap; in `f32` a deep curved pair never meets EPA's
/// tolerance and ran to the full cap as well, doubling the cost of the query (two coincident
/// cones took 1.3 ms). The first pass still yields an answer for the second to be compared with.
#[inline]
fn first_pass_settings<N: Scalar>(pair: &Pair<N>, settings: &QuerySettings<N>) -> QuerySettings<N> {
    if N::EPSILON.to_f64() > 1e-10 && pair.curved {
        let epa_max_iterations = settings.epa_max_iterations.min(F32_CURVED_EPA_ITERATIONS);
        QuerySettings { epa_max_iterations, ..*settings }
    } else {
        *settings
    }
}

/// `true` for a shape whose core has curved parts (cones, cylinders, and any shape that does not
/// say it is a polytope, a segment or a point), where EPA's polytope only approaches the
/// boundary of the Minkowski difference and its answer is polished (`crate::polish`).
#[inline]
pub(crate) fn curved<N: Scalar, const D: usize, S: SupportMap<N, D> + ?Sized>(s: &S) -> bool {
    s.polytope().is_none() && s.core_segment().is_none() && !s.core_is_point()
}

/// What [`contact_on`] needs to know about the two shapes besides their CSO.
struct Pair<N> {
    /// The rounding radii of A and B.
    radii: (N, N),
    /// The pair's length scale ([`scale_of`]).
    scale: N,
    /// Either core is curved ([`curved`]).
    curved: bool,
    /// The relative rounding of the support points: `N::EPSILON`, or `f32`'s in the `f64` run
    /// on `f32` shapes ([`widened`]), whose answers can agree no closer than that.
    noise: N,
}

impl<N: Scalar> Pair<N> {
    /// What `a` and `b` contribute.
    fn of<const D: usize, A, B>(a: &A, b: &B) -> Self
    where
        A: SupportMap<N, D> + ?Sized,
        B: SupportMap<N, D> + ?Sized,
    {
        Pair {
            radii: (a.radius(), b.radius()),
            scale: scale_of(a, b),
            curved: curved(a) || curved(b),
            noise: N::EPSILON,
        }
    }

    /// The relative tolerance to which a polished curved contact's witnesses must agree with
    /// its depth: half the length tolerance, or half what the support points' rounding allows.
    /// Half, because a witness that misses by the tolerance lies up to that far off its shape
    /// (a triangle's vertex touching a cone's rim, 1.2e-9 of the size off the triangle), and the
    /// length tolerance is the error a query may have, not a budget for one step of it.
    fn polish_tolerance(&self, settings: &QuerySettings<N>) -> N {
        settings.tolerances.relative_length.max_of(self.noise.sqrt() * N::lit(0.1)) * N::lit(0.5)
    }
}

/// `true` when rounding in A's frame, a few ulps of the pair's largest coordinate, exceeds the
/// accuracy the *smaller* shape calls for (the relative length tolerance times its size, or
/// times the contact's `separation` where that is larger): a tiny box on a huge one, where GJK
/// and EPA converge on numbers rounded at the huge one's scale. Never for shapes of similar
/// sizes near each other, nor in `f64` short of a ratio of about 10⁶, nor for a small shape
/// sunk deep into a large one: a depth is held to the length tolerance relative to itself, and
/// the exact test, which walks both hulls in full, is not needed to resolve it.
#[inline]
fn too_coarse<N, const D: usize, P, A, B>(
    pos_ab: &P,
    a: &A,
    b: &B,
    separation: N,
    settings: &QuerySettings<N>,
) -> bool
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let (ra, rb) = (a.bounding_radius(), b.bounding_radius());
    let reach = pos_ab.translation().norm() + ra + rb;
    let size = ra.min_of(rb).max_of(separation.abs());
    reach * N::EPSILON * N::lit(8.0) > settings.tolerances.relative_length * size
}

/// A contact found in A's frame, moved to the world.
#[inline]
fn finish_contact<N: Scalar, const D: usize, P: Pose<N, D>>(
    pos_a: &P,
    c: LocalContact<N, D>,
) -> ShapeContact<N, D> {
    ShapeContact {
        point_a: pos_a.transform_point(&c.point_a),
        point_b: pos_a.transform_point(&c.point_b),
        normal: pos_a.transform_vector(&c.normal),
        separation: c.separation,
        status: c.status,
    }
}

/// A [`ShapeContact`] still in A's local frame, as [`contact_on`] finds it.
struct LocalContact<N: Scalar, const D: usize> {
    point_a: Point<N, D>,
    point_b: Point<N, D>,
    normal: Vector<N, D>,
    separation: N,
    status: Status,
    /// EPA's witnesses were clamped to its face ([`crate::EpaResult::clamped`]).
    clamped: bool,
    /// How far the witnesses missed `separation · normal` before [`about_midpoint`] rebuilt
    /// them about their midpoint: the distance each can be off its shape.
    spread: N,
}

/// The body of [`contact_gjk`] on the pair's CSO (in A's frame, B at `pos_ab`): GJK, and EPA when
/// the cores overlap. Returns the contact in A's frame, radii applied; `None` when the pair is
/// proven farther apart than `margin`.
#[inline(always)]
fn contact_on<N, const D: usize, C>(
    cso: &C,
    dir: Vector<N, D>,
    pair: &Pair<N>,
    margin: N,
    settings: &QuerySettings<N>,
) -> Option<LocalContact<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    contact_on_erased(crate::cso::debug_erased(&cso), dir, pair, margin, settings)
}

/// [`contact_on`] on the CSO that `debug_erased` gives.
fn contact_on_erased<N, const D: usize, C>(
    cso: &C,
    dir: Vector<N, D>,
    pair: &Pair<N>,
    margin: N,
    settings: &QuerySettings<N>,
) -> Option<LocalContact<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let ((ra, rb), scale) = (pair.radii, pair.scale);
    let radii = ra + rb;
    let touch = touch_tolerance(settings, scale);
    let max = if margin >= N::MAX.sqrt() { N::MAX } else { radii + margin.max_of(N::zero()) };
    let g = gjk(cso, &dir, max, touch, settings);
    let penetration = |e: crate::EpaResult<N, D>, status: Status| {
        let e = if pair.curved {
            let relative = pair.polish_tolerance(settings);
            let e = polish_penetration(cso, e, scale, relative, settings);
            // Only where EPA or the polish did not settle: a settled answer is already at the
            // accuracy asked, and a kink's witnesses are placed less surely than the polish's.
            if e.status == Status::Converged {
                e
            } else {
                least_on_flat_normals(cso, e, relative * scale)
            }
        } else {
            e
        };
        let n = e.normal;
        // EPA's witnesses come from the face it stopped at, which on a flat part of the CSO
        // (many faces in one plane) or after a stall need not hold the origin's projection:
        // they can disagree with the depth.
        let (pa, pb) = about_midpoint(&e);
        LocalContact {
            point_a: Point::from(pa + n * ra),
            point_b: Point::from(pb - n * rb),
            normal: n,
            separation: -(e.depth + radii),
            status: status.worst(e.status),
            clamped: e.clamped,
            spread: spread_of(&e),
        }
    };
    let (normal, pa, pb, separation, status, spread) = match g.outcome {
        GjkOutcome::Separated { v, lower_bound } => {
            if lower_bound > max {
                return None;
            }
            // EPA's answer where GJK stalled and EPA found the origin on the boundary.
            let mut stalled_epa = None;
            if unproven(g.status, lower_bound, touch) {
                // GJK stalled without a separating plane (rounding on a thin or far-reaching
                // CSO): EPA decides. Its polytope lies inside the CSO, so a positive depth
                // proves that the origin is inside.
                let e = epa(cso, &g.simplex, scale, &dir, settings);
                if e.depth > touch {
                    return Some(penetration(e, g.status));
                }
                stalled_epa = Some(e);
            }
            let dist = v.norm();
            // Converged beyond the margin: apart, unless the margin lies inside GJK's bracket
            // `[lower_bound, |v|]` by more than the touching tolerance. Its width is relative to
            // the cores' distance, radii included, and a rounded box 4.6e-6 into a cone (radius
            // 0.019, `f32`) was reported apart; such a pair goes on, and the caller settles it.
            if dist > max
                && g.status == Status::Converged
                && !inside_bracket(max, dist, lower_bound, touch)
            {
                return None;
            }
            let n = -v / dist;
            let (wa, wb) = g.witnesses();
            let (n, wa, wb, dist) = match stalled_epa {
                Some(e) => better_attained(cso, (n, wa, wb, dist), &e),
                None => (n, wa, wb, dist),
            };
            // In `f64` arithmetic only: an `f32` curved pair is settled again in `f64` below.
            let (n, wa, wb, dist) = if pair.curved && N::EPSILON.to_f64() < 1e-10 {
                attained(cso, n, wa, wb, dist, scale, pair.polish_tolerance(settings), settings)
            } else {
                (n, wa, wb, dist)
            };
            let spread = (wb - wa - n * dist).norm();
            (n, wa + n * ra, wb - n * rb, dist - radii, g.status, spread)
        }
        GjkOutcome::Intersecting => {
            return Some(penetration(epa(cso, &g.simplex, scale, &dir, settings), g.status));
        }
    };
    Some(LocalContact {
        point_a: Point::from(pa),
        point_b: Point::from(pb),
        normal,
        separation,
        status,
        clamped: false,
        spread,
    })
}

/// The full contact query, for a boolean or distance query whose GJK run stalled without a
/// proof (rare: kept out of line so that the fast paths stay small).
#[cold]
#[inline(never)]
fn settle<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    settings: &QuerySettings<N>,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    contact_gjk(pos_a, a, pos_b, b, N::MAX, settings, true)
}

/// GJK's separation of a curved pair (normal `n`, witnesses, distance `dist`), with a normal
/// that attains it. GJK converges on the distance faster than on its direction: near a flat
/// part of a curved shape (a cylinder's cap, a cone's base) its closest point can settle a
/// little off along the flat part, and its normal tilts by as much. One support query tells:
/// when the support gap along `n` falls short of `dist`, the normal is polished as a
/// penetration of negative depth (the origin outside the CSO: see `polish.rs`), and the flat
/// parts' normals are tried as well ([`least_on_flat_normals`]): the polish follows the boundary
/// to the stationary point nearest GJK's normal, and a vertex just above a cylinder's cap, near
/// its rim, led it to the rim, where the pair seemed to overlap.
#[cold]
fn attained<N, const D: usize, C>(
    cso: &C,
    n: Vector<N, D>,
    wa: Vector<N, D>,
    wb: Vector<N, D>,
    dist: N,
    scale: N,
    relative: N,
    settings: &QuerySettings<N>,
) -> (Vector<N, D>, Vector<N, D>, Vector<N, D>, N)
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let short = n.dot(&cso.support(&n).point) + dist;
    if short <= relative * scale * N::lit(0.1) {
        return (n, wa, wb, dist);
    }
    let e = crate::EpaResult {
        depth: -dist,
        normal: n,
        point_a: wa,
        point_b: wb,
        status: Status::Converged,
        iterations: 0,
        clamped: false,
        clamp_shift: N::zero(),
    };
    let p = polish_penetration(cso, e, scale, relative, settings);
    let mut p = least_on_flat_normals(cso, p, relative * scale);
    // The polish's witnesses agree with its distance to within its tolerance, except near a
    // touch at a kink (a rim across a cone's side near its apex): there every normal in the
    // kink's cone nearly attains the distance, the polish's normal is settled only to `√ε`,
    // and the rim's support point slides by its radius times that. GJK's witnesses, the
    // closest points of its simplex, do not depend on the normal; where they agree better with
    // the polished distance and normal, they are kept.
    //
    // A flat part's normal ([`least_on_flat_normals`], marked clamped) comes with witnesses
    // that agree with its distance by construction, but only one of them is a support point:
    // the other is its projection onto the other shape's support plane, which lies off that
    // shape where the projection falls beyond the flat part (a cylinder's rim just past the end of a
    // cone's side: 2.1e-9 off the cone). GJK's witnesses lie in both shapes, so within
    // the polish's accuracy of the distance they lie on them; they are kept then.
    let miss = |a: Vector<N, D>, b: Vector<N, D>| ((a - b) - p.normal * p.depth).norm();
    let gjk_miss = miss(wa, wb);
    if gjk_miss < miss(p.point_a, p.point_b) || (p.clamped && gjk_miss <= relative * scale) {
        (p.point_a, p.point_b) = (wa, wb);
    }
    let (pa, pb) = about_midpoint(&p);
    (p.normal, pa, pb, -p.depth)
}

/// GJK's separation (normal `n`, witnesses, distance `dist`) after a stall next to the boundary
/// of the CSO, with EPA's normal there instead of GJK's when it attains the larger support gap.
/// Every normal's gap bounds the signed distance from below, so near a touch the larger gap is
/// the nearer normal. GJK's direction, from a simplex a few ulps across, can be far from any
/// contact normal (a 2 µm cylinder touching a 2 cm hull: 0.3 rad off, its gap 1.8e-7 short, and
/// a polish from it settled on a local minimum 1.3e-8 deep), where EPA's face passes through
/// the origin. GJK's witnesses and distance stay: `|v|` bounds the distance from above, and
/// [`attained`] polishes the pair from the new normal when the two bounds are apart.
#[cold]
fn better_attained<N, const D: usize, C>(
    cso: &C,
    gjk: (Vector<N, D>, Vector<N, D>, Vector<N, D>, N),
    e: &crate::EpaResult<N, D>,
) -> (Vector<N, D>, Vector<N, D>, Vector<N, D>, N)
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let (n, wa, wb, dist) = gjk;
    let gap = |n: &Vector<N, D>| -n.dot(&cso.support(n).point);
    if gap(&e.normal) > gap(&n) { (e.normal, wa, wb, dist) } else { gjk }
}

/// How far `e`'s witnesses miss `depth · normal`: the most by which [`about_midpoint`] moves
/// them.
#[inline]
fn spread_of<N: Scalar, const D: usize>(e: &crate::EpaResult<N, D>) -> N {
    (e.point_a - e.point_b - e.normal * e.depth).norm()
}

/// `e`'s witnesses rebuilt about their midpoint, `depth / 2` along the normal on either side,
/// so that `point_b − point_a = −depth · normal` holds by construction.
#[inline]
fn about_midpoint<N: Scalar, const D: usize>(
    e: &crate::EpaResult<N, D>,
) -> (Vector<N, D>, Vector<N, D>) {
    let mid = (e.point_a + e.point_b) * N::lit(0.5);
    let half = e.normal * (e.depth * N::lit(0.5));
    (mid + half, mid - half)
}

/// Whether a converged `f32` GJK run on a curved pair left the distance bracketed more loosely
/// than a tenth of the length tolerance: `width` is its estimate `|v|` less its proven lower
/// bound. On a curved surface GJK stops with `|v|` up to `√ε` of the cores' distance above the
/// distance (a capsule 1.1e-3 from a cone reported 3.9e-3; a capsule 3e-5 from a cylinder of
/// radius 6, 1.7e-4); the contact query settles such a pair again in `f64`. A tenth, because the
/// estimate is off by up to the whole width, and the hostile suite holds `f32` distances to
/// `1e-3` of a hundredth of the size, under a third of the length tolerance.
#[inline]
fn loose_bracket<N, const D: usize, A, B>(
    a: &A,
    b: &B,
    width: N,
    settings: &QuerySettings<N>,
) -> bool
where
    N: Scalar,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    N::EPSILON.to_f64() > 1e-10
        && (curved(a) || curved(b))
        && width > settings.tolerances.relative_length * N::lit(0.1) * scale_of(a, b)
}

/// The distance of two polytope cores apart, by GJK in `f64` on the `f32` shapes' support
/// points ([`Widened`]), started along `towards` (the `f32` run's `−v`), when that run
/// converges; `None` otherwise.
///
/// An `f32` run on cores a millimetre apart stalls with its bracket open wider than its
/// tolerance: the direction of `v`, a difference of points a metre from the origin, is only good
/// to `ε·|p|/|v|`, and the lower bound `v·w/|v|` is off by that much times `|w|` (about 1e-5
/// there). A separating plane is already proven (the lower bound is positive), so only the
/// number is open, and the same run in `f64` closes the bracket for the cost of one GJK run,
/// where the contact query's exact test builds both vertex clouds. Its answer is off by the
/// support points' `f32` rounding, a few ulps of the scale, as the widened contact is.
#[cold]
fn widened_distance<N, const D: usize, P, A, B>(
    a: &A,
    b: &B,
    pos_ab: &P,
    touch: N,
    towards: &Vector<N, D>,
) -> Option<f64>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let md = MinkowskiDifference::new(a, b, *pos_ab);
    let wide = Widened::new(&md);
    // (Started along the `f32` run's last direction, whose support points are the closest
    // features' to rounding: a step or two, where a start from the centres takes the whole walk.)
    let dir = towards.map(|x| x.to_f64());
    let g = gjk(&wide, &dir, f64::MAX, touch.to_f64(), &QuerySettings::<f64>::default());
    match g.outcome {
        GjkOutcome::Separated { v, .. } if g.status == Status::Converged => {
            #[cfg(test)]
            tests::WIDENED.with(|c| c.set(c.get() + 1));
            Some(v.norm())
        }
        _ => None,
    }
}

/// Whether `bound` (the radii, or the radii plus a margin) lies inside a GJK bracket
/// `[lower_bound, upper]` on the cores' distance by more than the touching tolerance: the run
/// proved neither side of it, so its estimate `upper` must not be read as "apart".
#[inline]
fn inside_bracket<N: Scalar>(bound: N, upper: N, lower_bound: N, touch: N) -> bool {
    upper > bound && lower_bound < bound - touch
}

/// A stalled GJK run's direction from A to B (`−v`, in world axes) for [`exact`], which tries
/// the features around it before it walks two large hulls in full; `None` when the run ended
/// inside the difference.
fn stalled_normal<N: Scalar, const D: usize, P: Pose<N, D>>(
    pos_a: &P,
    outcome: &GjkOutcome<N, D>,
) -> Option<Vector<N, D>> {
    match outcome {
        GjkOutcome::Separated { v, .. } => Some(pos_a.transform_vector(&-v)),
        GjkOutcome::Intersecting => None,
    }
}

/// `true` when GJK reported the shapes apart without proving it: it stalled (rounding left it
/// no progress, or it hit its cap) before finding a separating plane farther than the touching
/// tolerance.
#[inline]
fn unproven<N: Scalar>(status: Status, lower_bound: N, touch: N) -> bool {
    status != Status::Converged && lower_bound <= touch
}

/// The normal of two concentric balls, where every direction is a minimal one: A's local +x,
/// as GJK and EPA take it.
pub(crate) fn concentric_normal<N: Scalar, const D: usize, P: Pose<N, D>>(
    pos_a: &P,
) -> Vector<N, D> {
    let mut x = Vector::zeros();
    x[0] = N::one();
    pos_a.transform_vector(&x)
}

/// [`contact`] between two shapes whose cores are points (balls), in closed form, in world space:
/// `ca` is A's centre and `d` the vector from it to B's centre.
#[inline]
fn ball_ball_contact<N, const D: usize, P>(
    pos_a: &P,
    ca: Point<N, D>,
    d: Vector<N, D>,
    ra: N,
    rb: N,
    margin: N,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
{
    let dist = d.norm();
    let separation = dist - (ra + rb);
    if margin < N::MAX.sqrt() && separation > margin.max_of(N::zero()) {
        return None;
    }
    let normal = if dist > N::zero() { d / dist } else { concentric_normal(pos_a) };
    Some(ShapeContact {
        point_a: ca + normal * ra,
        point_b: ca + d - normal * rb,
        normal,
        separation,
        status: Status::Converged,
    })
}

/// The closest points of two shapes and their signed distance (negative when they overlap, with
/// the penetration's contact points). Always returns an answer.
pub fn closest_points<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    settings: &QuerySettings<N>,
) -> ShapeContact<N, D>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    match contact(pos_a, a, pos_b, b, N::MAX, settings) {
        Some(c) => c,
        // With an unbounded margin GJK never proves "farther than the margin"; this arm exists
        // only to keep the function total.
        None => ShapeContact {
            point_a: Point::from(pos_a.translation()),
            point_b: Point::from(pos_b.translation()),
            normal: Vector::zeros(),
            separation: N::MAX,
            status: Status::Degenerate,
        },
    }
}

/// The distance between two shapes (zero when they overlap), with the status of the query.
pub fn distance<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    settings: &QuerySettings<N>,
) -> (N, Status)
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let radii = a.radius() + b.radius();
    if let Some((_, d)) = point_cores(pos_a, a, pos_b, b) {
        return ((d.norm() - radii).max_of(N::zero()), Status::Converged);
    }
    if let Some(c) = segment_cores_contact(pos_a, a, pos_b, b) {
        return (c.separation.max_of(N::zero()), Status::Converged);
    }
    if let Some(c) = projection_contact(pos_a, a, pos_b, b) {
        return (c.separation.max_of(N::zero()), Status::Converged);
    }
    let pos_ab = pos_a.inv_compose(pos_b);
    let touch = touch_tolerance(settings, scale_of(a, b));
    let dir = pos_ab.translation();
    let g = if let Some(hull) = b.small_hull() {
        let cso = SmallHullDifference::new(a, hull, &pos_ab, (u32::MAX, u32::MAX));
        gjk(&cso, &dir, N::MAX, touch, settings)
    } else {
        gjk(&MinkowskiDifference::new(a, b, pos_ab), &dir, N::MAX, touch, settings)
    };
    if g.status != Status::Converged
        && N::EPSILON.to_f64() < 1e-10
        && matches!(g.outcome, GjkOutcome::Separated { .. })
        && let Some(s) = exact(pos_a, a, pos_b, b, stalled_normal(pos_a, &g.outcome))
    {
        // GJK stalled on rounding short of a proven distance: the exact answer replaces its
        // estimate. (A stall at a touch is a distance of zero to rounding, left as it is.) In
        // `f32` the contact query below settles it, in `f64` arithmetic first.
        return ((s.separation - radii).max_of(N::zero()), Status::Converged);
    }
    if N::EPSILON.to_f64() > 1e-10
        && g.status != Status::Converged
        && let GjkOutcome::Separated { v, lower_bound } = g.outcome
        && lower_bound > touch
        && !curved(a)
        && !curved(b)
        && let Some(d) = widened_distance(a, b, &pos_ab, touch, &-v)
    {
        return ((N::lit(d) - radii).max_of(N::zero()), Status::Converged);
    }
    match g.outcome {
        // The cores overlap (or touch), so the whole shapes do: no need for EPA's depth.
        GjkOutcome::Intersecting => (N::zero(), g.status),
        GjkOutcome::Separated { v, lower_bound }
            if g.status != Status::Converged
                || unproven(g.status, lower_bound, touch)
                || inside_bracket(radii, v.norm(), lower_bound, touch)
                || loose_bracket(a, b, v.norm() - lower_bound, settings) =>
        {
            // Unproven, or proven apart by a stalled run whose estimate `|v|` can be far above
            // the distance (it is only an upper bound), or whose bracket holds the radii: its
            // width is relative to the cores' distance, and a 6 mm box sunk 2.8 mm into a capsule
            // of radius 18 (`f32`) stalled with a bracket 15 mm wide and read as 3.6 mm apart.
            // The contact query settles it.
            match settle(pos_a, a, pos_b, b, settings) {
                Some(c) => (c.separation.max_of(N::zero()), c.status),
                None => (N::zero(), g.status),
            }
        }
        GjkOutcome::Separated { v, .. } => ((v.norm() - radii).max_of(N::zero()), g.status),
    }
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
    use kollide_shapes::{ConvexPolygon, ConvexPolyhedron};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::closest_points;

    thread_local! {
        /// How many `f32` distances [`widened_distance`] settled on this thread.
        pub(super) static WIDENED: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    /// The `t` in `[0, 4]` where `f(t)` rises through `target` (bisection; `f` increasing).
    fn crossing(f: impl Fn(f64) -> f64, target: f64) -> f64 {
        let (mut lo, mut hi) = (0.0, 4.0);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if f(mid) < target { lo = mid } else { hi = mid }
        }
        0.5 * (lo + hi)
    }

    /// The `f32` distances of one test against `f64`'s, and how many the widened run settled.
    struct Tally {
        before: usize,
        cases: usize,
        worst: f64,
    }

    impl Tally {
        fn new() -> Self {
            Self { before: WIDENED.with(|c| c.get()), cases: 0, worst: 0.0 }
        }

        /// Case `k`: `f32`'s answer `(d, status)` against the `f64` distance `exact`.
        fn add(&mut self, k: usize, d: f32, status: Status, exact: f64) {
            let miss = (f64::from(d) - exact).abs();
            assert!(status == Status::Converged && miss < 1e-6, "case {k}: {d:e} {exact:e}");
            (self.worst, self.cases) = (self.worst.max(miss), self.cases + 1);
        }

        /// At least a tenth of the cases took the widened run.
        fn check(&self) {
            let (cases, worst) = (self.cases, self.worst);
            let widened = WIDENED.with(|c| c.get()) - self.before;
            eprintln!("{cases} pairs, {widened} settled in f64, worst miss {worst:e}");
            assert!(widened >= cases / 10, "{widened} of {cases} settled by the widened run");
        }
    }

    /// `f32` polytopes a millimetre apart, ten metres from the origin, where `f32` GJK stalls with
    /// its bracket a few micrometres open (see [`widened_distance`]): `distance` settles most of
    /// them by the `f64` run and answers as `f64` does on the same shapes and poses, to within
    /// the `f32` support points' rounding. The counter fails the test if that path stops running.
    #[test]
    fn f32_distances_a_millimetre_apart_are_settled_by_a_widened_run() {
        let mut r = ChaCha8Rng::seed_from_u64(0x0d15_7a9c);
        let (s, s64) = (QuerySettings::<f32>::default(), QuerySettings::<f64>::default());
        let mut tally = Tally::new();
        let unit = |r: &mut ChaCha8Rng| r.random_range(-1.0..1.0);
        for k in 0..400 {
            let polygon = |r: &mut ChaCha8Rng| {
                let n = r.random_range(3..=16);
                let pts: Vec<Point2<f32>> = (0..n).map(|_| Point2::new(unit(r), unit(r))).collect();
                ConvexPolygon::from_hull(&pts).ok()
            };
            let (Some(a), Some(b)) = (polygon(&mut r), polygon(&mut r)) else { continue };
            let wide = |p: &ConvexPolygon<f32>| {
                let v: Vec<_> = p.vertices().iter().map(|v| v.cast::<f64>()).collect();
                ConvexPolygon::from_convex_ccw(&v).unwrap()
            };
            let (a64, b64) = (wide(&a), wide(&b));
            let c = Vec2::new(r.random_range(-10.0..10.0), r.random_range(-10.0..10.0));
            let pa = Iso2::new(c, r.random_range(-3.2..3.2));
            let (u, angle) = (r.random_range(-3.2f64..3.2), r.random_range(-3.2..3.2));
            let pb = |t: f64| Iso2::new(c + Vec2::new(u.cos(), u.sin()) * t, angle);
            let sd = |t: f64| closest_points(&pa, &a64, &pb(t), &b64, &s64).separation;
            let (pa, pb) = (pa.cast::<f32>(), pb(crossing(sd, 1e-3)).cast::<f32>());
            let (d, status) = distance(&pa, &a, &pb, &b, &s);
            let exact = closest_points(&pa.cast(), &a64, &pb.cast(), &b64, &s64).separation;
            tally.add(k, d, status, exact);
        }
        tally.check();
    }

    /// The same in 3D, on hulls of 8–24 random points a millimetre apart.
    #[test]
    fn f32_hull_distances_a_millimetre_apart_are_settled_by_a_widened_run() {
        let mut r = ChaCha8Rng::seed_from_u64(0x3d15_7a9c);
        let (s, s64) = (QuerySettings::<f32>::default(), QuerySettings::<f64>::default());
        let mut tally = Tally::new();
        for k in 0..200 {
            let unit = |r: &mut ChaCha8Rng| r.random_range(-1.0f32..1.0);
            let hull = |r: &mut ChaCha8Rng| {
                let n = r.random_range(8..=24);
                let pts: Vec<Point3<f32>> =
                    (0..n).map(|_| Point3::new(unit(r), unit(r), unit(r))).collect();
                ConvexPolyhedron::from_points(&pts).ok()
            };
            let (Some(a), Some(b)) = (hull(&mut r), hull(&mut r)) else { continue };
            let wide = |p: &ConvexPolyhedron<f32>| {
                let v: Vec<_> = p.vertices().iter().map(|v| v.cast::<f64>()).collect();
                ConvexPolyhedron::from_points(&v).unwrap()
            };
            let (a64, b64) = (wide(&a), wide(&b));
            let mut axis = || Vec3::new(unit(&mut r), unit(&mut r), unit(&mut r)).cast::<f64>();
            let c = axis() * 10.0;
            let pa = Iso3::new(c, axis() * 3.0);
            let (u, angle) = (axis().normalize(), axis() * 3.0);
            let pb = |t: f64| Iso3::new(c + u * t, angle);
            let sd = |t: f64| closest_points(&pa, &a64, &pb(t), &b64, &s64).separation;
            let (pa, pb) = (pa.cast::<f32>(), pb(crossing(sd, 1e-3)).cast::<f32>());
            let (d, status) = distance(&pa, &a, &pb, &b, &s);
            let exact = closest_points(&pa.cast(), &a64, &pb.cast(), &b64, &s64).separation;
            tally.add(k, d, status, exact);
        }
        tally.check();
    }
}
