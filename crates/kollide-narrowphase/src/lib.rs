//! # kollide-narrowphase
//!
//! Exact queries between pairs of convex shapes: GJK (intersection, distance, closest points),
//! EPA in 2D and 3D, exact Minkowski-difference depth for polygons, penetration along a direction,
//! shape and ray casts, SAT with Sutherland–Hodgman clipping, analytic pair routines, and one
//! dispatcher that picks the best routine for a pair.
//!
//! **Architecture invariant:** no query allocates on the heap on its hot path.
//!
//! Status: skeleton. The algorithms land with the narrowphase issue.
