//! Assembling a 3D manifold: candidate contacts, the reduction to four, the move from a shape's
//! frame to the world, and the exact single-contact fallback.
//!
//! The 3D routines build their contacts in the frame of one shape (the reference), where the
//! arithmetic stays near the origin, as a list of *candidates*: face–face clipping of two boxes
//! leaves up to eight points, two general faces more. [`Candidates::into_manifold`] keeps at most
//! four with [`kollide_manifold::reduce_to_four`] (deepest point first, then the largest area),
//! and [`to_world`] moves the manifold out of the reference frame.
//!
//! [`exact_contact`] is the answer when a routine has nothing better: the one contact of the
//! exact GJK/EPA query [`crate::contact`]. Routines fall back to it instead of ever returning an
//! empty manifold for shapes that touch (clipping can leave nothing when rounding puts every
//! incident point just outside a tiny reference face).

use kollide_manifold::{Contact, ContactId, Manifold, reduce_to_four};
use kollide_math::{Iso3, Scalar, Tolerances, Vec3};
use kollide_shapes::{FeatureId, SupportMap};
use smallvec::SmallVec;

/// Candidate contacts of one manifold, in inline storage (16 slots: two clipped quads leave at
/// most 8 points).
#[derive(Clone, Debug)]
pub struct Candidates<N: Scalar, U: Copy + Default> {
    /// The candidates, in the order they were found.
    pub list: SmallVec<[Contact<N, 3, U>; 16]>,
}

impl<N: Scalar, U: Copy + Default> Default for Candidates<N, U> {
    fn default() -> Self {
        Self { list: SmallVec::new() }
    }
}

impl<N: Scalar, U: Copy + Default> Candidates<N, U> {
    /// No candidates yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a candidate.
    pub fn push(&mut self, c: Contact<N, 3, U>) {
        self.list.push(c);
    }

    /// The smallest separation among the candidates.
    pub fn min_separation(&self) -> Option<N> {
        self.list.iter().map(|c| c.separation).reduce(|a, b| a.min_of(b))
    }

    /// A manifold with this normal holding the candidates, reduced to the best four when there
    /// are more (see [`reduce_to_four`]).
    pub fn into_manifold(self, normal: Vec3<N>) -> Manifold<N, 3, U> {
        let mut m = Manifold::with_normal(normal);
        let mut idx = [0usize; 4];
        let k = reduce_to_four(&self.list, &normal, &mut idx);
        for &i in &idx[..k] {
            m.push(self.list[i]);
        }
        m
    }
}

/// Moves a manifold built in the frame `frame` (points and normal in that frame) to the world.
pub fn to_world<N: Scalar, U: Copy + Default>(
    mut m: Manifold<N, 3, U>,
    frame: &Iso3<N>,
) -> Manifold<N, 3, U> {
    m.normal = frame.rotation * m.normal;
    for c in m.contacts_mut() {
        c.point_a = frame * c.point_a;
        c.point_b = frame * c.point_b;
    }
    m
}

/// The exact contact of GJK/EPA ([`crate::contact`]) as a one-point manifold, or an empty one
/// when the shapes are farther apart than `margin`. The contact's id is `id` (the routine that
/// falls back knows the features best; `Unknown` otherwise).
pub fn exact_contact<N, U, A, B>(
    pos_a: &Iso3<N>,
    a: &A,
    pos_b: &Iso3<N>,
    b: &B,
    margin: N,
    id: ContactId,
) -> Manifold<N, 3, U>
where
    N: Scalar,
    U: Copy + Default,
    A: SupportMap<N, 3> + ?Sized,
    B: SupportMap<N, 3> + ?Sized,
{
    let settings = crate::QuerySettings::default();
    match crate::contact(pos_a, a, pos_b, b, margin, &settings) {
        Some(c) if c.separation <= margin => {
            let mut m = Manifold::with_normal(c.normal);
            m.push(Contact::new(c.point_a, c.point_b, c.separation, id));
            m
        }
        _ => Manifold::new(),
    }
}

/// The id of a contact nobody knows the features of.
pub(crate) const UNKNOWN_ID: ContactId = ContactId { a: FeatureId::Unknown, b: FeatureId::Unknown };

/// The length scale of a pair for the bias and clipping tolerances: the larger bounding radius,
/// clamped to `[1e-3, 1e3]` like the 2D code (so the tolerance never vanishes or explodes).
pub(crate) fn pair_scale<N: Scalar>(size_a: N, size_b: N) -> N {
    kollide_math::geom::clamp(size_a.max_of(size_b), N::lit(1e-3), N::lit(1e3))
}

/// The bias tolerance: a candidate reference axis must beat the current one by this much to win
/// (1e-4 of the shapes' size, as in 2D). The same length is the slack of side-plane clipping.
pub(crate) fn bias_tolerance<N: Scalar>(size_a: N, size_b: N) -> N {
    N::lit(1e-4) * pair_scale(size_a, size_b)
}

/// How much shallower than the separating axis test a clipped manifold's deepest point may be
/// before [`ensure_depth`] repairs it, from the pair's [`bias_tolerance`] `bias`: a hundredth of
/// it, and never more than the relative length tolerance at the pair's scale (`bias` is 1e-4 of
/// that scale), the finer of the two in `f64`.
pub(crate) fn depth_slack<N: Scalar>(bias: N) -> N {
    let length = Tolerances::<N>::default().relative_length * bias * N::lit(1e4);
    (bias * N::lit(1e-2)).min_of(length)
}

/// Makes sure a clipped manifold is as deep as the separating axis test says it should be.
///
/// `sat_separation` is the largest separation over all the candidate axes, the exact signed
/// distance. On a face axis it is realised by the other shape's deepest vertex along the normal,
/// but that vertex need not lie on the incident face, nor over the reference face, when the
/// shapes penetrate deeply: clipping then keeps only shallower points. In that case (deepest
/// point shallower by more than `slack`) the exact GJK/EPA contact repairs it. It joins the
/// candidates, and the best four are kept, deepest first, when its points lie along the
/// manifold's normal within `slack`; otherwise (its normal turned away from the manifold's, in a
/// deep overlap) the exact contact alone is the manifold.
/// When the clipped manifold is deep enough it is returned as it is.
pub(crate) fn ensure_depth<N, U, A, B>(
    m: Manifold<N, 3, U>,
    sat_separation: N,
    slack: N,
    pos_a: &Iso3<N>,
    a: &A,
    pos_b: &Iso3<N>,
    b: &B,
    margin: N,
) -> Manifold<N, 3, U>
where
    N: Scalar,
    U: Copy + Default,
    A: SupportMap<N, 3> + ?Sized,
    B: SupportMap<N, 3> + ?Sized,
{
    match m.min_separation() {
        Some(s) if s <= sat_separation + slack => return m,
        _ => {}
    }
    let exact: Manifold<N, 3, U> = exact_contact(pos_a, a, pos_b, b, margin, UNKNOWN_ID);
    if m.is_empty() {
        return exact;
    }
    let Some(c) = exact.contacts().first().copied() else { return m };
    // Its points `d` apart along its own normal, `θ` from the manifold's: it joins only while
    // `d` leaves the manifold's normal by at most the slack (`|d|·sin θ`), its point on A moved by
    // that onto B's point less `separation·normal`. Farther, it would be off A or off the
    // identity, and shallower along the manifold's normal than its own depth.
    let d = c.point_b - c.point_a;
    let separation = d.dot(&m.normal);
    if (d - m.normal * separation).norm() > slack {
        return exact;
    }
    let mut cands = Candidates::new();
    cands.list.extend(m.contacts().iter().copied());
    cands.push(Contact { separation, point_a: c.point_b - m.normal * separation, ..c });
    cands.into_manifold(m.normal)
}
