//! [`ConvexPolyhedron`]: a convex polytope in 3D with polygon faces and full adjacency.
//!
//! A convex polyhedron is stored as its vertices, its faces (convex polygons, counter-clockwise
//! when seen from outside, with outward unit normals), its edges, and the adjacency between them.
//! It is built from a point cloud by the 3D hull ([`convex_hull_3d`](crate::convex_hull_3d)),
//! which keeps only extreme vertices and merges coplanar triangles into polygons, or directly as a
//! box with [`ConvexPolyhedron::from_cuboid`].
//!
//! ## Numbering (the [`FeatureId`]s)
//! * **Vertex(i)** is `vertices()[i]`. From [`ConvexPolyhedron::from_points`] the vertices keep the
//!   order of the input cloud (the points that are not vertices are skipped). From
//!   [`ConvexPolyhedron::from_cuboid`], bit `k` of `i` is set when the vertex is at `+h_k` on axis
//!   `k` (the [`Cuboid`](crate::Cuboid) numbering).
//! * **Face(i)** is `face(i)`: a list of vertex indices, counter-clockwise seen from outside, with
//!   normal `face_normal(i)`. From `from_points` each face starts at its lowest vertex and faces
//!   are sorted lexicographically; from `from_cuboid` faces are `+x, −x, +y, −y, +z, −z`.
//! * **Edge(i)** is `edges()[i]`: its two vertices `a < b` and its two faces. Edges are sorted by
//!   `(a, b)`. `faces[0]` is the face in which the edge runs `a → b` (counter-clockwise),
//!   `faces[1]` the face in which it runs `b → a`.
//!
//! ## Adjacency
//! * face → vertices: [`ConvexPolyhedron::face`]; face → edges: [`ConvexPolyhedron::face_edges`]
//!   (edge `k` joins face vertices `k` and `k + 1`); face → faces through the edges'
//!   [`PolyhedronEdge::other_face`].
//! * edge → vertices and faces: [`PolyhedronEdge`].
//! * vertex → vertices and edges: [`ConvexPolyhedron::vertex_neighbors`] and
//!   [`ConvexPolyhedron::vertex_edges`], in counter-clockwise order around the vertex seen from
//!   outside. They are stored in compressed-sparse-row form (one offsets array and one flat
//!   array), as are the faces, so a polyhedron is a handful of allocations however large it is.
//!
//! ## Support mapping and hill climbing
//! [`SupportMap::local_core_support`] scans every vertex and returns the lowest index among the
//! maximisers of `v · dir`. In `f32` the scan reads the vertex lanes (coordinates by axis, see
//! below) eight at a time with `wide::f32x8`, each lane keeping its best value and the first
//! index it was seen at, and merges the lanes without a branch per lane; `f64` scans four
//! interleaved scalar lanes. Both give exactly the sequential scan's index.
//! [`SupportMap::local_core_support_hinted`] does the same scan for small polyhedra (at most
//! [`ConvexPolyhedron::SCAN_LIMIT`] vertices), and for larger ones *hill climbs* (the distance
//! seed's "hill climbing"; van den Bergen, *Collision Detection in Interactive 3D Environments*,
//! 2004, §4.3.3): start at the hinted vertex, move to the neighbour
//! with the largest dot product while it is strictly larger, stop when no neighbour improves. On a
//! convex polyhedron a vertex that no neighbour beats is a global maximum (the vertex graph of the
//! maximising face of a linear function is connected, and every non-maximal vertex has an
//! improving edge), so the walk is exact. With a hint from the previous, nearby direction the walk
//! is a step or two: a handful of dot products instead of one per vertex.
//!
//! Ties: when the walk stops, it also visits the neighbours whose dot product is *exactly* equal
//! and returns the lowest index among that plateau. This gives the same vertex as the scan whenever
//! the computed maximisers are connected to each other through edges, which is always the case for
//! exact ties (such as a face of an axis-aligned box facing an axis). Where rounding makes two
//! mathematically tied vertices differ by an ulp the two methods may return different vertices,
//! whose dot products agree to rounding.
//!
//! ### Where the walk starts
//! A hint is only as good as the direction it was found for. Each vertex stores a unit direction
//! inside its normal cone (the normalised sum of its faces' normals); when the query direction is
//! more than about 18° away from the hint's (cosine below 0.95), or the hint is out of range (such
//! as `u32::MAX`, "no hint"), the walk starts instead from a *start map* built at construction:
//! the sphere of directions is cut into cells by the six faces of a cube and a 12 × 12 grid on
//! each, and every cell stores the support vertex of its centre direction. Finding the cell of a
//! direction takes a few comparisons and one division (no dot products), and the stored vertex
//! is within a step or two of the answer. On a 256-vertex ellipsoid that turns the long walks
//! after a sharp turn of the search direction (GJK's second direction, EPA jumping between faces:
//! 6–8 steps on average) into one or two steps. The cell is only a start: the walk still ends
//! on a vertex that no neighbour beats, so the answer does not depend on it.
//!
//! ### One step, four neighbours at a time
//! The neighbours of each vertex are stored again, by coordinate, in blocks of four lanes
//! (structure of arrays, padded with a copy of a real neighbour), so a step computes four dot
//! products per vector operation and keeps the lane-wise maxima without a branch per
//! neighbour; only when some neighbour improves is the block scanned again for its index. The
//! dot products are rounded exactly as `Vec3::dot` rounds them, so the walk and the scan agree
//! on every comparison.
//!
//! ## Tables for the separating axis test
//! The contact manifold of two polyhedra (the separating axis test in `kollide-narrowphase`)
//! scans every vertex of one shape per face of the other, and every edge of one per edge of the
//! other. What those scans read about a shape depends on the shape alone, so it is stored once
//! here rather than rebuilt per query, laid out for loops that vectorise:
//! [`ConvexPolyhedron::vertex_lanes`] (the vertex coordinates by axis, padded to a multiple of
//! eight), [`ConvexPolyhedron::edge_arcs`] (each edge as an arc on the Gauss map, eight edges
//! per [`EdgeArcs`] block), [`ConvexPolyhedron::edge_lengths`] and
//! [`ConvexPolyhedron::vertex_centroid`].
//!
//! ## Supporting feature
//! [`SupportFeatureMap`] returns the face whose normal maximises `normal · dir` (ties to the lowest
//! face index), with its vertices counter-clockwise seen from outside and ids `Vertex(j)`. It scans
//! the faces.
//!
//! ## Mass
//! Volume, centre of mass and inertia come from splitting the polyhedron into tetrahedra that
//! share an interior point (the mean of the vertices) and summing their second moments with the
//! closed form of a tetrahedron's covariance (Blow and Binstock, "How to find the inertia tensor
//! (or other mass properties) of a 3D solid body represented by a triangle mesh", 2004; Tonon,
//! "Explicit exact formulas for the 3-D tetrahedron inertia tensor in terms of its vertex
//! coordinates", J. Math. Stat. 2004). For the tetrahedron `(0, a, b, c)` with volume `V`:
//! `∫ x xᵀ dV = V/20 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ)` with `s = a + b + c`; the inertia tensor is
//! `tr(C)·I − C` for the total covariance `C`, moved to the centre of mass with the parallel-axis
//! theorem.
//!
//! ```
//! use kollide_math::{Point3, Vec3};
//! use kollide_shapes::{ConvexPolyhedron, SupportMap};
//! let cube = ConvexPolyhedron::from_cuboid(Vec3::new(1.0f64, 1.0, 1.0)).unwrap();
//! assert_eq!((cube.vertices().len(), cube.num_faces(), cube.edges().len()), (8, 6, 12));
//! assert_eq!(cube.local_support_point(&Vec3::new(1.0, 2.0, 3.0)), Point3::new(1.0, 1.0, 1.0));
//! ```

use kollide_math::{Mat3, Point3, Pose, Scalar, UnitVec3, Vec3};

use crate::{
    Aabb, BoundingVolume, FeatureId, HasMass3, MassProperties3, ShapeError, SupportFeature,
    SupportFeatureMap, SupportMap, hull3d::polygon_normal, mass::check_density, validate,
};

/// One edge of a [`ConvexPolyhedron`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PolyhedronEdge {
    /// The two vertex indices, lower first.
    pub vertices: [u32; 2],
    /// The two adjacent faces: `faces[0]` holds the edge as `vertices[0] → vertices[1]` in its
    /// counter-clockwise loop, `faces[1]` as `vertices[1] → vertices[0]`.
    pub faces: [u32; 2],
}

impl PolyhedronEdge {
    /// The face on the other side of this edge from `face` (`faces[0]` if `face` is neither).
    #[inline]
    pub fn other_face(&self, face: u32) -> u32 {
        if self.faces[0] == face { self.faces[1] } else { self.faces[0] }
    }
}

/// A convex polyhedron: vertices, polygon faces with outward normals, edges and adjacency.
///
/// Built only by validated constructors, so it is always closed, convex and outward-wound.
///
/// **Feature numbering.** `Vertex(i)` is `vertices()[i]` (from [`Self::from_points`], in the order
/// of the input cloud, non-vertices skipped; from [`Self::from_cuboid`], bit `k` of `i` set when
/// the vertex is at `+h_k`). `Face(i)` is [`Self::face`]`(i)`, counter-clockwise seen from outside,
/// with outward normal [`Self::face_normal`]`(i)` (from `from_cuboid`: `+x, −x, +y, −y, +z, −z`).
/// `Edge(i)` is `edges()[i]`, sorted by vertex pair; see [`PolyhedronEdge`].
///
/// **Support.** [`SupportMap::local_core_support`] scans the vertices (lowest index among the
/// maximisers). [`SupportMap::local_core_support_hinted`] scans up to [`Self::SCAN_LIMIT`]
/// vertices and hill climbs over [`Self::vertex_neighbors`] from the hint above that. On
/// exact ties it walks the plateau of equal dot products and returns its lowest index, the same
/// vertex as the scan whenever the tied vertices are joined by edges. Otherwise the result's dot
/// product equals the maximum up to rounding. Out-of-range hints, and hints whose normal cone is
/// far from `dir`, start from the vertex stored for `dir`'s cell of a map of directions built at
/// construction.
/// [`SupportFeatureMap`] returns the face whose normal maximises `normal · dir` (lowest index on
/// ties).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolyhedron<N: Scalar> {
    vertices: Vec<Point3<N>>,
    face_offsets: Vec<u32>,
    face_vertices: Vec<u32>,
    face_edges: Vec<u32>,
    normals: Vec<UnitVec3<N>>,
    edges: Vec<PolyhedronEdge>,
    vertex_offsets: Vec<u32>,
    vertex_neighbors: Vec<u32>,
    vertex_edges: Vec<u32>,
    /// Data computed once for queries, boxed so the polyhedron stays as small as it was (it is
    /// a variant of the shape enums).
    cache: Box<QueryCache<N>>,
}

/// What [`ConvexPolyhedron`] precomputes for its queries.
#[derive(Clone, Debug, PartialEq)]
struct QueryCache<N: Scalar> {
    /// The neighbours of every vertex for hill climbing, in [`LaneBlock`]s: vertex `i` owns
    /// `blocks[block_offsets[i]..block_offsets[i + 1]]`, its [`ConvexPolyhedron::vertex_neighbors`]
    /// in order, the last block padded with copies of its first neighbour.
    blocks: Vec<LaneBlock<N>>,
    /// Where each vertex's blocks start (one entry per vertex, plus the end).
    block_offsets: Vec<u32>,
    /// A unit direction inside each vertex's normal cone (the normalised sum of the normals of
    /// its faces): a hint whose direction is far from the query's is not worth climbing from.
    vertex_normals: Vec<Vec3<N>>,
    /// The largest vertex norm ([`SupportMap::bounding_radius`]).
    bounding_radius: N,
    /// [`ConvexPolyhedron::face_flatness`].
    flatness: N,
    /// The support vertex of the centre direction of every cell of the [`StartMap`]: hill
    /// climbing without a usable hint starts from the cell that the query direction falls in.
    starts: Vec<u32>,
    /// The tables of [`ConvexPolyhedron::vertex_lanes`], [`ConvexPolyhedron::edge_arcs`] and
    /// the vertex centroid.
    sat: SatTables<N>,
}

/// Shape-only data for the separating axis test between two polyhedra, computed once so that a
/// query reads it instead of rebuilding it (see [`ConvexPolyhedron::vertex_lanes`] and
/// [`ConvexPolyhedron::edge_arcs`]).
#[derive(Clone, Debug, PartialEq)]
struct SatTables<N: Scalar> {
    /// The vertex coordinates by axis, padded to a multiple of [`ConvexPolyhedron::LANES`] with
    /// copies of vertex 0.
    lanes: [Vec<N>; 3],
    /// The edges on the Gauss map, eight per block, the last block padded with zeros.
    arcs: Vec<EdgeArcs<N>>,
    /// The length of every edge.
    lengths: Vec<N>,
    /// The mean of the vertices.
    centroid: Point3<N>,
}

impl<N: Scalar> SatTables<N> {
    fn new(vertices: &[Point3<N>], normals: &[UnitVec3<N>], edges: &[PolyhedronEdge]) -> Self {
        let padded = vertices.len().next_multiple_of(ConvexPolyhedron::<N>::LANES);
        let lanes = core::array::from_fn(|axis| {
            (0..padded).map(|k| vertices.get(k).unwrap_or(&vertices[0])[axis]).collect()
        });
        let zero = [[N::zero(); 8]; 3];
        let mut arcs = Vec::with_capacity(edges.len().div_ceil(8));
        for chunk in edges.chunks(8) {
            let mut block = EdgeArcs { arc: zero, n0: zero, n1: zero };
            for (l, e) in chunk.iter().enumerate() {
                let n0 = normals[e.faces[0] as usize].into_inner();
                let n1 = normals[e.faces[1] as usize].into_inner();
                let (c, d) = (-n0, -n1);
                let d_x_c = d.cross(&c);
                for k in 0..3 {
                    block.arc[k][l] = d_x_c[k];
                    block.n0[k][l] = n0[k];
                    block.n1[k][l] = n1[k];
                }
            }
            arcs.push(block);
        }
        let lengths = edges
            .iter()
            .map(|e| (vertices[e.vertices[1] as usize] - vertices[e.vertices[0] as usize]).norm())
            .collect();
        let count = N::from_count(vertices.len());
        let sum = vertices.iter().fold(Vec3::zeros(), |s, v| s + v.coords);
        Self { lanes, arcs, lengths, centroid: Point3::from(sum / count) }
    }
}

/// Eight edges of a [`ConvexPolyhedron`] on the Gauss map (the unit sphere of directions), by
/// coordinate: `arc[k][l]` is coordinate `k` of lane `l`'s vector. An edge is the arc between
/// the normals `n₀`, `n₁` of its two faces (`faces[0]`, `faces[1]` of [`PolyhedronEdge`]); in
/// the Minkowski difference `A − B`, B's edges become the arcs between `c = −n₀` and `d = −n₁`,
/// whose plane has the normal `d × c`. The separating axis test's Gauss-map pruning reads these
/// for every edge of B against each edge of A, eight lanes at a time without branches.
/// Lanes past the last edge are zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeArcs<N: Scalar> {
    /// `d × c = (−n₁) × (−n₀)`: the normal of the plane of the edge's arc in `A − B`.
    pub arc: [[N; 8]; 3],
    /// The normal of the edge's first face.
    pub n0: [[N; 8]; 3],
    /// The normal of the edge's second face.
    pub n1: [[N; 8]; 3],
}

/// Four vertices with their coordinates stored by lane (structure of arrays), so that the four
/// dot products with a direction are one vector operation and the best lane is kept without
/// branches. A vertex's neighbours fill one or more blocks; padding repeats a real neighbour,
/// which changes neither the maximum nor whether a neighbour ties.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(16))]
struct LaneBlock<N: Scalar> {
    x: [N; 4],
    y: [N; 4],
    z: [N; 4],
    /// The vertex index of each lane.
    id: [u32; 4],
}

impl<N: Scalar> LaneBlock<N> {
    /// Packs the vertices `ids` (at least one) into blocks of four, padding the last block with
    /// copies of `ids[0]`.
    fn pack(vertices: &[Point3<N>], ids: &[u32], out: &mut Vec<Self>) {
        for chunk in ids.chunks(4) {
            let id: [u32; 4] = core::array::from_fn(|l| chunk.get(l).copied().unwrap_or(ids[0]));
            let p = id.map(|i| vertices[i as usize]);
            out.push(Self { x: p.map(|p| p.x), y: p.map(|p| p.y), z: p.map(|p| p.z), id });
        }
    }
}

/// The best of the vertices in `blocks` in direction `dir` against the running maximum `best`:
/// returns the largest dot product when it is strictly above `best` (with its vertex; `u32::MAX`
/// otherwise), and whether some vertex's dot product equals `best` exactly. The dot product is
/// computed as `(x·dx + y·dy) + z·dz`, the same rounding as `Vec3::dot`, so the scan and the
/// climb agree on ties.
///
/// The first pass keeps only the lane-wise maxima (which vectorises, with no branch per lane);
/// only when a vertex beats `best` does a second pass recompute the dot products, bit for bit
/// the same, to find which vertex it was.
#[inline(always)]
fn best_of_blocks<N: Scalar>(blocks: &[LaneBlock<N>], dir: &Vec3<N>, best: N) -> (N, u32, bool) {
    let (dx, dy, dz) = (dir.x, dir.y, dir.z);
    let dots = |b: &LaneBlock<N>| -> [N; 4] {
        core::array::from_fn(|l| (b.x[l] * dx + b.y[l] * dy) + b.z[l] * dz)
    };
    let mut val = [best; 4];
    let mut tie = [false; 4];
    for b in blocks {
        let d = dots(b);
        for l in 0..4 {
            tie[l] |= d[l] == best;
        }
        for l in 0..4 {
            val[l] = if d[l] > val[l] { d[l] } else { val[l] };
        }
    }
    let tie = tie[0] | tie[1] | tie[2] | tie[3];
    let a = if val[1] > val[0] { val[1] } else { val[0] };
    let c = if val[3] > val[2] { val[3] } else { val[2] };
    let top = if c > a { c } else { a };
    if top > best {
        for b in blocks {
            let d = dots(b);
            let hit = (0..4).fold(0u32, |m, l| m | (u32::from(d[l] == top) << l));
            if hit != 0 {
                return (top, b.id[hit.trailing_zeros() as usize], tie);
            }
        }
    }
    (best, u32::MAX, tie)
}

/// The squared cosine of the widest angle between a hint's vertex normal and the query direction
/// for which climbing starts from the hint rather than from the [`StartMap`].
const START_COS2: f64 = 0.95 * 0.95;

/// Where hill climbing starts without a hint: the sphere of directions cut into cells by the
/// faces of a cube (the dominant axis and its sign) and a `SIDE × SIDE` grid on each face (the
/// two other components divided by the dominant one). Finding a direction's cell takes a few
/// comparisons and one division, and the vertex stored for the cell's centre is within a step or
/// two of the support vertex of any direction in the cell.
struct StartMap;

impl StartMap {
    /// Grid cells along each side of a cube face.
    const SIDE: usize = 12;
    /// The number of cells: six faces of `SIDE × SIDE`.
    const CELLS: usize = 6 * Self::SIDE * Self::SIDE;

    /// The cell of `dir`; `None` when its largest component is zero or NaN (a NaN elsewhere
    /// lands in grid row or column 0). Cell `((2 a + s) · SIDE + i) · SIDE + j` holds the
    /// directions whose largest component (in absolute value) is on axis `a` with sign `s` (0
    /// for positive), and whose components on the next two axes, divided by that one's
    /// magnitude, fall in column `i` and row `j` of the grid over `[−1, 1]²`.
    #[inline]
    fn cell<N: Scalar>(dir: &Vec3<N>) -> Option<usize> {
        let d = [dir.x.to_f64(), dir.y.to_f64(), dir.z.to_f64()];
        let m = d.map(f64::abs);
        let a = if m[0] >= m[1] && m[0] >= m[2] {
            0
        } else if m[1] >= m[2] {
            1
        } else {
            2
        };
        if m[a].is_nan() || m[a] == 0.0 {
            return None;
        }
        let half = Self::SIDE as f64 * 0.5;
        let scale = half / m[a];
        // Saturating casts: rounding at the edges of `[−1, 1]` cannot leave the grid.
        let at = |x: f64| ((x * scale + half) as usize).min(Self::SIDE - 1);
        let (i, j) = (at(d[(a + 1) % 3]), at(d[(a + 2) % 3]));
        let s = usize::from(d[a] < 0.0);
        Some(((2 * a + s) * Self::SIDE + i) * Self::SIDE + j)
    }

    /// The centre direction of cell `c` (unnormalised).
    fn centre<N: Scalar>(c: usize) -> Vec3<N> {
        let (j, i, face) =
            (c % Self::SIDE, (c / Self::SIDE) % Self::SIDE, c / (Self::SIDE * Self::SIDE));
        let (a, sign) = (face / 2, if face % 2 == 0 { 1.0 } else { -1.0 });
        let grid = |k: usize| (k as f64 + 0.5) * 2.0 / Self::SIDE as f64 - 1.0;
        let mut d = [0.0; 3];
        d[a] = sign;
        d[(a + 1) % 3] = grid(i);
        d[(a + 2) % 3] = grid(j);
        Vec3::new(N::lit(d[0]), N::lit(d[1]), N::lit(d[2]))
    }
}

impl<N: Scalar> ConvexPolyhedron<N> {
    /// Polyhedra with at most this many vertices answer hinted support queries with a linear
    /// scan, which is as fast as hill climbing at that size (measured in `f32`: a scan costs
    /// about 1.2 ns per vertex, a climb 90–130 ns from a cold or unrelated hint and 30–35 ns
    /// from a nearby one at 48 vertices, before the four-lane steps; with them, EPA on
    /// 32-vertex hulls is still about 15% faster scanning than climbing).
    pub const SCAN_LIMIT: usize = 48;

    /// The convex hull of a point cloud (see [`convex_hull_3d`](crate::convex_hull_3d)).
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`] (fewer than 4), [`ShapeError::NonFinite`] (naming the point),
    /// [`ShapeError::Degenerate`] (`"coincident"`, `"collinear"`, `"coplanar"`: no volume),
    /// [`ShapeError::OutOfEnvelope`] for a coordinate beyond [`Scalar::MAX_COORDINATE`] or an
    /// extent (longest side of the bounding box) outside
    /// [`Scalar::MIN_SIZE`]..=`2 ·`[`Scalar::MAX_SIZE`].
    ///
    /// ```
    /// use kollide_math::Point3;
    /// use kollide_shapes::{ConvexPolyhedron, ShapeError};
    /// let tet = ConvexPolyhedron::from_points(&[
    ///     Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
    ///     Point3::new(0.0, 1.0, 0.0), Point3::new(0.0, 0.0, 1.0),
    /// ]).unwrap();
    /// assert_eq!(tet.num_faces(), 4);
    /// let flat = [Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0),
    ///     Point3::new(0.0, 1.0, 0.0), Point3::new(1.0, 1.0, 0.0)];
    /// assert_eq!(ConvexPolyhedron::from_points(&flat), Err(ShapeError::Degenerate("coplanar")));
    /// ```
    pub fn from_points(points: &[Point3<N>]) -> Result<Self, ShapeError> {
        let hull = crate::convex_hull_3d(points)?;
        validate::extent(&hull.vertices)?;
        Self::from_parts(hull.vertices, hull.faces, Some(hull.normals))
    }

    /// A flat convex polygon in 3D: the convex hull of `points`, which must lie on one plane,
    /// stored as a polyhedron with two faces, the polygon seen from each side.
    ///
    /// The vertices are the hull's corners in order around the polygon (points inside it or on
    /// its edges, repeated points and nearly collinear corners are merged away, as
    /// [`crate::convex_hull_2d`] does). Face 0 is `[0, 1, …, k − 1]`, with the normal `n` from
    /// which that order is counter-clockwise; face 1 is the same loop the other way round,
    /// `[0, k − 1, …, 1]`, with normal `−n`. Every edge `i → i + 1` is shared by the two faces.
    /// `n` is chosen so that the input points, in the order given, turn counter-clockwise about
    /// it (Newell's normal of the input sequence); for an unordered cloud whose Newell sum cancels
    /// out, either side may come first.
    ///
    /// The shape answers every support-mapping query (`contact`, `distance`, `ray_cast`,
    /// `manifold3`, hill climbing on its cycle of vertices); [`Self::is_flat`] tells it apart.
    /// Having no volume, it has no mass: [`HasMass3::mass_properties`] fails with
    /// [`ShapeError::NoMass`], so it can only belong to a static body.
    ///
    /// # Errors
    /// * [`ShapeError::TooFewPoints`] for fewer than three points;
    /// * [`ShapeError::NonFinite`] / [`ShapeError::OutOfEnvelope`] for a bad coordinate, or an
    ///   extent outside [`Scalar::MIN_SIZE`]..=`2 ·`[`Scalar::MAX_SIZE`];
    /// * [`ShapeError::Degenerate`] (`"coincident"`, `"collinear"`) when the points span no area;
    /// * [`ShapeError::NotCoplanar`] naming the point farthest from the plane when it is more than
    ///   four times [`crate::hull_tolerance_3d`] away (use [`Self::from_points`] for a solid).
    ///
    /// ```
    /// use kollide_math::{Point3, Vec3};
    /// use kollide_shapes::{ConvexPolyhedron, HasMass3, ShapeError, SupportMap};
    /// let square = [
    ///     Point3::new(-1.0f64, 0.0, -1.0), Point3::new(-1.0, 0.0, 1.0),
    ///     Point3::new(1.0, 0.0, 1.0), Point3::new(1.0, 0.0, -1.0),
    ///     Point3::new(0.0, 0.0, 0.0), // inside: merged away
    /// ];
    /// let floor = ConvexPolyhedron::from_coplanar_points(&square).unwrap();
    /// assert!(floor.is_flat());
    /// assert_eq!((floor.vertices().len(), floor.num_faces(), floor.edges().len()), (4, 2, 4));
    /// assert_eq!(floor.face_normal(0).y, 1.0); // counter-clockwise seen from +y
    /// assert_eq!(floor.local_support_point(&Vec3::new(1.0, 1.0, 1.0)), Point3::new(1.0, 0.0, 1.0));
    /// assert!(matches!(floor.mass_properties(1.0), Err(ShapeError::NoMass(_))));
    /// ```
    pub fn from_coplanar_points(points: &[Point3<N>]) -> Result<Self, ShapeError> {
        if points.len() < 3 {
            return Err(ShapeError::TooFewPoints { got: points.len(), needed: 3 });
        }
        validate::finite_points(points)?;
        let tol = crate::hull_tolerance_3d(points);
        let moved = crate::hull3d::centred(points);
        let n = flat_normal(&moved, tol)?;
        // Every point on the plane through the centred cloud's first point.
        let mut worst = (N::zero(), 0usize);
        for (i, q) in moved.iter().enumerate() {
            let d = n.dot(&(q - moved[0])).abs();
            if d > worst.0 {
                worst = (d, i);
            }
        }
        if worst.0 > tol * N::lit(4.0) {
            return Err(ShapeError::NotCoplanar { point: worst.1, distance: worst.0.to_f64() });
        }
        // The 2D hull in the plane's basis (u, v) with u × v = n: counter-clockwise about n.
        let u = geom_any_perpendicular(&n);
        let v = n.cross(&u);
        let flat: Vec<kollide_math::Point2<N>> = moved
            .iter()
            .map(|q| kollide_math::Point2::new(q.coords.dot(&u), q.coords.dot(&v)))
            .collect();
        let loop_ = crate::convex_hull_2d_indices(&flat)?;
        let vertices: Vec<Point3<N>> = loop_.iter().map(|&i| points[i]).collect();
        validate::extent(&vertices)?;
        let k = vertices.len() as u32;
        let top: Vec<u32> = (0..k).collect();
        let bottom: Vec<u32> = core::iter::once(0).chain((1..k).rev()).collect();
        let normals = vec![UnitVec3::new_unchecked(n), UnitVec3::new_unchecked(-n)];
        Self::from_parts(vertices, vec![top, bottom], Some(normals))
    }

    /// `true` for a flat polygon ([`Self::from_coplanar_points`]): two faces, no volume. The
    /// separating-axis manifold of two solid polyhedra does not apply to it (its edges have no
    /// arc on the Gauss map); `kollide-narrowphase` sends it to the general support-mapping
    /// path instead.
    #[inline]
    pub fn is_flat(&self) -> bool {
        self.normals.len() == 2
    }

    /// The box `{ p : |p_k| ≤ half_extents_k }`, with the [`Cuboid`](crate::Cuboid) numbering of
    /// vertices and faces. Fails unless every half extent is positive, finite and within
    /// [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    pub fn from_cuboid(half_extents: Vec3<N>) -> Result<Self, ShapeError> {
        validate::size_vector(&half_extents, "half extent")?;
        let h = half_extents;
        let vertices = (0..8u32)
            .map(|i| {
                let s = |bit: u32, x: N| if i & (1 << bit) != 0 { x } else { -x };
                Point3::new(s(0, h.x), s(1, h.y), s(2, h.z))
            })
            .collect();
        let faces = vec![
            vec![1, 3, 7, 5], // +x
            vec![0, 4, 6, 2], // −x
            vec![2, 6, 7, 3], // +y
            vec![0, 1, 5, 4], // −y
            vec![4, 5, 7, 6], // +z
            vec![0, 2, 3, 1], // −z
        ];
        Self::from_parts(vertices, faces, None)
    }

    /// Builds the adjacency of a closed, consistently wound polygon mesh.
    fn from_parts(
        vertices: Vec<Point3<N>>,
        faces: Vec<Vec<u32>>,
        normals: Option<Vec<UnitVec3<N>>>,
    ) -> Result<Self, ShapeError> {
        let bad = || ShapeError::Degenerate("not a closed polyhedron");
        let nv = vertices.len();
        let mut face_offsets = Vec::with_capacity(faces.len() + 1);
        let mut face_vertices = Vec::new();
        face_offsets.push(0u32);
        for f in &faces {
            if f.len() < 3 || f.iter().any(|&v| v as usize >= nv) {
                return Err(bad());
            }
            face_vertices.extend_from_slice(f);
            face_offsets.push(face_vertices.len() as u32);
        }
        let normals = match normals {
            Some(n) if n.len() == faces.len() => n,
            _ => faces.iter().map(|f| polygon_normal(&vertices, f)).collect(),
        };
        // Half-edges (from, to, face, slot in face_vertices), sorted by (from, to).
        let mut half: Vec<(u32, u32, u32, u32)> = Vec::with_capacity(face_vertices.len());
        for (fi, f) in faces.iter().enumerate() {
            let base = face_offsets[fi];
            for k in 0..f.len() {
                half.push((f[k], f[(k + 1) % f.len()], fi as u32, base + k as u32));
            }
        }
        half.sort_unstable();
        if half.windows(2).any(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1)) {
            return Err(bad());
        }
        let find = |from: u32, to: u32| half.binary_search_by_key(&(from, to), |h| (h.0, h.1)).ok();
        let mut edges = Vec::new();
        let mut face_edges = vec![0u32; face_vertices.len()];
        for &(a, b, f, slot) in &half {
            if a < b {
                let twin = find(b, a).ok_or_else(bad)?;
                let e = edges.len() as u32;
                edges.push(PolyhedronEdge { vertices: [a, b], faces: [f, half[twin].2] });
                face_edges[slot as usize] = e;
                face_edges[half[twin].3 as usize] = e;
            } else if find(b, a).is_none() {
                return Err(bad());
            }
        }
        // Vertex neighbours, counter-clockwise from outside: from the half-edge v → w in face f
        // (where u → v → w), the next one around v is v → u, in the face across u → v.
        let mut vertex_offsets = Vec::with_capacity(nv + 1);
        let mut vertex_neighbors = Vec::with_capacity(half.len());
        let mut vertex_edges = Vec::with_capacity(half.len());
        vertex_offsets.push(0u32);
        let mut start = 0usize;
        for v in 0..nv as u32 {
            while start < half.len() && half[start].0 < v {
                start += 1;
            }
            if start >= half.len() || half[start].0 != v {
                return Err(bad());
            }
            let degree = half[start..].iter().take_while(|h| h.0 == v).count();
            let mut h = start;
            for step in 0..degree {
                if step > 0 && h == start {
                    return Err(bad());
                }
                let (_, w, f, slot) = half[h];
                vertex_neighbors.push(w);
                vertex_edges.push(face_edges[slot as usize]);
                let (lo, hi) = (face_offsets[f as usize], face_offsets[f as usize + 1]);
                let prev_slot = if slot == lo { hi - 1 } else { slot - 1 };
                let u = face_vertices[prev_slot as usize];
                h = find(v, u).ok_or_else(bad)?;
            }
            if h != start {
                return Err(bad());
            }
            vertex_offsets.push(vertex_neighbors.len() as u32);
        }
        let bounding_radius = vertices.iter().fold(N::zero(), |m, v| m.max_of(v.coords.norm()));
        let mut blocks = Vec::with_capacity(2 * nv);
        let mut block_offsets = Vec::with_capacity(nv + 1);
        block_offsets.push(0u32);
        for v in 0..nv {
            let nb = &vertex_neighbors[vertex_offsets[v] as usize..vertex_offsets[v + 1] as usize];
            LaneBlock::pack(&vertices, nb, &mut blocks);
            block_offsets.push(blocks.len() as u32);
        }
        let mut vertex_normals = vec![Vec3::zeros(); nv];
        let mut flatness = N::zero();
        for (f, n) in normals.iter().enumerate() {
            let (mut lo, mut hi) = (N::MAX, -N::MAX);
            for &v in &face_vertices[face_offsets[f] as usize..face_offsets[f + 1] as usize] {
                vertex_normals[v as usize] += n.into_inner();
                let h = n.dot(&vertices[v as usize].coords);
                (lo, hi) = (lo.min_of(h), hi.max_of(h));
            }
            flatness = flatness.max_of(hi - lo);
        }
        for n in &mut vertex_normals {
            *n = n.try_normalize(N::zero()).unwrap_or_else(Vec3::zeros);
        }
        let mut shape = Self {
            cache: Box::new(QueryCache {
                blocks,
                block_offsets,
                vertex_normals,
                bounding_radius,
                flatness,
                starts: Vec::new(),
                sat: SatTables::new(&vertices, &normals, &edges),
            }),
            vertices,
            face_offsets,
            face_vertices,
            face_edges,
            normals,
            edges,
            vertex_offsets,
            vertex_neighbors,
            vertex_edges,
        };
        // Small polyhedra are scanned rather than climbed (see `SCAN_LIMIT`): no map for them.
        if shape.vertices.len() > Self::SCAN_LIMIT {
            shape.cache.starts = shape.start_map();
        }
        Ok(shape)
    }

    /// The [`StartMap`]'s vertices: the support vertex of each cell's centre direction, found by
    /// hill climbing from the previous cell's (neighbouring cells' directions are a few degrees
    /// apart, so each climb is a step or two instead of a scan of every vertex). While the map
    /// is empty (as it stays for polyhedra of at most [`Self::SCAN_LIMIT`] vertices), a climb
    /// whose hint is rejected starts from vertex 0; it is exact from anywhere.
    fn start_map(&self) -> Vec<u32> {
        let mut starts = Vec::with_capacity(StartMap::CELLS);
        let mut row_start = u32::MAX;
        for c in 0..StartMap::CELLS {
            // The first cell of a row continues from the first cell of the previous row.
            let hint = if c % StartMap::SIDE == 0 {
                row_start
            } else {
                starts.last().copied().unwrap_or(u32::MAX)
            };
            let v = self.climb(&StartMap::centre(c), hint).0;
            if c % StartMap::SIDE == 0 {
                row_start = v;
            }
            starts.push(v);
        }
        starts
    }

    /// The padding unit of [`Self::vertex_lanes`].
    pub const LANES: usize = 8;

    /// The vertex coordinates by axis (`[xs, ys, zs]`, `xs[i]` the x of vertex `i`), padded to a
    /// multiple of [`Self::LANES`] with copies of vertex 0: a loop over all vertices in chunks
    /// of eight vectorises, and the padding changes no minimum or maximum.
    #[inline]
    pub fn vertex_lanes(&self) -> [&[N]; 3] {
        let [x, y, z] = &self.cache.sat.lanes;
        [x, y, z]
    }

    /// The edges on the Gauss map, eight per block in [`Self::edges`] order (edge `8 b + l` is
    /// lane `l` of block `b`); see [`EdgeArcs`].
    #[inline]
    pub fn edge_arcs(&self) -> &[EdgeArcs<N>] {
        &self.cache.sat.arcs
    }

    /// The length of every edge, in [`Self::edges`] order.
    #[inline]
    pub fn edge_lengths(&self) -> &[N] {
        &self.cache.sat.lengths
    }

    /// How far the vertices of a face may lie from one plane: the largest spread, over the
    /// faces, of `normal · v` over the face's vertices.
    ///
    /// A face of [`Self::from_points`] merges triangles that are coplanar within the hull's
    /// tolerance, so its vertices lie on its plane only to within that tolerance (zero up to
    /// rounding for boxes and for hulls whose faces are exact triangles). Separations measured
    /// against face planes, as the separating axis test measures them, are exact to this much.
    #[inline]
    pub fn face_flatness(&self) -> N {
        self.cache.flatness
    }

    /// The mean of the vertices.
    #[inline]
    pub fn vertex_centroid(&self) -> Point3<N> {
        self.cache.sat.centroid
    }

    /// The vertices (Vertex(i) is `vertices()[i]`).
    #[inline]
    pub fn vertices(&self) -> &[Point3<N>] {
        &self.vertices
    }

    /// The number of faces.
    #[inline]
    pub fn num_faces(&self) -> usize {
        self.normals.len()
    }

    /// The vertex indices of face `i`, counter-clockwise seen from outside. Panics if
    /// `i >= num_faces()`.
    #[inline]
    pub fn face(&self, i: usize) -> &[u32] {
        &self.face_vertices[self.face_offsets[i] as usize..self.face_offsets[i + 1] as usize]
    }

    /// The edge indices of face `i`: edge `k` joins `face(i)[k]` and `face(i)[k + 1]`.
    #[inline]
    pub fn face_edges(&self, i: usize) -> &[u32] {
        &self.face_edges[self.face_offsets[i] as usize..self.face_offsets[i + 1] as usize]
    }

    /// Every face's vertex list, in face order.
    pub fn faces(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        (0..self.num_faces()).map(|i| self.face(i))
    }

    /// The outward unit normal of face `i`.
    #[inline]
    pub fn face_normal(&self, i: usize) -> &UnitVec3<N> {
        &self.normals[i]
    }

    /// The outward unit normals of all faces.
    #[inline]
    pub fn face_normals(&self) -> &[UnitVec3<N>] {
        &self.normals
    }

    /// The edges (Edge(i) is `edges()[i]`), sorted by their vertex pair.
    #[inline]
    pub fn edges(&self) -> &[PolyhedronEdge] {
        &self.edges
    }

    /// The vertices joined to vertex `i` by an edge, counter-clockwise around it seen from outside.
    #[inline]
    pub fn vertex_neighbors(&self, i: usize) -> &[u32] {
        &self.vertex_neighbors[self.vertex_offsets[i] as usize..self.vertex_offsets[i + 1] as usize]
    }

    /// The edges at vertex `i`, in the same order as [`Self::vertex_neighbors`].
    #[inline]
    pub fn vertex_edges(&self, i: usize) -> &[u32] {
        &self.vertex_edges[self.vertex_offsets[i] as usize..self.vertex_offsets[i + 1] as usize]
    }

    /// The vertex with the largest `v · dir`, lowest index on ties, by a linear scan (eight
    /// vertices per step for `f32`; see the module docs).
    #[inline]
    pub fn support_vertex(&self, dir: &Vec3<N>) -> u32 {
        if let Some((lanes, d)) = as_f32(&self.cache.sat.lanes, dir) {
            return scan_lanes_f32(lanes, &d);
        }
        scan_vertices(&self.vertices, dir)
    }

    /// Hill climbs from vertex `start` to a vertex with the largest `v · dir` (an out-of-range
    /// `start`, such as `u32::MAX`, starts from the vertex stored at construction for the cell
    /// of directions that `dir` falls in); see the module docs for the tie rule.
    pub fn climb_support_vertex(&self, dir: &Vec3<N>, start: u32) -> u32 {
        self.climb(dir, start).0
    }

    /// Where a climb begins: the hint when it is in range and `dir` is within a cone around
    /// the hint's vertex normal, otherwise the higher (along `dir`) of the hint and the vertex
    /// of `dir`'s cell in the [`StartMap`]; with its dot product.
    #[inline]
    fn start(&self, dir: &Vec3<N>, hint: u32) -> (u32, N) {
        if let Some(n) = self.cache.vertex_normals.get(hint as usize) {
            let c = n.dot(dir);
            if c > N::zero() && c * c >= N::lit(START_COS2) * dir.norm_squared() {
                return (hint, self.vertices[hint as usize].coords.dot(dir));
            }
        }
        // A zero or NaN direction has no cell; any vertex is then as good as another.
        let v = StartMap::cell(dir).and_then(|c| self.cache.starts.get(c)).map_or(0, |&v| v);
        let from_cell = (v, self.vertices[v as usize].coords.dot(dir));
        // A hint outside its cone can still be the better start: on a cylinder hull the vertex
        // normals lean 45° between cap and side, and a climb around the side from the last
        // side face's vertex is a step where the cell's vertex is several.
        match self.vertices.get(hint as usize).map(|p| p.coords.dot(dir)) {
            Some(d) if d > from_cell.1 => (hint, d),
            _ => from_cell,
        }
    }

    /// Hill climbing; also returns its cost: the number of dot products computed (four per
    /// block of neighbours, padding included) and of comparisons with the plateau's list.
    fn climb(&self, dir: &Vec3<N>, start: u32) -> (u32, usize) {
        // Every vertex ties on a zero or NaN direction (a cast between overlapping hulls asks
        // for one): the lowest index is the answer, where the plateau walk would visit the
        // whole hull.
        let len2 = dir.norm_squared();
        if len2 == N::zero() || len2.is_nan_value() {
            return (0, 0);
        }
        let dot = |i: u32| self.vertices[i as usize].coords.dot(dir);
        let (mut v, mut best) = self.start(dir, start);
        let mut dots = 1usize;
        // Steepest ascent. Which of two equally good improving neighbours is taken does not
        // matter: the walk ends on the same plateau, and the plateau walk below picks its lowest
        // index. So the inner loop only compares, and only notes whether a neighbour ties.
        let offsets = &self.cache.block_offsets;
        let tie = loop {
            let (lo, hi) = (offsets[v as usize] as usize, offsets[v as usize + 1] as usize);
            let blocks = &self.cache.blocks[lo..hi];
            dots += 4 * blocks.len();
            let (next_dot, next, tie) = best_of_blocks(blocks, dir, best);
            if next == u32::MAX {
                break tie;
            }
            (v, best) = (next, next_dot);
        };
        if tie {
            // Walk the plateau of exactly equal dot products for its lowest index (inline
            // storage: a face's worth of tied vertices needs no allocation). The plateau is the
            // set of maximisers, so a plateau too large for that storage (a cylinder's cap of
            // hundreds of vertices along its axis) is settled by a scan of every vertex, which
            // gives the same vertex in linear time where the walk's list of those seen costs
            // time quadratic in the plateau's size.
            let mut seen: smallvec::SmallVec<[u32; PLATEAU]> = smallvec::smallvec![v];
            let mut head = 0;
            let mut lowest = v;
            while head < seen.len() {
                if seen.len() > PLATEAU {
                    let n = self.vertices.len();
                    return (scan_vertices(&self.vertices, dir), dots + n);
                }
                let u = seen[head];
                head += 1;
                for &w in self.vertex_neighbors(u as usize) {
                    dots += seen.len();
                    if !seen.contains(&w) {
                        dots += 1;
                        if dot(w) == best {
                            seen.push(w);
                            lowest = lowest.min(w);
                        }
                    }
                }
            }
            v = lowest;
        }
        (v, dots)
    }

    /// The face whose normal maximises `normal · dir`, lowest index on ties.
    pub fn support_face(&self, dir: &Vec3<N>) -> usize {
        let mut best = 0usize;
        let mut best_dot = self.normals[0].dot(dir);
        for (i, n) in self.normals.iter().enumerate().skip(1) {
            let d = n.dot(dir);
            if d > best_dot {
                (best, best_dot) = (i, d);
            }
        }
        best
    }
}

/// The most tied vertices that [`ConvexPolyhedron::climb`] walks before it scans them all.
const PLATEAU: usize = 16;

/// The lowest index among the vertices maximising `v · dir` (vertex 0 for a zero or NaN
/// direction), by a linear scan in four interleaved lanes: each lane keeps the lowest index of
/// its own maximum, and the lanes are merged by value, then index, which gives exactly the
/// sequential scan's answer with four independent dependency chains.
#[inline]
fn scan_vertices<N: Scalar>(vertices: &[Point3<N>], dir: &Vec3<N>) -> u32 {
    let dot = |p: &Point3<N>| p.coords.dot(dir);
    let n = vertices.len();
    if n < 8 {
        let mut best = 0u32;
        let mut best_dot = dot(&vertices[0]);
        for (i, v) in vertices.iter().enumerate().skip(1) {
            let d = dot(v);
            if d > best_dot {
                (best, best_dot) = (i as u32, d);
            }
        }
        return best;
    }
    let mut idx = [0u32, 1, 2, 3];
    let mut val = [dot(&vertices[0]), dot(&vertices[1]), dot(&vertices[2]), dot(&vertices[3])];
    // NaN never wins in the sequential scan: a NaN at index 0 keeps index 0, and one at the
    // start of another lane must not block the lane (−∞ loses every tie to a lower index).
    if val[0].is_nan_value() {
        return 0;
    }
    for v in &mut val[1..] {
        if v.is_nan_value() {
            *v = N::lit(f64::NEG_INFINITY);
        }
    }
    let chunks = vertices.chunks_exact(4);
    let rest = chunks.remainder();
    for (c, ch) in chunks.enumerate().skip(1) {
        let base = 4 * c as u32;
        for l in 0..4 {
            let d = dot(&ch[l]);
            if d > val[l] {
                (val[l], idx[l]) = (d, base + l as u32);
            }
        }
    }
    let (mut best, mut best_dot) = (idx[0], val[0]);
    for l in 1..4 {
        if val[l] > best_dot || (val[l] == best_dot && idx[l] < best) {
            (best, best_dot) = (idx[l], val[l]);
        }
    }
    let base = (n - rest.len()) as u32;
    for (i, v) in rest.iter().enumerate() {
        let d = dot(v);
        if d > best_dot {
            (best, best_dot) = (base + i as u32, d);
        }
    }
    best
}

/// The vertex lanes and the direction as `f32` when `N` is `f32` (`None` for `f64`), through
/// [`Scalar::as_f32_slice`]: a constant branch after monomorphisation, so the `f32` build takes
/// the SIMD scan and the `f64` build the generic one.
#[inline(always)]
fn as_f32<'a, N: Scalar>(
    lanes: &'a [Vec<N>; 3],
    dir: &Vec3<N>,
) -> Option<([&'a [f32]; 3], Vec3<f32>)> {
    let [x, y, z] = lanes;
    let lanes = [N::as_f32_slice(x)?, N::as_f32_slice(y)?, N::as_f32_slice(z)?];
    let d = N::as_f32_slice(dir.as_slice())?;
    Some((lanes, Vec3::new(d[0], d[1], d[2])))
}

/// [`scan_vertices`] for `f32` on the vertex lanes (coordinates by axis, padded to a multiple of
/// eight with copies of vertex 0), eight vertices per step with `wide::f32x8`: each lane keeps
/// the largest dot product it has seen and the index where it first saw it (a strict `>`, so the
/// lowest index of the lane's maximum), then the lanes are merged by value, then index. That is
/// exactly the sequential scan's answer: the dot products are rounded as `Vec3::dot` rounds them
/// (`(x·dx + y·dy) + z·dz`, no fused multiply-add), the padding ties with vertex 0 and loses to
/// its lower index, and a NaN dot product never wins (the lanes start at −∞ with index 0; a NaN
/// at vertex 0, which the sequential scan keeps, is tested first).
fn scan_lanes_f32(lanes: [&[f32]; 3], dir: &Vec3<f32>) -> u32 {
    use wide::f32x8;
    let [xs, ys, zs] = lanes;
    let (dx, dy, dz) = (f32x8::splat(dir.x), f32x8::splat(dir.y), f32x8::splat(dir.z));
    if ((xs[0] * dir.x + ys[0] * dir.y) + zs[0] * dir.z).is_nan() {
        return 0;
    }
    // Indices as f32: exact below 2²⁴, far above any hull's vertex count.
    debug_assert!(xs.len() < 1 << 24);
    let mut best = f32x8::splat(f32::NEG_INFINITY);
    let mut best_id = f32x8::splat(0.0);
    let mut id = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let step = f32x8::splat(8.0);
    let lane = |c: &[f32]| f32x8::new(c.try_into().unwrap_or([0.0; 8]));
    for ((x, y), z) in xs.chunks_exact(8).zip(ys.chunks_exact(8)).zip(zs.chunks_exact(8)) {
        let d = (lane(x) * dx + lane(y) * dy) + lane(z) * dz;
        let better = d.simd_gt(best);
        best = better.select(d, best);
        best_id = better.select(id, best_id);
        id += step;
    }
    // Merge without a branch per lane (which lane wins is data-dependent, such branches
    // mispredict): the largest value by a tree of maxima, then the lanes holding it as a bit
    // mask. Usually one lane holds it; otherwise (ties, padding) the lowest of their indices.
    let v = best.to_array();
    let max = |a: f32, b: f32| if b > a { b } else { a };
    let m = max(max(max(v[0], v[1]), max(v[2], v[3])), max(max(v[4], v[5]), max(v[6], v[7])));
    let holders = best.simd_eq(f32x8::splat(m)).to_bitmask();
    let ids = best_id.to_array();
    if holders.is_power_of_two() {
        return ids[holders.trailing_zeros() as usize & 7] as u32;
    }
    let mut lowest = f32::INFINITY;
    for (l, &i) in ids.iter().enumerate() {
        if holders & (1 << l) != 0 && i < lowest {
            lowest = i;
        }
    }
    lowest as u32
}

impl<N: Scalar> SupportMap<N, 3> for ConvexPolyhedron<N> {
    #[inline]
    fn polytope(&self) -> Option<&dyn crate::Polytope<N, 3>> {
        Some(self)
    }

    /// The clip against the faces' planes (the Cyrus–Beck clip of `ray_clip.rs`), up to its face
    /// count; not for flat hulls, whose two faces bound no volume.
    fn local_core_ray(
        &self,
        origin: &Vec3<N>,
        dir: &Vec3<N>,
        max_t: N,
    ) -> Option<crate::CoreRay<N, 3>> {
        if self.is_flat() || self.num_faces() > crate::ray_clip::MAX_CLIPPED_FACES {
            return None;
        }
        let planes = (0..self.num_faces()).map(|i| {
            let n = self.face_normal(i).into_inner();
            (n, n.dot(&self.vertices()[self.face(i)[0] as usize].coords))
        });
        Some(crate::ray_clip::clip_ray(planes, origin, dir, max_t))
    }

    #[inline]
    fn local_core_support(&self, dir: &Vec3<N>) -> Point3<N> {
        self.vertices[self.support_vertex(dir) as usize]
    }

    #[inline]
    fn local_core_support_hinted(&self, dir: &Vec3<N>, hint: &mut u32) -> Point3<N> {
        let v = if self.vertices.len() <= Self::SCAN_LIMIT {
            self.support_vertex(dir)
        } else {
            self.climb(dir, *hint).0
        };
        *hint = v;
        self.vertices[v as usize]
    }

    /// The largest vertex norm, computed at construction.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.cache.bounding_radius
    }
}

impl<N: Scalar> SupportFeatureMap<N, 3> for ConvexPolyhedron<N> {
    fn local_support_feature(&self, dir: &Vec3<N>, out: &mut SupportFeature<N, 3>) {
        let f = self.support_face(dir);
        out.reset(FeatureId::Face(f as u32));
        for &v in self.face(f) {
            out.push(self.vertices[v as usize], FeatureId::Vertex(v));
        }
    }
}

impl<N: Scalar> BoundingVolume<N, 3> for ConvexPolyhedron<N> {
    fn aabb<P: Pose<N, 3>>(&self, pose: &P) -> Aabb<N, 3> {
        let first = pose.transform_point(&self.vertices[0]);
        let mut out = Aabb::new(first, first);
        for v in &self.vertices[1..] {
            let p = pose.transform_point(v);
            out.mins = out.mins.inf(&p);
            out.maxs = out.maxs.sup(&p);
        }
        out
    }

    fn local_aabb(&self) -> Aabb<N, 3> {
        let mut out = Aabb::new(self.vertices[0], self.vertices[0]);
        for v in &self.vertices[1..] {
            out.mins = out.mins.inf(v);
            out.maxs = out.maxs.sup(v);
        }
        out
    }
}

/// The unit normal of the plane of a (centred) flat cloud, oriented by Newell's normal of the
/// sequence when that is clearly non-zero; fails when the cloud spans no area.
fn flat_normal<N: Scalar>(pts: &[Point3<N>], tol: N) -> Result<Vec3<N>, ShapeError> {
    // The two points farthest apart along an axis, then the point farthest from their line.
    let (mut i0, mut i1, mut best) = (0, 0, N::zero());
    for axis in 0..3 {
        let lo = (0..pts.len()).min_by(|&a, &b| {
            pts[a][axis].partial_cmp(&pts[b][axis]).unwrap_or(core::cmp::Ordering::Equal)
        });
        let hi = (0..pts.len()).max_by(|&a, &b| {
            pts[a][axis].partial_cmp(&pts[b][axis]).unwrap_or(core::cmp::Ordering::Equal)
        });
        if let (Some(lo), Some(hi)) = (lo, hi) {
            let d = (pts[hi] - pts[lo]).norm();
            if d > best {
                (i0, i1, best) = (lo, hi, d);
            }
        }
    }
    if best <= tol {
        return Err(ShapeError::Degenerate("coincident"));
    }
    let e = (pts[i1] - pts[i0]) / best;
    let (mut i2, mut far) = (0, N::zero());
    for (i, p) in pts.iter().enumerate() {
        let d = (p - pts[i0]).cross(&e).norm();
        if d > far {
            (i2, far) = (i, d);
        }
    }
    if far <= tol {
        return Err(ShapeError::Degenerate("collinear"));
    }
    let mut n = (pts[i1] - pts[i0]).cross(&(pts[i2] - pts[i0])).normalize();
    // Newell's normal of the input order: the side from which the sequence turns
    // counter-clockwise.
    let mut newell = Vec3::zeros();
    for (k, p) in pts.iter().enumerate() {
        newell += p.coords.cross(&pts[(k + 1) % pts.len()].coords);
    }
    if newell.dot(&n) < N::zero() {
        n = -n;
    }
    Ok(n)
}

/// A unit vector perpendicular to the unit vector `n`.
fn geom_any_perpendicular<N: Scalar>(n: &Vec3<N>) -> Vec3<N> {
    let a = if n.x.abs() < N::lit(0.6) { Vec3::x() } else { Vec3::y() };
    let u = a - n * n.dot(&a);
    u.normalize()
}

impl<N: Scalar> HasMass3<N> for ConvexPolyhedron<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        if self.is_flat() {
            return Err(ShapeError::NoMass("flat polygon"));
        }
        // Work relative to an interior point for accuracy.
        let mut o = Vec3::zeros();
        for v in &self.vertices {
            o += v.coords;
        }
        o /= N::from_count(self.vertices.len());
        let mut volume = N::zero();
        let mut first = Vec3::zeros(); // ∫ x dV
        let mut cov = Mat3::zeros(); // ∫ x xᵀ dV
        let twentieth = N::lit(1.0 / 20.0);
        for f in self.faces() {
            let a = self.vertices[f[0] as usize].coords - o;
            for k in 1..f.len() - 1 {
                let b = self.vertices[f[k] as usize].coords - o;
                let c = self.vertices[f[k + 1] as usize].coords - o;
                let v = a.dot(&b.cross(&c)) / N::lit(6.0);
                let s = a + b + c;
                volume += v;
                first += s * (v / N::lit(4.0));
                cov +=
                    (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose())
                        * (v * twentieth);
            }
        }
        let com = first / volume;
        // Parallel-axis: covariance about the centre of mass.
        let cov_c = cov - com * com.transpose() * volume;
        let inertia = (Mat3::identity() * cov_c.trace() - cov_c) * density;
        MassProperties3::checked(MassProperties3 {
            mass: volume * density,
            local_center: Point3::from(com + o),
            inertia,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MinkowskiDifference;
    use crate::cylinder::tests::random_dir;
    use crate::hull3d::tests::{Cloud, cloud, p3, sphere_points};
    use kollide_math::{Iso3, Rot3};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn v3<N: Scalar>(x: f64, y: f64, z: f64) -> Vec3<N> {
        Vec3::new(N::lit(x), N::lit(y), N::lit(z))
    }

    /// The cube `[-1, 1]³` from its corners shuffled among grid points, so that hull numbering
    /// differs from the cuboid one: corners end up as hull vertices 0..8 in input order.
    fn cube_cloud<N: Scalar>() -> Vec<Point3<N>> {
        let mut pts = vec![p3(0.0, 0.0, 1.0), p3(0.0, 0.0, 0.0)];
        for i in 0..8 {
            pts.push(p3(
                if i & 1 != 0 { 1.0 } else { -1.0 },
                if i & 2 != 0 { 1.0 } else { -1.0 },
                if i & 4 != 0 { 1.0 } else { -1.0 },
            ));
        }
        pts
    }

    fn support_index<N: Scalar>(shape: &ConvexPolyhedron<N>, dir: [f64; 3]) -> (u32, u32) {
        let d = v3::<N>(dir[0], dir[1], dir[2]);
        let p = shape.local_core_support(&d);
        let i = shape.vertices().iter().position(|v| *v == p).unwrap() as u32;
        assert_eq!(i, shape.support_vertex(&d));
        // Hill climbing from every start agrees on exact ties.
        for start in 0..shape.vertices().len() as u32 + 2 {
            assert_eq!(shape.climb_support_vertex(&d, start), i, "start {start}");
        }
        let mut hint = 99;
        assert_eq!(shape.local_core_support_hinted(&d, &mut hint), p);
        assert_eq!(hint, i);
        (i, shape.support_face(&d) as u32)
    }

    // (direction, support vertex, support face) for the cuboid numbering.
    #[rstest]
    #[case::corner([1.0, 2.0, 3.0], 7, 4)]
    #[case::corner_neg([-1.0, -1.0, -1.0], 0, 1)]
    #[case::face_px([1.0, 0.0, 0.0], 1, 0)]
    #[case::face_nx([-1.0, 0.0, 0.0], 0, 1)]
    #[case::face_py([0.0, 1.0, 0.0], 2, 2)]
    #[case::face_nz([0.0, 0.0, -2.0], 0, 5)]
    #[case::face_pz([0.0, 0.0, 0.5], 4, 4)]
    #[case::edge_px_py([1.0, 1.0, 0.0], 3, 0)]
    #[case::edge_nx_pz([-1.0, 0.0, 1.0], 4, 1)]
    #[case::edge_py_nz([0.0, 1.0, -1.0], 2, 2)]
    fn cuboid_support(#[case] dir: [f64; 3], #[case] vertex: u32, #[case] face: u32) {
        let a = ConvexPolyhedron::<f64>::from_cuboid(v3(1.0, 2.0, 3.0)).unwrap();
        assert_eq!(support_index(&a, dir), (vertex, face));
        let b = ConvexPolyhedron::<f32>::from_cuboid(v3(1.0, 2.0, 3.0)).unwrap();
        assert_eq!(support_index(&b, dir), (vertex, face));
    }

    // The same cube built as a hull: vertices keep the cuboid bit numbering (input order).
    #[rstest]
    #[case::corner([1.0, 2.0, 3.0], 7)]
    #[case::face_px([1.0, 0.0, 0.0], 1)]
    #[case::face_ny([0.0, -1.0, 0.0], 0)]
    #[case::face_pz([0.0, 0.0, 1.0], 4)]
    #[case::edge([0.0, 1.0, 1.0], 6)]
    fn hull_cube_support(#[case] dir: [f64; 3], #[case] vertex: u32) {
        let a = ConvexPolyhedron::<f64>::from_points(&cube_cloud()).unwrap();
        assert_eq!(a.vertices().len(), 8);
        assert_eq!(support_index(&a, dir).0, vertex);
        let b = ConvexPolyhedron::<f32>::from_points(&cube_cloud()).unwrap();
        assert_eq!(support_index(&b, dir).0, vertex);
    }

    fn adjacency_is_consistent<N: Scalar>(s: &ConvexPolyhedron<N>) {
        let nv = s.vertices().len();
        assert_eq!(nv + s.num_faces(), s.edges().len() + 2, "Euler");
        for (e, edge) in s.edges().iter().enumerate() {
            let [a, b] = edge.vertices;
            assert!(a < b);
            let runs = |f: u32, x: u32, y: u32| {
                let face = s.face(f as usize);
                (0..face.len()).any(|k| face[k] == x && face[(k + 1) % face.len()] == y)
            };
            assert!(runs(edge.faces[0], a, b) && runs(edge.faces[1], b, a));
            assert_eq!(edge.other_face(edge.faces[0]), edge.faces[1]);
            assert!(s.vertex_neighbors(a as usize).contains(&b));
            assert!(s.vertex_edges(b as usize).contains(&(e as u32)));
        }
        for f in 0..s.num_faces() {
            let face = s.face(f);
            for (k, &e) in s.face_edges(f).iter().enumerate() {
                let mut pair = [face[k], face[(k + 1) % face.len()]];
                pair.sort_unstable();
                assert_eq!(s.edges()[e as usize].vertices, pair);
            }
        }
        // Neighbours go counter-clockwise around each vertex seen from outside.
        let c = s.vertices().iter().map(|p| p.coords).sum::<Vec3<N>>() / N::from_count(nv);
        for v in 0..nv {
            let nb = s.vertex_neighbors(v);
            assert!(nb.len() >= 3);
            let p = s.vertices()[v];
            let out = p.coords - c;
            let mut turn = Vec3::zeros();
            for k in 0..nb.len() {
                let a = s.vertices()[nb[k] as usize] - p;
                let b = s.vertices()[nb[(k + 1) % nb.len()] as usize] - p;
                turn += a.cross(&b);
            }
            assert!(turn.dot(&out) > N::zero(), "vertex {v}");
        }
    }

    #[test]
    fn adjacency() {
        adjacency_is_consistent(&ConvexPolyhedron::<f32>::from_cuboid(v3(1.0, 2.0, 3.0)).unwrap());
        adjacency_is_consistent(
            &ConvexPolyhedron::<f64>::from_points(&sphere_points(100)).unwrap(),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..20 {
            let pts = cloud::<f64>(Cloud::Uniform, &mut rng);
            adjacency_is_consistent(&ConvexPolyhedron::from_points(&pts).unwrap());
            let pts = cloud::<f32>(Cloud::RotatedGrid, &mut rng);
            adjacency_is_consistent(&ConvexPolyhedron::from_points(&pts).unwrap());
        }
    }

    /// Hill climbing from random hints reaches the maximal dot product.
    fn climbing_is_exact<N: Scalar>(
        shape: &ConvexPolyhedron<N>,
        rng: &mut ChaCha8Rng,
        tries: usize,
    ) {
        let n = shape.vertices().len() as u32;
        let scale = shape.vertices().iter().map(|p| p.coords.norm().to_f64()).fold(0.0, f64::max);
        let tol = 8.0 * N::EPSILON.to_f64() * scale;
        for _ in 0..tries {
            let d = random_dir(rng);
            let dn = v3::<N>(d.x, d.y, d.z);
            let best = shape.local_core_support(&dn).coords.dot(&dn).to_f64();
            let scanned = shape
                .vertices()
                .iter()
                .map(|p| p.coords.dot(&dn).to_f64())
                .fold(f64::MIN, f64::max);
            assert_eq!(best, scanned);
            let start = rng.random_range(0..n + 3);
            let climbed = shape.climb_support_vertex(&dn, start);
            let got = shape.vertices()[climbed as usize].coords.dot(&dn).to_f64();
            assert!(got >= best - tol, "{got} < {best}");
            let mut hint = start;
            let p = shape.local_core_support_hinted(&dn, &mut hint);
            assert!(p.coords.dot(&dn).to_f64() >= best - tol);
            assert_eq!(shape.vertices()[hint as usize], p);
        }
    }

    fn random_hulls<N: Scalar>(seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for k in 0..60 {
            let kind = [Cloud::Uniform, Cloud::Sphere, Cloud::RotatedGrid, Cloud::Flat][k % 4];
            let pts = cloud::<N>(kind, &mut rng);
            let shape = ConvexPolyhedron::from_points(&pts).unwrap();
            climbing_is_exact(&shape, &mut rng, 100);
        }
        let sphere = ConvexPolyhedron::<N>::from_points(&sphere_points(256)).unwrap();
        assert_eq!(sphere.vertices().len(), 256);
        climbing_is_exact(&sphere, &mut rng, 3000);
    }

    /// `support_vertex` (the eight-lane scan for `f32`) returns exactly the sequential scan's
    /// index: random directions, the ties of axis-aligned ones on grids and cubes, and zero, NaN
    /// and infinite directions; vertex counts below, at and above multiples of eight.
    #[test]
    fn lane_scan_matches_the_sequential_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let mut special: Vec<Vec3<f32>> = vec![Vec3::zeros(), v3(f64::NAN, 1.0, 0.0)];
        for axis in 0..3 {
            for sign in [1.0, -1.0] {
                let mut d = [0.0; 3];
                d[axis] = sign;
                special.push(v3(d[0], d[1], d[2]));
                d[axis] = sign * f64::INFINITY;
                special.push(v3(d[0], d[1], d[2]));
            }
        }
        special.push(v3(1.0, 1.0, 0.0));
        special.push(v3(-1.0, 1.0, 1.0));
        special.push(v3(f64::INFINITY, -f64::INFINITY, 1.0));
        let mut shapes = vec![
            ConvexPolyhedron::from_cuboid(v3::<f32>(1.0, 2.0, 0.5)).unwrap(),
            ConvexPolyhedron::from_points(&cube_cloud::<f32>()).unwrap(),
        ];
        for k in 0..40 {
            let kind = [Cloud::Uniform, Cloud::Sphere, Cloud::RotatedGrid, Cloud::Flat][k % 4];
            shapes.push(ConvexPolyhedron::from_points(&cloud::<f32>(kind, &mut rng)).unwrap());
        }
        for n in [4, 7, 8, 9, 16, 31, 32, 33, 64] {
            shapes.push(ConvexPolyhedron::from_points(&sphere_points::<f32>(n)).unwrap());
        }
        for shape in &shapes {
            let dirs = special.iter().copied().chain((0..200).map(|_| {
                let d = random_dir(&mut rng);
                v3::<f32>(d.x, d.y, d.z)
            }));
            for d in dirs {
                assert_eq!(
                    shape.support_vertex(&d),
                    scan_vertices(shape.vertices(), &d),
                    "{} vertices, direction {d:?}",
                    shape.vertices().len()
                );
            }
        }
    }

    #[test]
    fn hill_climbing_on_random_hulls() {
        random_hulls::<f32>(21);
        random_hulls::<f64>(22);
    }

    #[test]
    fn warm_hill_climbing_is_cheap() {
        let shape = ConvexPolyhedron::<f64>::from_points(&sphere_points(256)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let (mut total, mut calls, mut worst_cold) = (0usize, 0usize, 0usize);
        for _ in 0..50 {
            // A slowly turning direction, as in successive GJK iterations or frames.
            let mut d = random_dir(&mut rng);
            let mut hint = 0u32;
            for _ in 0..40 {
                d = (d + random_dir(&mut rng) * 0.05).normalize();
                let (v, dots) = shape.climb(&d, hint);
                assert_eq!(v, shape.support_vertex(&d));
                hint = v;
                total += dots;
                calls += 1;
            }
            worst_cold = worst_cold.max(shape.climb(&d, 0).1);
        }
        let mean = total as f64 / calls as f64;
        assert!(mean < 20.0, "warm hill climbing used {mean} dot products per call");
        assert!(worst_cold < 256, "even a cold climb beats the scan: {worst_cold}");
    }

    #[test]
    fn a_zero_direction_costs_no_climb() {
        // Every vertex ties on it: the plateau walk visited all of them, each against the list
        // of those seen (a millisecond on 1000 vertices).
        let shape = ConvexPolyhedron::<f64>::from_points(&sphere_points(256)).unwrap();
        for hint in [0, 17, u32::MAX] {
            assert_eq!(shape.climb(&Vec3::zeros(), hint), (0, 0));
            assert_eq!(shape.climb(&v3(f64::NAN, 0.0, 0.0), hint), (0, 0));
        }
        assert_eq!(shape.support_vertex(&Vec3::zeros()), 0);
    }

    #[test]
    fn a_large_plateau_costs_a_scan_not_a_square() {
        // Two rings of 500 vertices: along the axis a whole cap ties.
        let ring = |y: f64| {
            (0..500).map(move |k| {
                let a = k as f64 * core::f64::consts::TAU / 500.0;
                Point3::new(a.cos(), y, a.sin())
            })
        };
        let pts: Vec<_> = ring(-1.0).chain(ring(1.0)).collect();
        let shape = ConvexPolyhedron::<f64>::from_points(&pts).unwrap();
        let n = shape.vertices().len();
        assert_eq!(n, 1000);
        for (dir, y) in [(v3(0.0, 1.0, 0.0), 1.0), (v3(0.0, -2.0, 0.0), -1.0)] {
            let lowest = (0..n).find(|&i| shape.vertices()[i].y == y).unwrap() as u32;
            for hint in [0, 600, u32::MAX] {
                let (v, dots) = shape.climb(&dir, hint);
                assert_eq!(v, lowest);
                // The walk compared each of 500 tied vertices with the list of those seen.
                assert!(dots < 4 * n, "cost {dots}");
            }
        }
    }

    #[test]
    fn start_map() {
        for c in 0..StartMap::CELLS {
            assert_eq!(StartMap::cell(&StartMap::centre::<f64>(c)), Some(c));
        }
        assert_eq!(StartMap::cell(&Vec3::<f64>::zeros()), None);
        assert_eq!(StartMap::cell(&v3::<f64>(f64::NAN, 0.0, 0.0)), None);
        assert!(StartMap::cell(&v3::<f32>(f64::NAN, 1.0, 0.0)).is_some());
        // Cold climbs (no hint) start from the map: exact, and a step or two.
        let shape = ConvexPolyhedron::<f64>::from_points(&sphere_points(256)).unwrap();
        assert_eq!(shape.cache.starts.len(), StartMap::CELLS);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut total = 0;
        for _ in 0..500 {
            let d = random_dir(&mut rng);
            let (v, dots) = shape.climb(&d, u32::MAX);
            assert_eq!(v, shape.support_vertex(&d));
            total += dots;
        }
        let mean = total as f64 / 500.0;
        assert!(mean < 24.0, "cold hill climbing used {mean} dot products per call");
        // Small polyhedra are scanned, so they have no map; a cold climb is still exact.
        let cube = ConvexPolyhedron::<f64>::from_points(&cube_cloud()).unwrap();
        assert!(cube.cache.starts.is_empty());
        assert_eq!(cube.climb_support_vertex(&v3(1.0, 1.0, 1.0), u32::MAX), 7);
    }

    #[test]
    fn minkowski_difference_keeps_hints() {
        let a = ConvexPolyhedron::<f64>::from_points(&sphere_points(64)).unwrap();
        let b = ConvexPolyhedron::<f64>::from_cuboid(v3(0.5, 0.5, 0.5)).unwrap();
        let md = MinkowskiDifference::new(&a, &b, Iso3::new(v3(3.0, 0.0, 0.0), Vec3::zeros()));
        let d = v3(1.0, 0.2, 0.1);
        let s = md.support(&d);
        assert_eq!(s.a, a.local_core_support(&d));
        assert_eq!(md.hints().0, a.support_vertex(&d));
    }

    #[test]
    fn supporting_face() {
        let s = ConvexPolyhedron::<f32>::from_cuboid(v3(1.0, 2.0, 3.0)).unwrap();
        let mut f = SupportFeature::new();
        s.local_support_feature(&v3(1.0, 0.1, 0.0), &mut f);
        assert_eq!(f.id, FeatureId::Face(0));
        assert_eq!(f.vertex_ids.as_slice(), &[1, 3, 7, 5].map(FeatureId::Vertex),);
        assert_eq!(f.vertices[0], p3(1.0, -2.0, -3.0));
        // Exactly along an edge: ties go to the lower face index (+x before +y).
        s.local_support_feature(&v3(1.0, 1.0, 0.0), &mut f);
        assert_eq!(f.id, FeatureId::Face(0));
        s.local_support_feature(&v3(0.0, -1.0, -1.0), &mut f);
        assert_eq!(f.id, FeatureId::Face(3));
        for i in 0..6 {
            let n = s.face_normal(i).into_inner();
            s.local_support_feature(&n, &mut f);
            assert_eq!(f.id, FeatureId::Face(i as u32));
            // Counter-clockwise from outside.
            let v = &f.vertices;
            assert!((v[1] - v[0]).cross(&(v[2] - v[1])).dot(&n) > 0.0);
        }
    }

    fn box_mass<N: Scalar>(tol: f64) {
        let (hx, hy, hz) = (0.5, 1.0, 1.5);
        let m_exact = 8.0 * hx * hy * hz * 2.0;
        let expected = [
            m_exact * (hy * hy + hz * hz) / 3.0,
            m_exact * (hx * hx + hz * hz) / 3.0,
            m_exact * (hx * hx + hy * hy) / 3.0,
        ];
        // From the closed constructor and from a translated, rotated-free grid cloud.
        let offset = Vec3::new(3.0, -2.0, 1.0);
        let mut cloud = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                for k in 0..3 {
                    let c = |t: usize, h: f64| h * (t as f64 - 1.0);
                    cloud.push(p3::<N>(
                        c(i, hx) + offset.x,
                        c(j, hy) + offset.y,
                        c(k, hz) + offset.z,
                    ));
                }
            }
        }
        let shapes = [
            (ConvexPolyhedron::<N>::from_cuboid(v3(hx, hy, hz)).unwrap(), Vec3::zeros()),
            (ConvexPolyhedron::<N>::from_points(&cloud).unwrap(), offset),
        ];
        for (shape, center) in &shapes {
            let m = shape.mass_properties(N::lit(2.0)).unwrap();
            assert!((m.mass.to_f64() - m_exact).abs() < tol * m_exact);
            assert!((m.local_center.coords.map(|x| x.to_f64()) - center).norm() < tol * 10.0);
            for (r, diagonal) in expected.iter().enumerate() {
                for c in 0..3 {
                    let want = if r == c { *diagonal } else { 0.0 };
                    assert!((m.inertia[(r, c)].to_f64() - want).abs() < tol * 10.0, "{r} {c}");
                }
            }
        }
        assert!(matches!(
            shapes[0].0.mass_properties(N::zero()),
            Err(ShapeError::InvalidDensity(_))
        ));
    }

    #[test]
    fn mass_of_a_box() {
        box_mass::<f32>(1e-5);
        box_mass::<f64>(1e-12);
    }

    #[test]
    fn mass_of_a_tetrahedron() {
        // The unit corner tetrahedron: volume 1/6, centroid (1/4, 1/4, 1/4), and about the
        // centroid I_xx = 1/80 · (2/... ) — compare with the canonical covariance instead.
        let t = ConvexPolyhedron::<f64>::from_points(&[
            p3(0.0, 0.0, 0.0),
            p3(1.0, 0.0, 0.0),
            p3(0.0, 1.0, 0.0),
            p3(0.0, 0.0, 1.0),
        ])
        .unwrap();
        let m = t.mass_properties(1.0).unwrap();
        assert!((m.mass - 1.0 / 6.0).abs() < 1e-14);
        assert!((m.local_center - p3(0.25, 0.25, 0.25)).norm() < 1e-14);
        // Canonical covariance about the origin: (1/120)(I + 11ᵀ); shift to the centroid.
        let c0 = (Mat3::identity() + Mat3::from_element(1.0)) / 120.0;
        let g = Vec3::repeat(0.25);
        let c = c0 - g * g.transpose() / 6.0;
        let expected = Mat3::identity() * c.trace() - c;
        assert!((m.inertia - expected).norm() < 1e-14);
    }

    #[test]
    fn bounding_boxes() {
        let s = ConvexPolyhedron::<f64>::from_cuboid(v3(1.0, 2.0, 3.0)).unwrap();
        let a = s.local_aabb();
        assert_eq!((a.mins, a.maxs), (p3(-1.0, -2.0, -3.0), p3(1.0, 2.0, 3.0)));
        let pose =
            Iso3::from_parts(v3(1.0, 0.0, 0.0).into(), Rot3::from_scaled_axis(v3(0.3, -0.2, 0.9)));
        let fast = s.aabb(&pose);
        // Same as the support-based default.
        for k in 0..3 {
            let mut axis = Vec3::zeros();
            axis[k] = 1.0;
            assert!((fast.maxs[k] - s.support_point(&pose, &axis)[k]).abs() < 1e-12);
            assert!((fast.mins[k] - s.support_point(&pose, &-axis)[k]).abs() < 1e-12);
        }
    }

    #[rstest]
    #[case::zero([0.0, 1.0, 1.0], false)]
    #[case::negative([1.0, -1.0, 1.0], false)]
    #[case::nan([1.0, 1.0, f64::NAN], true)]
    #[case::infinite([f64::INFINITY, 1.0, 1.0], true)]
    fn cuboid_errors(#[case] h: [f64; 3], #[case] non_finite: bool) {
        let r = ConvexPolyhedron::<f64>::from_cuboid(Vec3::from(h));
        if non_finite {
            assert!(matches!(r, Err(ShapeError::NonFinite { .. })));
        } else {
            assert!(matches!(r, Err(ShapeError::NonPositive { .. })));
        }
    }

    #[rstest]
    #[case::nan(vec![[0.0, 0.0, 0.0], [f64::NAN, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])]
    #[case::three_points(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])]
    #[case::collinear(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0]])]
    #[case::coplanar(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])]
    fn from_points_errors(#[case] pts: Vec<[f64; 3]>) {
        let pts: Vec<Point3<f32>> = pts.iter().map(|c| p3(c[0], c[1], c[2])).collect();
        assert_eq!(ConvexPolyhedron::from_points(&pts).err(), crate::convex_hull_3d(&pts).err());
        assert!(ConvexPolyhedron::from_points(&pts).is_err());
    }
}
