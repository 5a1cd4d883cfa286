//! # kollide-solver
//!
//! Rigid bodies, a broadphase with persistent pairs, and a world step with sequential impulses
//! (accumulated clamping, friction, restitution, warm starting, position correction), in 2D and 3D.
//!
//! **Architecture invariant:** the solver sees shapes only through the narrowphase's dispatcher
//! and manifolds; it never calls a pair routine directly.
//!
//! Status: skeleton. The world lands with the solver issue.
