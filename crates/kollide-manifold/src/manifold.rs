//! [`Manifold`]: the contacts of one pair of shapes, sharing one normal.
//!
//! A manifold holds at most two contacts in 2D and four in 3D, in fixed inline storage (no heap).
//! Its normal is a unit vector from A to B. An **empty manifold means no contact within the
//! speculative margin** — never "unknown": a query that could not decide says so in its status.
//!
//! Manifolds are in the world frame by default; [`Manifold::to_local`] and [`Manifold::to_world`]
//! convert them (points of A to A's local frame, points of B to B's, the normal to A's), which is
//! the form that stays valid while bodies move a little between frames.

use kollide_math::{Pose, Scalar, Vector};

use crate::{Contact, ContactId};

/// The largest number of contacts any manifold holds (the 3D limit; 2D manifolds hold two).
pub const MAX_CONTACTS: usize = 4;

/// The frame a manifold's points and normal are expressed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Frame {
    /// Everything in world coordinates.
    #[default]
    World,
    /// Points of A in A's local frame, points of B in B's, the normal in A's.
    Local,
}

/// Up to two (2D) or four (3D) contacts between shapes A and B with one normal from A to B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<N: Scalar, const D: usize, U = ()> {
    /// Unit normal from A to B. Zero for an empty manifold.
    pub normal: Vector<N, D>,
    /// The frame of the points and the normal.
    pub frame: Frame,
    contacts: [Contact<N, D, U>; MAX_CONTACTS],
    len: u8,
}

impl<N: Scalar, const D: usize, U: Copy + Default> Default for Manifold<N, D, U> {
    fn default() -> Self {
        Self::new()
    }
}

impl<N: Scalar, const D: usize, U: Copy + Default> Manifold<N, D, U> {
    /// How many contacts a manifold of this dimension holds at most: 2 in 2D, 4 in 3D.
    pub const CAPACITY: usize = if D == 2 { 2 } else { MAX_CONTACTS };

    /// An empty manifold (no contact).
    #[inline]
    pub fn new() -> Self {
        Self {
            normal: Vector::zeros(),
            frame: Frame::World,
            contacts: [Contact::default(); MAX_CONTACTS],
            len: 0,
        }
    }

    /// An empty manifold with this normal, ready for [`Self::push`].
    #[inline]
    pub fn with_normal(normal: Vector<N, D>) -> Self {
        Self { normal, ..Self::new() }
    }

    /// A world-frame manifold with this normal and the first `len` of `contacts` (at most
    /// [`Self::CAPACITY`] are kept): [`Self::with_normal`] and [`Self::push`] in one step, for a
    /// routine that already holds its contacts in an array.
    ///
    /// The manifold is written once, each slot either a kept contact or the default, instead of
    /// being filled with defaults and then overwritten contact by contact: a 2D routine that
    /// ends with its (at most two) contacts in registers builds its answer directly.
    ///
    /// ```
    /// use kollide_manifold::{Contact, ContactId, Manifold};
    /// use kollide_math::{Point2, Vec2};
    /// let c = Contact::<f64, 2>::new(Point2::origin(), Point2::new(0.0, 0.1), 0.1, ContactId::default());
    /// let m = Manifold::from_contacts(Vec2::y(), [c, c], 1);
    /// assert_eq!(m.len(), 1);
    /// assert_eq!(m, { let mut e = Manifold::with_normal(Vec2::y()); e.push(c); e });
    /// ```
    #[inline]
    pub fn from_contacts<const K: usize>(
        normal: Vector<N, D>,
        contacts: [Contact<N, D, U>; K],
        len: usize,
    ) -> Self {
        let len = len.min(K).min(Self::CAPACITY);
        Self {
            normal,
            frame: Frame::World,
            contacts: std::array::from_fn(|i| {
                contacts.get(i).filter(|_| i < len).copied().unwrap_or_default()
            }),
            len: len as u8,
        }
    }

    /// The contacts.
    #[inline]
    pub fn contacts(&self) -> &[Contact<N, D, U>] {
        &self.contacts[..self.len as usize]
    }

    /// The contacts, mutably (for example to update user data).
    pub fn contacts_mut(&mut self) -> &mut [Contact<N, D, U>] {
        &mut self.contacts[..self.len as usize]
    }

    /// The number of contacts.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// `true` when there is no contact.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every contact, keeping the normal.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds a contact. Returns `false` (and changes nothing) when the manifold is full.
    #[inline]
    pub fn push(&mut self, c: Contact<N, D, U>) -> bool {
        if self.len() >= Self::CAPACITY {
            return false;
        }
        self.contacts[self.len as usize] = c;
        self.len += 1;
        true
    }

    /// Keeps only the contacts for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Contact<N, D, U>) -> bool) {
        let mut j = 0;
        for i in 0..self.len as usize {
            if keep(&self.contacts[i]) {
                self.contacts[j] = self.contacts[i];
                j += 1;
            }
        }
        self.len = j as u8;
    }

    /// The smallest separation of the contacts (the deepest penetration when negative), or
    /// `None` for an empty manifold.
    pub fn min_separation(&self) -> Option<N> {
        self.contacts().iter().map(|c| c.separation).reduce(|a, b| a.min_of(b))
    }

    /// The same manifold seen from B: the normal negated, points and feature ids swapped.
    pub fn flipped(&self) -> Self {
        let mut out = *self;
        out.normal = -self.normal;
        for c in out.contacts_mut() {
            *c = c.flipped();
        }
        out
    }

    /// Carries the user data of `previous`'s contacts over to this manifold's contacts with the
    /// same feature ids (warm starting). Contacts without a match keep their current data.
    /// Returns how many were matched.
    pub fn match_previous(&mut self, previous: &Self) -> usize {
        let mut matched = 0;
        for c in self.contacts_mut() {
            if let Some(old) = previous.contacts().iter().find(|o| o.id == c.id) {
                c.user = old.user;
                matched += 1;
            }
        }
        matched
    }

    /// [`Self::match_previous`], then a second chance by position: a contact whose id found no
    /// match takes the data of the nearest still-unmatched previous contact whose midpoint lies
    /// within `max_distance` of its own, provided the two normals agree (cosine above 0.9).
    /// Both manifolds must be in the same frame. Returns how many were matched either way.
    ///
    /// Feature ids name *which* features touch, so they change when nothing physical did: when
    /// two nearly tied faces swap roles (a box resting on a box whose reference face passes from
    /// A's top to B's bottom as the two rotate by a hair), every id changes while the contacts
    /// stay where they were. Without this fallback such a swap throws the accumulated impulses
    /// away, the contact starts cold for a step, and a loaded stack creeps.
    pub fn match_previous_or_nearest(&mut self, previous: &Self, max_distance: N) -> usize {
        let mut used = [false; MAX_CONTACTS];
        let mut unmatched = [false; MAX_CONTACTS];
        let mut matched = 0;
        for (k, c) in self.contacts_mut().iter_mut().enumerate() {
            match previous.contacts().iter().position(|o| o.id == c.id) {
                Some(i) => {
                    c.user = previous.contacts[i].user;
                    used[i] = true;
                    matched += 1;
                }
                None => unmatched[k] = true,
            }
        }
        if matched == self.len() || self.normal.dot(&previous.normal) < N::lit(0.9) {
            return matched;
        }
        let limit = max_distance * max_distance;
        for (k, _) in unmatched.iter().enumerate().take(self.len()).filter(|&(_, &u)| u) {
            let here = self.contacts[k].midpoint();
            let mut best: Option<(usize, N)> = None;
            for (i, o) in previous.contacts().iter().enumerate() {
                let d2 = (o.midpoint() - here).norm_squared();
                if !used[i] && d2 <= limit && best.is_none_or(|(_, b)| d2 < b) {
                    best = Some((i, d2));
                }
            }
            if let Some((i, _)) = best {
                used[i] = true;
                self.contacts[k].user = previous.contacts[i].user;
                matched += 1;
            }
        }
        matched
    }

    /// The contact with this id, if any.
    pub fn find(&self, id: ContactId) -> Option<&Contact<N, D, U>> {
        self.contacts().iter().find(|c| c.id == id)
    }

    /// Converts a world-frame manifold to local frames (points of A in A's frame, of B in B's,
    /// the normal in A's). A local manifold is returned unchanged.
    pub fn to_local<P: Pose<N, D>>(&self, pose_a: &P, pose_b: &P) -> Self {
        if self.frame == Frame::Local {
            return *self;
        }
        let mut out = *self;
        out.frame = Frame::Local;
        out.normal = pose_a.inverse_transform_vector(&self.normal);
        for c in out.contacts_mut() {
            c.point_a = pose_a.inverse_transform_point(&c.point_a);
            c.point_b = pose_b.inverse_transform_point(&c.point_b);
        }
        out
    }

    /// Converts a local-frame manifold back to the world frame with the given (possibly new)
    /// poses. Separations are recomputed along the world normal, so a manifold stored last frame
    /// and converted with this frame's poses gives this frame's gaps. A world manifold is returned
    /// unchanged.
    pub fn to_world<P: Pose<N, D>>(&self, pose_a: &P, pose_b: &P) -> Self {
        if self.frame == Frame::World {
            return *self;
        }
        let mut out = *self;
        out.frame = Frame::World;
        out.normal = pose_a.transform_vector(&self.normal);
        let n = out.normal;
        for c in out.contacts_mut() {
            c.point_a = pose_a.transform_point(&c.point_a);
            c.point_b = pose_b.transform_point(&c.point_b);
            c.separation = (c.point_b - c.point_a).dot(&n);
        }
        out
    }
}
