//! Stage 1 of the step: the broadphase update, and the world's tree of bodies.
//!
//! Each moving body's AABB is grown by the speculative margin and swept by the body's motion
//! over the step, so a fast body meets what lies in its path this step (speculative contacts
//! instead of tunnelling). The broadphase works on *fat* AABBs, that box grown by a further
//! [`FAT_MARGIN`]: while a body's swept AABB stays inside its fat one, none of its pairs can
//! change, so a resting pile costs no search at all. A static body's box is its AABB, neither
//! grown nor swept: it does not move, and the box of any moving body it could touch carries
//! the speculative margin, so the pair is found all the same.
//!
//! The fat AABBs live in a dynamic tree ([`kollide_shapes::tree`]), as in Box2D v3's
//! broadphase: a body that left its fat AABB gets a new one, which its leaf takes in place
//! (its ancestors grow to contain it, [`Tree::enlarge_proxy`]), and once every moving body was
//! looked at the part of the tree above the moved leaves is rebuilt top down
//! ([`Tree::rebuild_enlarged`]; inserting each moved leaf again instead costs more when many
//! move, and its tree grows costlier to query until a full rebuild). At the next update the
//! moved bodies alone ask the tree which fat AABBs their new ones overlap, and the pairs of
//! two bodies that stayed inside are kept as they were. Bodies whose collision groups do not
//! interact make no pair (as Box2D's broadphase filters its pairs). Each leaf carries its
//! body's memberships as the tree's bits, and a body asks the tree with its filter as the
//! mask, so the walk skips every subtree of bodies it cannot touch: a jointed grid of bodies
//! that may not touch one another costs no pair and almost no search (Box2D's tree could prune
//! the same way, but its broadphase queries with every bit set and filters each pair it
//! finds). A body given new groups is searched again. After bodies were added or removed the
//! tree is rebuilt top down and every dynamic body asks it. The pairs are those of a full
//! sweep: every two fat AABBs that overlap or touch, with at least one dynamic body and groups
//! that interact, sorted. The
//! tree replaced the sweep and prune of [`crate::SweepAndPrune`], which gives the same pairs but
//! walks every body each step to repair its order (the `tree_update` bench measures the
//! tree's step). A sleeping body is not even looked at (`island.rs`).
//!
//! **One tree for the step and the queries.** The same tree answers the world's scene queries
//! (`crate::query`) and the continuous stage, which need each body's current AABB inside its
//! leaf. A body is given its leaf when it is added and follows a teleport at once, and after
//! the step ([`BroadphaseStage::after_step`]) every moving body's box is swept again from where
//! the step left it, with its new velocity: a body the solver turned aside, or one that turned
//! far, gets its new leaf then (its pairs are searched at the next update). The next update
//! sweeps the same boxes again and so moves no leaf, unless the user changed a pose or a
//! velocity in between.

use kollide_math::Scalar;
use kollide_shapes::Aabb;
use kollide_shapes::tree::{ProxyId, Tree, TreeError};

use crate::world::Slot;
use crate::{Body, BodyKind, CollisionGroups, Dim, SolverDim};

/// How much the broadphase grows each moving body's AABB (m); Box2D's AABB margin is the same
/// 10 cm.
pub(crate) const FAT_MARGIN: f64 = 0.1;

/// The broadphase's state between steps: each slot's fat AABB and its leaf in the tree, and the
/// pairs they overlap in.
#[derive(Clone, Debug)]
pub(crate) struct BroadphaseStage<N: Scalar, const D: usize> {
    /// The fat AABBs, one leaf per body, whose data is the slot.
    tree: Tree<N, D>,
    /// Per slot: the body's leaf.
    leaves: Vec<Option<Leaf<N, D>>>,
    /// The overlapping pairs `(lower slot, higher slot)`, sorted.
    pairs: Vec<(u32, u32)>,
    /// Bodies were added or removed since the last update: rebuild and search everything.
    bodies_changed: bool,
    /// The leaves are fitted for a step of this length with this margin `(dt, margin)`, and
    /// no body changed since: the refit at the start of the next step would change nothing.
    fitted: Option<(N, N)>,
    /// The slots whose leaf moved since the last pair search, and per slot whether it is
    /// among them.
    moved: Vec<u32>,
    is_moved: Vec<bool>,
    /// Reused buffers: which slots are dynamic, each slot's collision groups, and the pairs
    /// being merged.
    movable: Vec<bool>,
    groups: Vec<CollisionGroups>,
    merged: Vec<(u32, u32)>,
}

/// A body's leaf in the tree.
#[derive(Clone, Copy, Debug)]
struct Leaf<N: Scalar, const D: usize> {
    /// The leaf's box (a copy, kept beside the others for the containment tests).
    fat: Aabb<N, D>,
    /// The body's AABB when the leaf was last looked at (after its last step, or when it was
    /// added or teleported), for the box queries.
    tight: Aabb<N, D>,
    id: ProxyId,
}

/// The AABB of a body's shape at its pose.
pub(crate) fn body_aabb<N: Scalar, const D: usize>(body: &Body<N, D>) -> Aabb<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    Dim::<D>::shape_aabb(&body.desc.shape, &body.desc.pose)
}

/// A moving body's box for a step of `dt`: its AABB `tight` grown by the speculative `margin`,
/// swept by its velocity over the step.
fn swept_box<N: Scalar, const D: usize>(
    body: &Body<N, D>,
    tight: &Aabb<N, D>,
    margin: N,
    dt: N,
) -> Aabb<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let aabb = tight.loosened(margin);
    let d = body.desc.linear_velocity * dt;
    Aabb::new(aabb.mins + d, aabb.maxs + d).merged(&aabb)
}

/// A body's AABB, and the box its leaf is given when it is added or teleported with that AABB
/// and how much more the tree grows it: a static body's AABB as it is, a moving body's grown by
/// the speculative `margin` and then by [`FAT_MARGIN`].
fn placed_box<N: Scalar, const D: usize>(
    body: &Body<N, D>,
    margin: N,
) -> (Aabb<N, D>, Aabb<N, D>, N)
where
    Dim<D>: SolverDim<N, D>,
{
    let tight = body_aabb(body);
    match body.desc.kind {
        BodyKind::Static => (tight, tight, N::zero()),
        _ => (tight, tight.loosened(margin), N::lit(FAT_MARGIN)),
    }
}

impl<N: Scalar, const D: usize> BroadphaseStage<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// No bodies yet.
    pub(crate) fn new() -> Self {
        Self {
            tree: Tree::new(),
            leaves: Vec::new(),
            pairs: Vec::new(),
            bodies_changed: true,
            fitted: None,
            moved: Vec::new(),
            is_moved: Vec::new(),
            movable: Vec::new(),
            groups: Vec::new(),
            merged: Vec::new(),
        }
    }

    /// The tree of the bodies' boxes (each leaf's data is its body's slot).
    pub(crate) fn tree(&self) -> &Tree<N, D> {
        &self.tree
    }

    /// The AABB of the body in `slot` when its leaf was last looked at: after the last step
    /// (or when it was added or teleported; a sleeping body's does not change).
    pub(crate) fn aabb(&self, slot: u32) -> Option<&Aabb<N, D>> {
        self.leaves.get(slot as usize)?.as_ref().map(|l| &l.tight)
    }

    /// Whether bodies were added or removed since the last update.
    pub(crate) fn has_changes(&self) -> bool {
        self.bodies_changed
    }

    /// Gives `body`, added in `slot`, its leaf: its AABB, grown by `margin` and
    /// [`FAT_MARGIN`] unless the body is static. Fails (changing nothing) only for a box that
    /// is not finite, which a body inside the world's envelope does not have.
    pub(crate) fn insert(
        &mut self,
        slot: u32,
        body: &Body<N, D>,
        margin: N,
    ) -> Result<(), TreeError> {
        let (tight, aabb, grow) = placed_box(body, margin);
        let id = self.tree.create_proxy(&aabb, grow, slot)?;
        self.tree.set_proxy_bits(id, body.desc.collision_groups.memberships())?;
        let s = slot as usize;
        if self.leaves.len() <= s {
            self.leaves.resize(s + 1, None);
        }
        let fat = *self.tree.fat_aabb(id).expect("the new leaf");
        self.leaves[s] = Some(Leaf { fat, tight, id });
        self.bodies_changed = true;
        self.fitted = None;
        Ok(())
    }

    /// Removes the leaf of `slot`, if it has one.
    pub(crate) fn remove(&mut self, slot: u32) {
        if let Some(leaf) = self.leaves.get_mut(slot as usize).and_then(Option::take) {
            let removed = self.tree.remove_proxy(leaf.id);
            debug_assert!(removed.is_ok());
        }
        self.bodies_changed = true;
        self.fitted = None;
    }

    /// `body`, in `slot`, was placed elsewhere (a teleport): its leaf follows at once (a
    /// moving body's grown by `margin` and [`FAT_MARGIN`]).
    pub(crate) fn teleported(&mut self, slot: u32, body: &Body<N, D>, margin: N) {
        self.fitted = None;
        let (tight, aabb, grow) = placed_box(body, margin);
        self.place(slot, tight, &aabb, grow);
        self.tree.rebuild_enlarged();
    }

    /// Records `tight`, the AABB of the body in `slot`, and gives its leaf `aabb` grown by
    /// `grow` unless `aabb` lies inside it; if it moved, lists the slot for the next pair
    /// search. The tree is left to [`Tree::rebuild_enlarged`].
    fn place(&mut self, slot: u32, tight: Aabb<N, D>, aabb: &Aabb<N, D>, grow: N) {
        let Some(Some(leaf)) = self.leaves.get_mut(slot as usize) else { return };
        leaf.tight = tight;
        // A body inside the envelope has a finite box, which the tree accepts.
        if self.tree.enlarge_proxy(leaf.id, aabb, grow) == Ok(true) {
            leaf.fat = *self.tree.fat_aabb(leaf.id).expect("a live leaf");
            self.mark_moved(slot);
        }
    }

    /// The body in `slot` has new collision `groups`: its leaf takes its new memberships, and
    /// its pairs are searched again at the next update.
    pub(crate) fn regrouped(&mut self, slot: u32, groups: CollisionGroups) {
        self.fitted = None;
        if let Some(Some(leaf)) = self.leaves.get(slot as usize) {
            let set = self.tree.set_proxy_bits(leaf.id, groups.memberships());
            debug_assert!(set.is_ok());
            self.mark_moved(slot);
        }
    }

    fn mark_moved(&mut self, slot: u32) {
        let s = slot as usize;
        if self.is_moved.len() <= s {
            self.is_moved.resize(s + 1, false);
        }
        if !self.is_moved[s] {
            self.is_moved[s] = true;
            self.moved.push(slot);
        }
    }

    /// Gives every moving body whose box for a step of `dt` ([`swept_box`]) left its leaf a
    /// new leaf. Static and sleeping bodies do not move, so they are not even looked at.
    /// (Out of line, so that profiles show what it costs the step.)
    #[inline(never)]
    fn refit(&mut self, slots: &[Slot<N, D>], margin: N, dt: N) {
        let grow = N::lit(FAT_MARGIN);
        for (index, slot) in slots.iter().enumerate() {
            let Some(b) = &slot.body else { continue };
            if b.desc.kind == BodyKind::Static || b.is_sleeping() {
                continue;
            }
            let Some(Some(leaf)) = self.leaves.get_mut(index) else { continue };
            let tight = body_aabb(b);
            let swept = swept_box(b, &tight, margin, dt);
            if leaf.fat.contains(&swept) {
                leaf.tight = tight;
            } else {
                self.place(index as u32, tight, &swept, grow);
            }
        }
        self.tree.rebuild_enlarged();
    }

    /// After the step (of `dt`, with speculative margin `margin`): every moving body's leaf
    /// holds its box for a next step of the same length, from where this step left it.
    pub(crate) fn after_step(&mut self, slots: &[Slot<N, D>], margin: N, dt: N) {
        self.refit(slots, margin, dt);
        self.fitted = Some((dt, margin));
    }

    /// Whether `refit` would change nothing: every moving body's box lies in its leaf, and its
    /// AABB is the one recorded.
    fn fits(&self, slots: &[Slot<N, D>], margin: N, dt: N) -> bool {
        slots.iter().zip(&self.leaves).all(|(slot, leaf)| {
            let (Some(b), Some(leaf)) = (&slot.body, leaf) else { return true };
            let tight = body_aabb(b);
            b.desc.kind == BodyKind::Static
                || b.is_sleeping()
                || (leaf.tight == tight && leaf.fat.contains(&swept_box(b, &tight, margin, dt)))
        })
    }

    /// Whether the bodies in slots `a` and `b` are more than `margin` apart for certain: their
    /// AABBs (as recorded at their current poses by the last refit, insert or teleport), grown
    /// by `margin` and a rounding slack, do not meet. Then the narrowphase would find no contact
    /// within `margin`. `false` when either has no leaf.
    pub(crate) fn apart(
        &self,
        (a, body_a): (u32, &Body<N, D>),
        (b, body_b): (u32, &Body<N, D>),
        margin: N,
    ) -> bool {
        let tight = |slot: u32, body: &Body<N, D>| {
            let leaf = self.leaves.get(slot as usize)?.as_ref()?;
            debug_assert!(leaf.tight == body_aabb(body), "a body's recorded AABB is stale");
            Some(leaf.tight)
        };
        let (Some(x), Some(y)) = (tight(a, body_a), tight(b, body_b)) else { return false };
        // The narrowphase rounds: a margin of its own, and of the coordinates' magnitude.
        let far =
            |v: &kollide_math::Vector<N, D>| v.iter().fold(N::zero(), |m, c| m.max_of(c.abs()));
        let scale = [x.mins, x.maxs, y.mins, y.maxs]
            .iter()
            .fold(N::zero(), |m, p| m.max_of(far(&p.coords)));
        let slack = margin * N::lit(1.0 / 16.0) + N::EPSILON * N::lit(64.0) * scale;
        !x.loosened(margin + slack).intersects(&y)
    }

    /// A body's velocity, pose or state changed between steps: the next update refits.
    pub(crate) fn body_changed(&mut self) {
        self.fitted = None;
    }

    /// The overlapping pairs `(lower slot, higher slot)` of the last update, sorted.
    pub(crate) fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Brings the pairs up to date for a step of `dt` with speculative margin `margin`, and
    /// returns them, sorted.
    pub(crate) fn update(&mut self, slots: &[Slot<N, D>], margin: N, dt: N) -> &[(u32, u32)] {
        if self.fitted.take() == Some((dt, margin)) {
            debug_assert!(
                self.fits(slots, margin, dt),
                "a body changed and its leaf was not refitted"
            );
        } else {
            self.refit(slots, margin, dt);
        }
        if self.bodies_changed || !self.moved.is_empty() {
            self.movable.clear();
            self.groups.clear();
            for s in slots {
                let body = s.body.as_ref();
                self.movable.push(body.is_some_and(|b| b.desc.kind == BodyKind::Dynamic));
                self.groups
                    .push(body.map_or(CollisionGroups::default(), |b| b.desc.collision_groups));
            }
            self.is_moved.resize(self.leaves.len(), false);
            if self.bodies_changed {
                self.search_all();
            } else {
                self.search_moved();
            }
            for &m in &self.moved {
                self.is_moved[m as usize] = false;
            }
            self.moved.clear();
            self.bodies_changed = false;
        }
        &self.pairs
    }

    /// Rebuilds the tree and finds every pair: each dynamic body asks the tree, and a pair of
    /// two dynamic bodies is taken from the lower slot's answer.
    fn search_all(&mut self) {
        self.tree.rebuild();
        self.pairs.clear();
        let (movable, groups, pairs) = (&self.movable, &self.groups, &mut self.pairs);
        for (i, leaf) in self.leaves.iter().enumerate() {
            let Some(Leaf { fat: aabb, .. }) = leaf else { continue };
            if !movable[i] {
                continue;
            }
            self.tree.query_aabb_masked(
                aabb,
                groups[i].filter(),
                #[inline(always)]
                |j| {
                    let j = j as usize;
                    if j != i && !(movable[j] && j < i) && groups[i].interacts(&groups[j]) {
                        pairs.push((i.min(j) as u32, i.max(j) as u32));
                    }
                    true
                },
            );
        }
        self.pairs.sort_unstable();
    }

    /// Drops the pairs of the bodies whose leaves moved and finds their new ones (a pair of
    /// two moved bodies from the lower slot's answer), then merges the new pairs into the kept
    /// ones.
    fn search_moved(&mut self) {
        let is_moved = &self.is_moved;
        self.pairs.retain(|&(i, j)| !(is_moved[i as usize] || is_moved[j as usize]));
        let kept = self.pairs.len();
        let (movable, groups, pairs) = (&self.movable, &self.groups, &mut self.pairs);
        for &m in &self.moved {
            let i = m as usize;
            let Some(Leaf { fat: aabb, .. }) = &self.leaves[i] else { continue };
            self.tree.query_aabb_masked(
                aabb,
                groups[i].filter(),
                #[inline(always)]
                |j| {
                    let j = j as usize;
                    if j != i
                        && (movable[i] | movable[j])
                        && !(is_moved[j] && j < i)
                        && groups[i].interacts(&groups[j])
                    {
                        pairs.push((i.min(j) as u32, i.max(j) as u32));
                    }
                    true
                },
            );
        }
        // The kept pairs are still sorted and the new ones (each with a moved body) are
        // distinct from them: sort the new ones and merge.
        crate::broadphase::merge_new_pairs(&mut self.pairs, kept, &mut self.merged);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Body, BodyDesc, CollisionGroups, SweepAndPrune};
    use kollide_math::{Iso2, Vec2};
    use kollide_shapes::{Ball, Cuboid, Shape2};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn body(rng: &mut ChaCha8Rng) -> Body<f64, 2> {
        let shape = if rng.random::<bool>() {
            Shape2::from(Ball::new(rng.random_range(0.1..1.0)).unwrap())
        } else {
            let h = Vec2::new(rng.random_range(0.1..2.0), rng.random_range(0.1..0.5));
            Shape2::from(Cuboid::new(h).unwrap())
        };
        let pose = Iso2::new(
            Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0)),
            rng.random_range(0.0..6.3),
        );
        let v = Vec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
        let desc = match rng.random_range(0..4) {
            0 => BodyDesc::fixed(shape),
            1 => BodyDesc::kinematic(shape).linear_velocity(v),
            _ => BodyDesc::dynamic(shape).linear_velocity(v),
        };
        Body::new(desc.pose(pose).collision_groups(groups(rng))).unwrap()
    }

    /// Mostly the default groups; now and then one of two groups that ignore each other, one
    /// of two that meet only across groups 30 and 31 (which the tree's pruning keeps as one),
    /// or no group at all.
    fn groups(rng: &mut ChaCha8Rng) -> CollisionGroups {
        match rng.random_range(0..9) {
            0 => CollisionGroups::new(1, !2),
            1 => CollisionGroups::new(2, !1),
            2 => CollisionGroups::new(1 << 30, 1 << 31),
            3 => CollisionGroups::new(1 << 31, 1 << 30),
            4 => CollisionGroups::NONE,
            _ => CollisionGroups::default(),
        }
    }

    /// `apart` never skips a pair the narrowphase finds a contact for: every pair of 200
    /// boxes and balls (near the origin and 1e4 away, `f64` and `f32`) at margins from 1 mm to
    /// 0.5 m that `apart` calls apart has an empty manifold; and it does call most far pairs
    /// apart (the shortcut is taken).
    #[test]
    fn apart_pairs_have_no_contacts() {
        fn check<N: crate::LaneScalar>(offset: f64, seed: u64) -> usize
        where
            Dim<2>: SolverDim<N, 2, Shape = kollide_shapes::BodyShape2<N>, Pose = Iso2<N>>,
        {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let lit = |x: f64| N::lit(x);
            let bodies: Vec<Body<N, 2>> = (0..200)
                .map(|_| {
                    let shape = if rng.random::<bool>() {
                        Shape2::from(Ball::new(lit(rng.random_range(0.05..1.0))).unwrap())
                    } else {
                        let h = [rng.random_range(0.05..2.0), rng.random_range(0.05..0.5)];
                        Shape2::from(Cuboid::new(Vec2::new(lit(h[0]), lit(h[1]))).unwrap())
                    };
                    let (x, y) = (rng.random_range(-6.0..6.0), rng.random_range(-6.0..6.0));
                    let turn = lit(rng.random_range(0.0..6.3));
                    let pose = Iso2::new(Vec2::new(lit(offset + x), lit(y)), turn);
                    Body::new(BodyDesc::dynamic(shape).pose(pose)).unwrap()
                })
                .collect();
            let mut stage = BroadphaseStage::new();
            for (i, b) in bodies.iter().enumerate() {
                stage.insert(i as u32, b, lit(0.02)).unwrap();
            }
            let (mut apart, mut far) = (0, 0);
            for (i, a) in bodies.iter().enumerate() {
                for (j, b) in bodies.iter().enumerate().skip(i + 1) {
                    let margin = lit(rng.random_range(0.001..0.5));
                    let (pa, pb) = (&a.desc.pose, &b.desc.pose);
                    let m = Dim::<2>::manifold(pa, &a.desc.shape, pb, &b.desc.shape, margin);
                    let skipped = stage.apart((i as u32, a), (j as u32, b), margin);
                    assert!(!skipped || m.is_empty(), "pair {i}, {j} skipped with a contact");
                    far += usize::from(m.is_empty());
                    apart += usize::from(skipped);
                }
            }
            assert!(apart * 10 > far * 7, "the shortcut is taken: {apart} of {far} far pairs");
            apart
        }
        for seed in 0..3 {
            check::<f64>(0.0, seed);
            check::<f64>(1e4, seed);
            check::<f32>(0.0, seed);
            check::<f32>(1e4, seed);
        }
    }

    /// The tree's pairs, step after step with bodies moving a little, jumping, appearing and
    /// disappearing, equal those of a full sweep and prune over the same fat boxes; and after
    /// each step's [`BroadphaseStage::after_step`], every body's AABB lies in its leaf, as the
    /// queries need.
    #[test]
    fn tree_pairs_equal_a_full_sweep() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (margin, dt) = (0.02, 1.0 / 60.0);
        let mut slots: Vec<Slot<f64, 2>> =
            (0..300).map(|_| Slot { generation: 0, body: Some(body(&mut rng)) }).collect();
        let mut stage = BroadphaseStage::new();
        for (i, slot) in slots.iter().enumerate() {
            stage.insert(i as u32, slot.body.as_ref().unwrap(), margin).unwrap();
        }
        let mut sap = SweepAndPrune::new();
        let (mut incremental, mut pairs_seen, mut moved_after, mut filtered) = (0, 0, 0, 0);
        for round in 0..60 {
            for (i, slot) in slots.iter_mut().enumerate() {
                let Some(b) = &mut slot.body else { continue };
                match rng.random_range(0..10) {
                    0 => b.desc.pose.translation.vector.x += rng.random_range(-5.0..5.0),
                    1..=4 => b.desc.pose.translation.vector.y += rng.random_range(-0.05..0.05),
                    _ => continue,
                }
                // Only a teleport moves a static body, and it tells the broadphase.
                if b.desc.kind == BodyKind::Static {
                    stage.teleported(i as u32, b, margin);
                }
            }
            if round % 5 == 2 {
                let i = rng.random_range(0..slots.len());
                if let Some(b) = &mut slots[i].body {
                    b.desc.collision_groups = groups(&mut rng);
                    stage.regrouped(i as u32, b.desc.collision_groups);
                }
            }
            if round % 10 == 9 {
                let i = rng.random_range(0..slots.len());
                if slots[i].body.take().is_some() {
                    stage.remove(i as u32);
                } else {
                    let b = body(&mut rng);
                    stage.insert(i as u32, &b, margin).unwrap();
                    slots[i].body = Some(b);
                }
            }
            incremental += usize::from(!stage.bodies_changed && round > 0);
            let got = stage.update(&slots, margin, dt).to_vec();
            let fat: Vec<Option<Aabb<f64, 2>>> =
                stage.leaves.iter().map(|l| l.map(|l| l.fat)).collect();
            let movable: Vec<bool> = slots
                .iter()
                .map(|s| s.body.as_ref().is_some_and(|b| b.desc.kind == BodyKind::Dynamic))
                .collect();
            let mut want = Vec::new();
            sap.find_pairs(&fat, &movable, &mut want);
            let groups_of = |i: u32| slots[i as usize].body.as_ref().unwrap().desc.collision_groups;
            let all = want.len();
            want.retain(|&(i, j)| groups_of(i).interacts(&groups_of(j)));
            filtered += all - want.len();
            assert_eq!(got, want, "round {round}");
            pairs_seen += got.len();
            // The step moves the bodies on by their velocities; the leaves must follow.
            for slot in &mut slots {
                let Some(b) = &mut slot.body else { continue };
                if b.desc.kind != BodyKind::Static {
                    let v = b.desc.linear_velocity;
                    b.desc.pose.translation.vector += v * dt * rng.random_range(0.0..3.0);
                }
            }
            stage.after_step(&slots, margin, dt);
            moved_after += stage.moved.len();
            for (i, slot) in slots.iter().enumerate() {
                let Some(b) = &slot.body else { continue };
                let leaf = stage.leaves[i].unwrap();
                assert_eq!(stage.tree.fat_aabb(leaf.id), Some(&leaf.fat));
                assert_eq!(stage.aabb(i as u32), Some(&body_aabb(b)));
                assert!(leaf.fat.contains(&leaf.tight), "round {round}: body {i} left its leaf");
            }
            stage.tree.check_invariants().unwrap();
        }
        assert!(incremental > 40 && pairs_seen > 1000, "{incremental} {pairs_seen}");
        assert!(filtered > 100, "only {filtered} pairs were left out by their groups");
        assert!(moved_after > 100, "after_step moved only {moved_after} leaves");
    }
}
