//! A bounding-volume tree of axis-aligned boxes, written once for 2D and 3D, `f32` and `f64`:
//! the world's tree of bodies (dynamic) and, later, a mesh's tree of triangles (static).
//!
//! **Shape of the tree.** Every leaf holds one box and a `u32` of the user's (a body slot, a
//! triangle index); every internal node has exactly two children and holds the smallest box
//! containing them. A query walks down from the root and skips every subtree whose box the
//! query misses, so it visits about `log n` nodes plus the ones it actually overlaps.
//!
//! **Dynamic use** (Catto, "Dynamic AABB Trees", GDC 2019; the same scheme as Box2D's tree):
//! - a *proxy* is a leaf whose box is *fat*: the object's tight box grown by a margin. While the
//!   tight box stays inside the fat one, moving the object changes nothing in the tree
//!   ([`Tree::move_proxy`] returns `false`); only when it leaves is the leaf removed and
//!   inserted again with a new fat box. A resting or slowly moving scene costs one box test per
//!   object;
//! - **many moves at once**: [`Tree::enlarge_proxy`] instead gives the leaf its new fat box in
//!   place, growing and marking its ancestors, and [`Tree::rebuild_enlarged`] then drops the
//!   marked nodes and links what lies below them (untouched subtrees and moved leaves) again
//!   top down, each range split at the middle of its centres' spread. This is what Box2D v3's
//!   broadphase does each step; when thousands of leaves move it costs far less than removing
//!   and inserting each;
//! - **insertion** chooses the sibling of the new leaf by descending from the root towards the
//!   child whose box grows least in the surface-area cost (Goldsmith and Salmon, "Automatic
//!   creation of object hierarchies for ray tracing", 1987; the cost of a tree is the sum of the
//!   surface areas, in 2D the perimeters, of its internal nodes, which is proportional to the
//!   expected number of nodes a random query visits). The descent stops when making a new parent
//!   here is cheaper than the cheapest child plus the growth it inherits on the way down;
//! - **balancing**: walking back up from the changed node, a node whose children's heights differ
//!   by more than one is rotated (an AVL rotation: the taller child takes its place), so the
//!   height stays within about `1.44 log2 n` whatever the order of insertions. Catto's talk
//!   discusses rotations that lower the surface-area cost instead; height balancing is the
//!   simpler guarantee and keeps the query stacks short;
//! - nodes live in one `Vec` addressed by `u32` indices, with a free list, so inserting and
//!   removing allocate only when the tree grows beyond its largest size so far.
//!
//! **Static use** ([`Tree::build`]): a top-down build from a slice of boxes, splitting each range
//! of boxes where the binned surface-area heuristic is lowest (Wald, "On fast construction of
//! SAH-based bounding volume hierarchies", 2007), or at the median when their centres coincide.
//! The result is an ordinary [`Tree`]: the same queries serve both uses. [`Tree::rebuild`] runs
//! the same build over a dynamic tree's leaves (keeping their ids): a tree grown by insertions
//! typically costs about twice as much to query as a top-down build over the same boxes.
//!
//! **Queries** ([`Tree::query_aabb`], [`Tree::query_point`], [`Tree::cast_ray`],
//! [`Tree::nearest`]) walk the tree's *branches*: beside each internal node, a copy of both
//! its children's boxes and links in one cache line (see `node.rs` for why). They use an
//! explicit stack that lives inline (on the call stack) up to 64 pending nodes, which a
//! height-balanced tree never exceeds below about 2^40 leaves: they do not allocate. Each
//! returns how many nodes it visited, for tests and statistics. The
//! ray query tests boxes with the slab method (Kay and Kajiya, "Ray tracing complex scenes",
//! 1986), visits the nearer child first, and lets its callback shorten the ray, so a closest-hit
//! search prunes every box beyond the best hit so far.
//!
//! **Bits and masks.** Each leaf carries 32 bits of the user's ([`Tree::set_proxy_bits`]; all
//! set by default) and each internal node the union of its children's. The masked queries
//! ([`Tree::query_aabb_masked`], [`Tree::cast_ray_masked`], [`Tree::nearest_masked`]) report
//! exactly the leaves whose bits meet the mask and skip every subtree whose union misses it,
//! as Box2D's tree does with category bits: the world gives each body's leaf its collision
//! memberships, so bodies that may not touch, or that a filtered query cannot see, cost no
//! search.

mod build;
mod check;
mod error;
mod insert;
mod node;
mod proxy;
mod query;

pub use check::InvariantViolation;
pub use error::TreeError;
pub use node::{ProxyId, Tree};
