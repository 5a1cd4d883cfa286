//! Stage 5 of the step: the contact solver over substeps (see `contact_solver.rs` for the
//! algorithm). `f32` worlds solve four constraints of a wave at a time in SIMD lanes
//! (`wide2.rs`, `wide3.rs`); everything else runs the scalar loop, which stays the reference.

use std::any::Any;

use kollide_math::{Scalar, Vector};

use crate::contact_solver::{
    self as cs, BodyState, ConstraintPoint, ContactConstraint, PrepareInput, SolverBody,
};
use crate::wide2::{self, Separations};
use crate::wide3;
use crate::{ContactPair, Dim, SolverDim, StepSettings};

/// The solver's buffers, reused from step to step.
#[derive(Clone, Debug)]
pub(crate) struct SolveStage<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The scalar loop's constraints and their points.
    constraints: Vec<ContactConstraint<N, D>>,
    points: Vec<ConstraintPoint<N, D>>,
    /// (2D `f32`) the constraints in bundles of four, and the body states as the SIMD loops
    /// keep them.
    bundles: Vec<wide2::Bundle>,
    slots_simd: Vec<wide2::Slot>,
    /// (3D `f32`) the constraints in bundles of four (see `wide3.rs`).
    bundles3: wide3::Bundles,
    /// Scratch for grouping constraints into bundles.
    classes: Vec<u8>,
    order: Vec<u32>,
    /// Solve `f32` contacts four at a time (the same numbers as the scalar loop; the tests
    /// turn it off to compare).
    pub(crate) simd: bool,
}

/// What the solve stage works on.
pub(crate) struct SolveInput<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The touching pairs' solver inputs in wave order, and the wave of each.
    pub(crate) inputs: &'a Vec<PrepareInput<N>>,
    pub(crate) waves: &'a [u32],
    pub(crate) pairs: &'a mut Vec<ContactPair<N, D>>,
    pub(crate) bodies: &'a mut Vec<SolverBody<N, D>>,
    pub(crate) states: &'a mut Vec<BodyState<N, D>>,
    pub(crate) gravity: &'a Vector<N, D>,
    pub(crate) settings: &'a StepSettings<N>,
    /// The substep (s).
    pub(crate) h: N,
}

impl<N: Scalar, const D: usize> SolveStage<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Empty buffers, SIMD on.
    pub(crate) fn new() -> Self {
        Self {
            constraints: Vec::new(),
            points: Vec::new(),
            bundles: Vec::new(),
            slots_simd: Vec::new(),
            bundles3: wide3::Bundles::default(),
            classes: Vec::new(),
            order: Vec::new(),
            simd: true,
        }
    }

    /// Solves the contacts over the step's substeps, leaving the bodies' velocities and motion
    /// in `input.states` and the accumulated impulses in the pairs' manifolds.
    pub(crate) fn run(&mut self, input: SolveInput<'_, N, D>) {
        let SolveInput { inputs, waves, pairs, bodies, states, gravity, settings, h } = input;
        let substeps = settings.substeps;
        self.constraints.clear();
        self.points.clear();
        // Odd substeps sweep the contacts backwards; the pass index, which picks
        // the point that leads in manifolds of three or more points, counts forward and backward
        // substeps alike (0, 1, 2, 3, … in each direction), so that no corner is tied to one
        // sweep direction.
        let inv_h = N::one() / h;
        let pass = |sub: usize, use_bias: bool| cs::Pass {
            inv_h,
            max_push: settings.max_push_velocity,
            slop: settings.linear_slop,
            use_bias,
            index: 2 * (sub / 2) + usize::from(!use_bias),
            reverse: sub % 2 == 1,
        };
        // 2D `f32` worlds prepare and solve their contacts four at a time (the same numbers;
        // see `wide2.rs`).
        let simd = if self.simd {
            (&mut *states as &mut dyn Any).downcast_mut::<Vec<BodyState<f32, 2>>>()
        } else {
            None
        };
        if let Some(states) = simd {
            let inputs = (inputs as &dyn Any)
                .downcast_ref::<Vec<cs::PrepareInput<f32>>>()
                .expect("f32 inputs with f32 states");
            let pairs = (pairs as &mut dyn Any)
                .downcast_mut::<Vec<ContactPair<f32, 2>>>()
                .expect("2D f32 pairs with 2D f32 states");
            let bodies = (bodies as &mut dyn Any)
                .downcast_mut::<Vec<SolverBody<f32, 2>>>()
                .expect("2D f32 bodies with 2D f32 states");
            let gravity = (gravity as &dyn Any)
                .downcast_ref::<Vector<f32, 2>>()
                .expect("2D f32 gravity with 2D f32 states");
            let h = h.to_f64() as f32;
            let pass = |sub: usize, use_bias: bool| {
                let p = pass(sub, use_bias);
                cs::Pass {
                    inv_h: p.inv_h.to_f64() as f32,
                    max_push: p.max_push.to_f64() as f32,
                    slop: p.slop.to_f64() as f32,
                    use_bias: p.use_bias,
                    index: p.index,
                    reverse: p.reverse,
                }
            };
            let mut bundles = core::mem::take(&mut self.bundles);
            let spare = bodies.len() as u32;
            wide2::prepare(
                inputs,
                waves,
                pairs,
                bodies,
                states,
                spare,
                &mut self.classes,
                &mut self.order,
                &mut bundles,
            );
            let mut slots = core::mem::take(&mut self.slots_simd);
            wide2::to_slots(states, &mut slots);
            for sub in 0..substeps as usize {
                wide2::integrate_velocities(&mut slots, bodies, gravity, h);
                if settings.warm_starting {
                    wide2::warm_start(&mut slots, &bundles);
                }
                // The relax pass keeps its separations for the next substep's solve pass.
                let first = if sub == 0 { Separations::Compute } else { Separations::Reuse };
                wide2::solve(&mut slots, &mut bundles, pass(sub, true), first);
                wide2::integrate_positions(&mut slots, bodies, h);
                let last = sub + 1 == substeps as usize;
                let keep = if last { Separations::Compute } else { Separations::ComputeAndKeep };
                wide2::solve(&mut slots, &mut bundles, pass(sub, false), keep);
            }
            let threshold = settings.restitution_threshold.to_f64() as f32;
            wide2::restitution(&mut slots, &mut bundles, threshold);
            wide2::from_slots(&slots, states);
            wide2::store_impulses(&bundles, pairs, settings.warm_starting);
            self.slots_simd = slots;
            self.bundles = bundles;
        } else if !(self.simd
            && wide3::run(
                &mut self.bundles3,
                wide3::Step {
                    inputs,
                    waves,
                    pairs,
                    bodies,
                    states,
                    gravity,
                    h,
                    substeps,
                    warm_starting: settings.warm_starting,
                    restitution_threshold: settings.restitution_threshold,
                    pass: &pass,
                    classes: &mut self.classes,
                    order: &mut self.order,
                },
            ))
        {
            // 3D `f32` worlds took the SIMD path above (the same numbers; see `wide3.rs`);
            // everything else runs the scalar loop, which stays the reference.
            for input in inputs {
                let m = &pairs[input.pair as usize].manifold;
                self.constraints.push(cs::prepare(bodies, states, m, *input, &mut self.points));
            }
            for sub in 0..substeps as usize {
                cs::integrate_velocities(states, bodies, gravity, h);
                if settings.warm_starting {
                    cs::warm_start(states, &self.constraints, &self.points);
                }
                cs::solve(states, &mut self.constraints, &mut self.points, pass(sub, true));
                cs::integrate_positions(states, bodies, h);
                cs::solve(states, &mut self.constraints, &mut self.points, pass(sub, false));
            }
            cs::restitution(
                states,
                &self.constraints,
                &mut self.points,
                settings.restitution_threshold,
            );
            for c in &self.constraints {
                let m = &mut pairs[c.pair as usize].manifold;
                let pts = &self.points[c.first as usize..(c.first + c.count) as usize];
                for (contact, cp) in m.contacts_mut().iter_mut().zip(pts) {
                    contact.user = cs::stored_impulse(c, cp);
                }
            }
        }
    }
}
