//! The world's joints ([`JointSet`]) and the [`World`] methods that add, read, change and
//! remove them. Every method checks its whole request before it changes anything.

use kollide_math::{Point, Scalar, Vector};

use super::{
    Ang, Impulses, Joint, JointDesc, JointHandle, JointKind, LocalFrames, Motor, PoseOf, Rot,
    SphericalJoint, Spring,
};
use crate::{BodyHandle, Dim, SolverDim, World, WorldError};

/// A joint's place in the world: a handle is valid while its generation matches.
#[derive(Clone, Debug)]
struct JointSlot<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    generation: u32,
    joint: Option<Joint<N, D>>,
}

/// The joints of a world, and the pairs of bodies they keep from colliding.
#[derive(Clone, Debug)]
pub(crate) struct JointSet<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    slots: Vec<JointSlot<N, D>>,
    free: Vec<u32>,
    /// The slot pairs `(low, high)` of the joints whose bodies do not collide, sorted (a pair
    /// appears once per such joint).
    no_collide: Vec<(u32, u32)>,
    /// Counts the changes to the joints (added, removed, edited; not the impulses a step
    /// stores), so that the solver knows when what it prepared last is still valid.
    version: u64,
}

impl<N: Scalar, const D: usize> Default for JointSet<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    fn default() -> Self {
        Self { slots: Vec::new(), free: Vec::new(), no_collide: Vec::new(), version: 0 }
    }
}

impl<N: Scalar, const D: usize> JointSet<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The joints with their slot indices, in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, &Joint<N, D>)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.joint.as_ref().map(|j| (i as u32, j)))
    }

    /// The joint in slot `index`, if any.
    pub(crate) fn at(&self, index: u32) -> Option<&Joint<N, D>> {
        self.slots.get(index as usize)?.joint.as_ref()
    }

    /// `true` when there is no joint.
    pub(crate) fn is_empty(&self) -> bool {
        self.slots.len() == self.free.len()
    }

    /// The sorted slot pairs of bodies that must not collide (see [`JointDesc::collide_connected`]).
    pub(crate) fn no_collide(&self) -> &[(u32, u32)] {
        &self.no_collide
    }

    /// The count of changes so far (see `version`).
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// The joint in slot `index`, to change (counted as a change).
    fn at_mut(&mut self, index: u32) -> Option<&mut Joint<N, D>> {
        self.version += 1;
        self.slots.get_mut(index as usize)?.joint.as_mut()
    }

    /// Stores the impulses a step accumulated, `impulses_of` each joint's slot (`None` for a
    /// joint the step did not solve), in slot order.
    pub(crate) fn store_impulses(&mut self, impulses_of: impl Fn(u32) -> Option<Impulses<N, D>>) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if let (Some(j), Some(impulses)) = (slot.joint.as_mut(), impulses_of(index as u32)) {
                j.impulses = impulses;
            }
        }
    }

    /// The number of joint slots, used or free.
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    fn get(&self, h: JointHandle) -> Result<&Joint<N, D>, WorldError> {
        match self.slots.get(h.index as usize) {
            Some(s) if s.generation == h.generation => {
                s.joint.as_ref().ok_or(WorldError::StaleJoint)
            }
            _ => Err(WorldError::StaleJoint),
        }
    }

    fn insert(&mut self, joint: Joint<N, D>) -> JointHandle {
        self.version += 1;
        if !joint.desc.collide_connected {
            let pair = body_pair(&joint);
            let at = self.no_collide.partition_point(|p| *p < pair);
            self.no_collide.insert(at, pair);
        }
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(JointSlot { generation: 0, joint: None });
                self.slots.len() as u32 - 1
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.joint = Some(joint);
        JointHandle { index, generation: slot.generation }
    }

    fn take(&mut self, index: u32) -> Option<Joint<N, D>> {
        let slot = &mut self.slots[index as usize];
        let joint = slot.joint.take()?;
        self.version += 1;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(index);
        if !joint.desc.collide_connected {
            let pair = body_pair(&joint);
            let at = self.no_collide.partition_point(|p| *p < pair);
            self.no_collide.remove(at);
        }
        Some(joint)
    }

    /// Removes the joints of the body in slot `body`.
    pub(crate) fn remove_body(&mut self, body: u32) {
        for index in 0..self.slots.len() as u32 {
            let touches = self.slots[index as usize]
                .joint
                .as_ref()
                .is_some_and(|j| j.desc.body_a.index == body || j.desc.body_b.index == body);
            if touches {
                self.take(index);
            }
        }
    }
}

/// A joint's body slots, lower first.
fn body_pair<N: Scalar, const D: usize>(joint: &Joint<N, D>) -> (u32, u32)
where
    Dim<D>: SolverDim<N, D>,
{
    let (a, b) = (joint.desc.body_a.index, joint.desc.body_b.index);
    (a.min(b), a.max(b))
}

/// A unit angular direction from a checked axis.
fn unit<N: Scalar, const D: usize>(axis: &Ang<N, D>) -> Ang<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let length = Dim::<D>::angular_dot(axis, axis).sqrt();
    *axis * (N::one() / length)
}

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Adds a joint between two bodies (see [`JointDesc`] and the kinds). A request with a
    /// stale body handle, the same body twice, a number that is not finite or out of its range
    /// (an anchor beyond [`crate::WorldLimits::max_coordinate`], a zero axis, negative
    /// stiffness, a motor torque below zero) or a limit whose lower end is above its upper end
    /// is refused with a [`WorldError`], and the world is left unchanged.
    ///
    /// ```
    /// use kollide_math::{Iso2, Point2, Vec2};
    /// use kollide_shapes::{Ball, Cuboid};
    /// use kollide_solver::{BodyDesc, JointDesc, RevoluteJoint, World2};
    /// let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    /// let ceiling = world.add(BodyDesc::fixed(Cuboid::new(Vec2::new(1.0, 0.1)).unwrap())
    ///     .pose(Iso2::translation(0.0, 2.0))).unwrap();
    /// let bob = world.add(BodyDesc::dynamic(Ball::new(0.1).unwrap())
    ///     .pose(Iso2::translation(1.0, 2.0))).unwrap();
    /// let hinge = RevoluteJoint::new(Point2::new(0.0, 2.0));
    /// world.add_joint(JointDesc::new(ceiling, bob, hinge)).unwrap();
    /// for _ in 0..30 {
    ///     world.step(1.0 / 60.0).unwrap();
    /// }
    /// // The bob swung down, one metre from the hinge.
    /// let p = world.body(bob).unwrap().pose().translation.vector;
    /// assert!(p.y < 1.5 && ((p - Vec2::new(0.0, 2.0)).norm() - 1.0).abs() < 0.01);
    /// ```
    pub fn add_joint(&mut self, desc: JointDesc<N, D>) -> Result<JointHandle, WorldError> {
        let pose_a = *self.body(desc.body_a)?.pose();
        let pose_b = *self.body(desc.body_b)?.pose();
        if desc.body_a == desc.body_b {
            return Err(WorldError::SameBody);
        }
        desc.validate()?;
        let frames = local_frames(&desc, &pose_a, &pose_b);
        let (a, b) = (desc.body_a.index, desc.body_b.index);
        let joint = Joint { desc, frames, impulses: Impulses::zero() };
        let handle = self.joints.insert(joint);
        self.wake_joined(a, b);
        Ok(handle)
    }

    /// Removes a joint. A stale handle is an error and changes nothing. Removing a body
    /// removes its joints.
    pub fn remove_joint(&mut self, h: JointHandle) -> Result<Joint<N, D>, WorldError> {
        self.joints.get(h)?;
        let joint = self.joints.take(h.index).ok_or(WorldError::StaleJoint)?;
        self.wake_joined(joint.desc.body_a.index, joint.desc.body_b.index);
        Ok(joint)
    }

    /// The joint behind a handle.
    pub fn joint(&self, h: JointHandle) -> Result<&Joint<N, D>, WorldError> {
        self.joints.get(h)
    }

    /// All joints with their handles, in slot order.
    pub fn joints(&self) -> impl Iterator<Item = (JointHandle, &Joint<N, D>)> + '_ {
        self.joints.slots.iter().enumerate().filter_map(|(i, s)| {
            s.joint.as_ref().map(|j| (JointHandle { index: i as u32, generation: s.generation }, j))
        })
    }

    /// Sets (or with `None` removes) a revolute or prismatic joint's motor. A stale handle, another kind of
    /// joint or a motor out of range is refused and changes nothing.
    pub fn set_joint_motor(
        &mut self,
        h: JointHandle,
        motor: Option<Motor<N>>,
    ) -> Result<(), WorldError> {
        self.change_joint(h, |kind| match kind {
            JointKind::Revolute(j) => {
                j.motor = motor;
                j.validate_controls()
            }
            JointKind::Prismatic(j) => {
                j.motor = motor;
                j.validate_controls()
            }
            JointKind::Wheel(j) => {
                j.motor = motor;
                j.validate_controls()
            }
            _ => Err(WorldError::NotInJoint("motor")),
        })
    }

    /// Sets (or with `None` removes) a joint's limit: a revolute joint's angle range (rad), a
    /// prismatic joint's translation range (m), a distance joint's length range (m; `None`:
    /// `[0, N::MAX]`). A stale handle, another
    /// kind of joint or a range out of order or out of range is refused and changes nothing.
    pub fn set_joint_limit(
        &mut self,
        h: JointHandle,
        limit: Option<[N; 2]>,
    ) -> Result<(), WorldError> {
        self.change_joint(h, |kind| match kind {
            JointKind::Revolute(j) => {
                j.limit = limit;
                j.validate_controls()
            }
            JointKind::Distance(j) => {
                j.range = limit.unwrap_or([N::zero(), N::MAX]);
                j.validate_controls()
            }
            JointKind::Prismatic(j) => {
                j.limit = limit;
                j.validate_controls()
            }
            JointKind::Wheel(j) => {
                j.limit = limit;
                j.validate_controls()
            }
            _ => Err(WorldError::NotInJoint("limit")),
        })
    }

    /// Sets (or with `None` removes) the spring of a revolute, prismatic or distance joint. A stale
    /// handle, another kind of joint or a spring out of range is refused and changes nothing.
    pub fn set_joint_spring(
        &mut self,
        h: JointHandle,
        spring: Option<Spring<N>>,
    ) -> Result<(), WorldError> {
        self.change_joint(h, |kind| match kind {
            JointKind::Revolute(j) => {
                j.spring = spring;
                j.validate_controls()
            }
            JointKind::Distance(j) => {
                j.spring = spring;
                j.validate_controls()
            }
            JointKind::Prismatic(j) => {
                j.spring = spring;
                j.validate_controls()
            }
            JointKind::Wheel(j) => {
                j.spring = spring;
                j.validate_controls()
            }
            _ => Err(WorldError::NotInJoint("spring")),
        })
    }

    /// Moves a motor joint's target: B's pose in A's frame. A stale handle, another kind of
    /// joint or a pose outside the envelope is refused and changes nothing.
    pub fn set_motor_target(
        &mut self,
        h: JointHandle,
        target: PoseOf<N, D>,
    ) -> Result<(), WorldError> {
        self.change_joint(h, |kind| match kind {
            JointKind::Motor(j) => {
                j.target = target;
                j.validate()
            }
            _ => Err(WorldError::NotInJoint("motor target")),
        })?;
        self.refresh_frames(h);
        Ok(())
    }

    /// Moves a mouse joint's target (world frame; it is kept in body A's frame as A stands
    /// now). A stale handle, another kind of joint or a point outside the envelope is refused
    /// and changes nothing.
    pub fn set_mouse_target(
        &mut self,
        h: JointHandle,
        target: Point<N, D>,
    ) -> Result<(), WorldError> {
        self.change_joint(h, |kind| match kind {
            JointKind::Mouse(j) => {
                j.target = target;
                j.validate()
            }
            _ => Err(WorldError::NotInJoint("mouse target")),
        })?;
        self.refresh_frames(h);
        Ok(())
    }

    /// Recomputes the part of a joint's frames that its target sets (motor and mouse joints),
    /// after the target changed.
    fn refresh_frames(&mut self, h: JointHandle) {
        let Some(j) = self.joints.at_mut(h.index) else { return };
        let pose = |b: BodyHandle| self.slots[b.index as usize].body.as_ref().map(|b| *b.pose());
        let (Some(pose_a), Some(pose_b)) = (pose(j.desc.body_a), pose(j.desc.body_b)) else {
            return;
        };
        let fresh = local_frames(&j.desc, &pose_a, &pose_b);
        j.frames.anchor_a = fresh.anchor_a;
        j.frames.reference = match j.desc.kind {
            JointKind::Motor(_) => fresh.reference,
            _ => j.frames.reference,
        };
    }

    /// Applies `change` to a copy of the joint's kind and keeps it only if `change` accepts it.
    fn change_joint(
        &mut self,
        h: JointHandle,
        change: impl FnOnce(&mut JointKind<N, D>) -> Result<(), WorldError>,
    ) -> Result<(), WorldError> {
        let mut kind = self.joints.get(h)?.desc.kind.clone();
        change(&mut kind)?;
        if let Some(j) = self.joints.at_mut(h.index) {
            j.desc.kind = kind;
            let (a, b) = (j.desc.body_a.index, j.desc.body_b.index);
            self.wake_joined(a, b);
        }
        Ok(())
    }

    /// Wakes the two bodies of a joint that was added, removed or changed, with their islands
    /// (a static or kinematic body has none: what else it touches sleeps on).
    fn wake_joined(&mut self, a: u32, b: u32) {
        self.islands.wake_body(&mut self.slots, a);
        self.islands.wake_body(&mut self.slots, b);
    }

    /// Removes the joints of a body being removed.
    pub(crate) fn remove_joints_of(&mut self, body: BodyHandle) {
        if !self.joints.is_empty() {
            self.joints.remove_body(body.index);
        }
    }
}

/// The joint's anchors, reference rotation and axes in the bodies' frames, from the world
/// frame description and the bodies' poses.
fn local_frames<N: Scalar, const D: usize>(
    desc: &JointDesc<N, D>,
    pose_a: &<Dim<D> as SolverDim<N, D>>::Pose,
    pose_b: &<Dim<D> as SolverDim<N, D>>::Pose,
) -> LocalFrames<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    use kollide_math::Pose;
    let (q_a, q_b) = (Dim::<D>::rotation(pose_a), Dim::<D>::rotation(pose_b));
    let identity = Dim::<D>::rotation_identity();
    let inv_a: Rot<N, D> = Dim::<D>::rotation_delta(&identity, &q_a);
    let inv_b: Rot<N, D> = Dim::<D>::rotation_delta(&identity, &q_b);
    let local = |inv: &Rot<N, D>, pose: &<Dim<D> as SolverDim<N, D>>::Pose, p: &Point<N, D>| {
        let offset: Vector<N, D> = p.coords - pose.translation();
        Dim::<D>::rotate(inv, &offset)
    };
    let mut slide = Vector::<N, D>::zeros();
    let (anchor_a, anchor_b, axis, length) = match &desc.kind {
        JointKind::Revolute(j) => (j.anchor, j.anchor, unit::<N, D>(&j.axis), N::zero()),
        JointKind::Weld(j) => (j.anchor, j.anchor, unit_default::<N, D>(), N::zero()),
        JointKind::Spherical(SphericalJoint { anchor, cone: Some(cone) }) => {
            (*anchor, *anchor, unit::<N, D>(&cone.axis), N::zero())
        }
        JointKind::Spherical(j) => (j.anchor, j.anchor, unit_default::<N, D>(), N::zero()),
        JointKind::Prismatic(j) => {
            slide = j.axis / j.axis.norm();
            (j.anchor, j.anchor, unit_default::<N, D>(), N::zero())
        }
        JointKind::Wheel(j) => {
            slide = j.suspension / j.suspension.norm();
            (j.anchor, j.anchor, unit::<N, D>(&j.spin), N::zero())
        }
        JointKind::Distance(j) => {
            let length = j.length.unwrap_or_else(|| (j.anchor_b - j.anchor_a).norm());
            (j.anchor_a, j.anchor_b, unit_default::<N, D>(), length)
        }
        JointKind::Mouse(j) => (j.target, j.anchor, unit_default::<N, D>(), N::zero()),
        JointKind::Motor(j) => return motor_frames(&j.target),
    };
    LocalFrames {
        anchor_a: local(&inv_a, pose_a, &anchor_a),
        anchor_b: local(&inv_b, pose_b, &anchor_b),
        // q_A⁻¹ q_B = (q_A⁻¹) (q_B⁻¹)⁻¹.
        reference: Dim::<D>::rotation_delta(&inv_a, &inv_b),
        axis_a: Dim::<D>::rotate_angular(&inv_a, &axis),
        axis_b: Dim::<D>::rotate_angular(&inv_b, &axis),
        length,
        slide_a: Dim::<D>::rotate(&inv_a, &slide),
    }
}

/// The axis of a joint without one: any unit direction (unused).
fn unit_default<N: Scalar, const D: usize>() -> Ang<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    Dim::<D>::angular_from_components([N::one(), N::zero(), N::zero()])
}

/// A motor joint's frames: the point `t` of A held on B's origin, and B's rotation held at
/// `q_t` relative to A's, where `(t, q_t)` is the target pose of B in A's frame.
fn motor_frames<N: Scalar, const D: usize>(target: &PoseOf<N, D>) -> LocalFrames<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    use kollide_math::Pose;
    LocalFrames {
        anchor_a: target.translation(),
        anchor_b: Vector::zeros(),
        reference: Dim::<D>::rotation(target),
        axis_a: unit_default::<N, D>(),
        axis_b: unit_default::<N, D>(),
        length: N::zero(),
        slide_a: Vector::zeros(),
    }
}
