//! [`Compound`]: several convex shapes with local poses, as one shape (2D and 3D).
//!
//! A dynamic body with a handle, a table made of a top and four legs, a concave rock: each is
//! a union of convex **children** placed by poses in the compound's frame. The compound is a
//! [`CompositeShape`] whose pieces are the children, and carries the union's mass properties
//! ([`HasMass2`], [`HasMass3`]) so that one body can hold it.
//!
//! **Mass properties.** The mass is the sum of the children's; the centre of mass is their
//! mass-weighted mean; the inertia about that centre adds, for each child, its own inertia
//! rotated into the compound's axes (`R I Rᵀ`) and the parallel-axis term of its offset
//! `r = c_child − c` (Steiner's theorem: `m (|r|² 𝟙 − r rᵀ)` in 3D, `m |r|²` in 2D). Children
//! are assumed not to overlap: an overlap is counted twice, as in every engine that builds
//! compounds this way.
//!
//! **Finding children.** The children's bounding boxes in the compound's frame are computed once
//! at construction; a query box is tested against each in turn. With the handful of children a
//! compound usually has this linear scan is the fastest option; its `visit_pieces_in` is
//! the one place where a bounding-volume tree over the children would plug in for large ones.

use core::ops::ControlFlow;

use kollide_math::{Iso2, Iso3, Mat3, Point, Point2, Point3, Pose, Scalar, Vector};
use thiserror::Error;

use crate::{
    Aabb, BoundingVolume, CompositeShape, HasMass2, HasMass3, MassProperties2, MassProperties3,
    Shape2, Shape3, ShapeError, check_density,
};

/// Why a [`Compound`] could not be built. Every variant names the child at fault.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CompoundError {
    /// No children were given.
    #[error("a compound needs at least one child")]
    Empty,
    /// A child's pose has a NaN or infinite number.
    #[error("the pose of child {child} is not finite")]
    NonFinitePose {
        /// Index of the child.
        child: usize,
    },
    /// A child's rotation is not a unit rotation (within the scalar type's tolerance).
    #[error("the rotation of child {child} is not unit length (off by {error})")]
    NonUnitRotation {
        /// Index of the child.
        child: usize,
        /// `|‖q‖ − 1|` of the rotation (unit complex number or quaternion).
        error: f64,
    },
    /// A child's position is beyond `Scalar::MAX_COORDINATE`.
    #[error("child {child} is placed at {value}, beyond the limit {limit}")]
    OutOfEnvelope {
        /// Index of the child.
        child: usize,
        /// The largest coordinate of its position.
        value: f64,
        /// The limit.
        limit: f64,
    },
    /// More children than piece indices (`u32`) can name.
    #[error("a compound holds at most 2^32 − 1 children, got {0}")]
    TooMany(usize),
}

/// Convex child shapes with local poses (see the module docs). Build 2D ones with
/// [`Compound2`] and 3D ones with [`Compound3`].
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::{Ball, Compound3, Cuboid, HasMass3};
/// // A dumbbell: two balls on a bar.
/// let dumbbell = Compound3::new(vec![
///     (Iso3::translation(-1.0, 0.0, 0.0), Ball::new(0.3f64).unwrap().into()),
///     (Iso3::translation(1.0, 0.0, 0.0), Ball::new(0.3).unwrap().into()),
///     (Iso3::identity(), Cuboid::new(Vec3::new(1.0, 0.05, 0.05)).unwrap().into()),
/// ])
/// .unwrap();
/// let mass = dumbbell.mass_properties(1000.0).unwrap();
/// assert!(mass.local_center.coords.norm() < 1e-12);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Compound<N: Scalar, const D: usize, P, S> {
    children: Vec<(P, S)>,
    child_aabbs: Vec<Aabb<N, D>>,
    aabb: Aabb<N, D>,
}

/// A 2D compound of [`Shape2`]s.
pub type Compound2<N> = Compound<N, 2, Iso2<N>, Shape2<N>>;
/// A 3D compound of [`Shape3`]s.
pub type Compound3<N> = Compound<N, 3, Iso3<N>, Shape3<N>>;

/// The poses a compound accepts for its children: [`Iso2`] and [`Iso3`], whose rotation's norm
/// can be checked.
pub trait ChildPose<N: Scalar, const D: usize>: Pose<N, D> {
    /// `|‖q‖ − 1|` of the rotation (unit complex number in 2D, quaternion in 3D), in `f64`.
    fn rotation_norm_error(&self) -> f64;
}

impl<N: Scalar> ChildPose<N, 2> for Iso2<N> {
    fn rotation_norm_error(&self) -> f64 {
        let (re, im) = (self.rotation.re.to_f64(), self.rotation.im.to_f64());
        ((re * re + im * im).sqrt() - 1.0).abs()
    }
}

impl<N: Scalar> ChildPose<N, 3> for Iso3<N> {
    fn rotation_norm_error(&self) -> f64 {
        let q = self.rotation.coords.map(|x| x.to_f64());
        (q.norm() - 1.0).abs()
    }
}

impl<N, const D: usize, P, S> Compound<N, D, P, S>
where
    N: Scalar,
    P: ChildPose<N, D>,
    S: BoundingVolume<N, D>,
{
    /// A compound of these children (each a pose in the compound's frame and a shape).
    ///
    /// Fails with [`CompoundError::Empty`] for no children, [`CompoundError::NonFinitePose`],
    /// [`CompoundError::NonUnitRotation`] (a unit complex number or quaternion whose norm
    /// differs from 1 by more than `Tolerances::relative_length`) and [`CompoundError::OutOfEnvelope`]
    /// (a position beyond `Scalar::MAX_COORDINATE`), naming the first bad child.
    pub fn new(children: Vec<(P, S)>) -> Result<Self, CompoundError> {
        if children.is_empty() {
            return Err(CompoundError::Empty);
        }
        if children.len() >= u32::MAX as usize {
            return Err(CompoundError::TooMany(children.len()));
        }
        let tol = kollide_math::Tolerances::<N>::default().relative_length.to_f64();
        for (child, (pose, _)) in children.iter().enumerate() {
            if !pose.is_finite() {
                return Err(CompoundError::NonFinitePose { child });
            }
            let error = pose.rotation_norm_error();
            if error > tol {
                return Err(CompoundError::NonUnitRotation { child, error });
            }
            let value = pose.translation().amax();
            if value > N::MAX_COORDINATE {
                return Err(CompoundError::OutOfEnvelope {
                    child,
                    value: value.to_f64(),
                    limit: N::MAX_COORDINATE.to_f64(),
                });
            }
        }
        let child_aabbs: Vec<Aabb<N, D>> = children.iter().map(|(p, s)| s.aabb(p)).collect();
        let aabb = child_aabbs.iter().skip(1).fold(child_aabbs[0], |a, b| a.merged(b));
        Ok(Self { children, child_aabbs, aabb })
    }

    /// The children, each with its pose in the compound's frame.
    pub fn children(&self) -> &[(P, S)] {
        &self.children
    }

    /// The bounding box of child `i` in the compound's frame.
    pub fn child_aabb(&self, i: usize) -> Aabb<N, D> {
        self.child_aabbs[i]
    }
}

impl<N, const D: usize, P, S> CompositeShape<N, D> for Compound<N, D, P, S>
where
    N: Scalar,
    P: Pose<N, D>,
    S: BoundingVolume<N, D>,
{
    type Pose = P;
    type Piece = S;
    /// Children's own ids reach past 2²⁴ (generated ids, see the narrowphase's `GENERATED`):
    /// the child index goes into the top six bits.
    const FEATURE_STRIDE: u32 = 1 << 26;

    fn local_aabb(&self) -> Aabb<N, D> {
        self.aabb
    }

    fn piece_count(&self) -> usize {
        self.children.len()
    }

    /// A scan of the children's boxes: the seam where a bounding-volume tree over the children
    /// replaces the loop for compounds with many of them.
    fn visit_pieces_in<F>(&self, aabb: &Aabb<N, D>, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&P>, &S) -> ControlFlow<()>,
    {
        for (i, ((pose, shape), b)) in self.children.iter().zip(&self.child_aabbs).enumerate() {
            if b.intersects(aabb) {
                f(i as u32, Some(pose), shape)?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl<N: Scalar, const D: usize, P: Pose<N, D>, S: BoundingVolume<N, D>> Compound<N, D, P, S> {
    /// The world box of the compound placed at `pose`: the union of the children's boxes.
    pub fn aabb(&self, pose: &P) -> Aabb<N, D> {
        let mut out: Option<Aabb<N, D>> = None;
        for (p, s) in &self.children {
            let b = s.aabb(&pose.compose(p));
            out = Some(out.map_or(b, |o| o.merged(&b)));
        }
        out.unwrap_or(self.aabb)
    }

    /// The largest distance from the compound's origin to a point of it (a bound).
    pub fn bounding_radius(&self) -> N {
        self.children
            .iter()
            .map(|(p, s)| p.translation().norm() + s.bounding_radius())
            .fold(N::zero(), |a, b| a.max_of(b))
    }
}

impl<N: Scalar> HasMass2<N> for Compound2<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let parts: Vec<(Point2<N>, N, N)> = self
            .children
            .iter()
            .map(|(p, s)| {
                s.mass_properties(density).map(|m| (p * m.local_center, m.mass, m.inertia))
            })
            .collect::<Result<_, _>>()?;
        let mass = parts.iter().fold(N::zero(), |a, p| a + p.1);
        let center = weighted_center(parts.iter().map(|p| (p.0, p.1)), mass);
        let inertia =
            parts.iter().fold(N::zero(), |a, (c, m, i)| a + *i + *m * (c - center).norm_squared());
        MassProperties2::checked(MassProperties2 { mass, local_center: center, inertia })
    }
}

impl<N: Scalar> HasMass3<N> for Compound3<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        let parts: Vec<(Point3<N>, N, Mat3<N>)> = self
            .children
            .iter()
            .map(|(p, s)| {
                s.mass_properties(density).map(|m| {
                    let r = p.rotation.to_rotation_matrix().into_inner();
                    (p * m.local_center, m.mass, r * m.inertia * r.transpose())
                })
            })
            .collect::<Result<_, _>>()?;
        let mass = parts.iter().fold(N::zero(), |a, p| a + p.1);
        let center = weighted_center(parts.iter().map(|p| (p.0, p.1)), mass);
        let inertia = parts.iter().fold(Mat3::zeros(), |a, (c, m, i)| {
            let r = c - center;
            a + i + (Mat3::identity() * r.norm_squared() - r * r.transpose()) * *m
        });
        MassProperties3::checked(MassProperties3 { mass, local_center: center, inertia })
    }
}

/// `Σ mᵢ cᵢ / mass`.
fn weighted_center<N: Scalar, const D: usize>(
    parts: impl Iterator<Item = (Point<N, D>, N)>,
    mass: N,
) -> Point<N, D> {
    let sum = parts.fold(Vector::<N, D>::zeros(), |a, (c, m)| a + c.coords * m);
    Point::from(sum / mass)
}
