//! The envelope of each scalar type (`Scalar::MIN_SIZE`, `MAX_SIZE`, `MAX_COORDINATE`): every
//! constructor refuses input beyond it with `ShapeError::OutOfEnvelope` naming the input, the
//! value and the limit; every shape inside it has finite mass properties at the densities the
//! docs promise, and mass properties that would overflow or underflow are a typed error.

use kollide_math::{Point2, Point3, Scalar, Vec2, Vec3};
use kollide_shapes::{
    Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder, HasMass2, HasMass3,
    Rounded, Segment, ShapeError, Triangle,
};

fn p2<N: Scalar>(x: f64, y: f64) -> Point2<N> {
    Point2::new(N::lit(x), N::lit(y))
}
fn p3<N: Scalar>(x: f64, y: f64, z: f64) -> Point3<N> {
    Point3::new(N::lit(x), N::lit(y), N::lit(z))
}

/// `r` is `OutOfEnvelope` for `what`, with `value` and `limit` as given (to the precision of N).
#[track_caller]
fn assert_envelope<T: core::fmt::Debug>(
    r: Result<T, ShapeError>,
    what: &str,
    value: f64,
    limit: f64,
) {
    match r {
        Err(ShapeError::OutOfEnvelope { what: w, value: v, limit: l }) => {
            assert_eq!(w, what);
            assert!((v - value).abs() <= 1e-6 * value.abs(), "value {v}, expected {value}");
            assert!((l - limit).abs() <= 1e-6 * limit.abs(), "limit {l}, expected {limit}");
        }
        other => panic!("expected OutOfEnvelope for {what}, got {other:?}"),
    }
}

fn sizes_are_checked<N: Scalar>() {
    let (min, max) = (N::MIN_SIZE.to_f64(), N::MAX_SIZE.to_f64());
    let (small, big) = (min * 0.5, max * 2.0);
    let one = N::one();
    // Radii, half extents and half heights.
    assert_envelope(Ball::<N, 3>::new(N::lit(big)), "radius", big, max);
    assert_envelope(Ball::<N, 2>::new(N::lit(small)), "radius", small, min);
    assert!(Ball::<N, 2>::new(N::MIN_SIZE).is_ok() && Ball::<N, 3>::new(N::MAX_SIZE).is_ok());
    assert_envelope(Cuboid::new(Vec3::new(one, N::lit(big), one)), "half extent", big, max);
    assert_envelope(Cuboid::new(Vec2::new(N::lit(small), one)), "half extent", small, min);
    assert_envelope(Cone::new(N::lit(big), one), "half height", big, max);
    assert_envelope(Cone::new(one, N::lit(small)), "radius", small, min);
    assert_envelope(Cylinder::new(N::lit(small), one), "half height", small, min);
    assert_envelope(Cylinder::new(one, N::lit(big)), "radius", big, max);
    assert_envelope(Capsule::<N, 3>::new_axis(one, N::lit(big)), "radius", big, max);
    assert_envelope(Capsule::<N, 2>::new_axis(N::lit(small), one), "half_height", small, min);
    let ball = Ball::<N, 3>::new(one).unwrap();
    assert_envelope(Rounded::new(ball, N::lit(small)), "border_radius", small, min);
    assert_envelope(ConvexPolygon::from_box(Vec2::new(N::lit(big), one)), "half extent", big, max);
    assert_envelope(ConvexPolygon::<N>::regular(5, N::lit(small)), "radius", small, min);
    // The 2D `ConvexPolyhedron::from_cuboid` uses the same checks.
    assert_envelope(
        ConvexPolyhedron::from_cuboid(Vec3::new(one, one, N::lit(small))),
        "half extent",
        small,
        min,
    );
    // Lengths: a segment shorter than MIN_SIZE, a triangle longer than 2 · MAX_SIZE.
    let short = Segment::new(p2::<N>(0.0, 0.0), p2(small, 0.0));
    assert_envelope(short, "segment length", small, min);
    let half = max * 0.9;
    let long = Segment::new(p3::<N>(-half, 0.0, 0.0), p3(half, 0.0, 0.0));
    assert!(long.is_ok(), "a segment of twice a legal half size is legal");
    let tri = Triangle::new(p2::<N>(-max, 0.0), p2(max, 0.0), p2(0.0, max * 0.5));
    assert!(tri.is_ok());
    let tiny = Triangle::new(p2::<N>(0.0, 0.0), p2(small, 0.0), p2(0.0, small));
    assert_envelope(tiny, "longest edge", small * 2f64.sqrt(), min);
    let cloud: Vec<Point3<N>> =
        (0..8).map(|i| p3((i & 1) as f64 * small, (i >> 1 & 1) as f64, (i >> 2) as f64)).collect();
    assert!(ConvexPolyhedron::from_points(&cloud).is_ok(), "one thin side is not the extent");
    let speck: Vec<Point3<N>> = cloud.iter().map(|p| p * N::lit(small)).collect();
    match ConvexPolyhedron::from_points(&speck) {
        Err(ShapeError::OutOfEnvelope { what, .. }) => assert_eq!(what, "extent"),
        // In f64 the speck's own thin side is below the hull tolerance of nothing: it must be the
        // envelope that refuses it, never a hull error.
        other => panic!("{other:?}"),
    }
}

#[test]
fn sizes_beyond_the_envelope_are_refused() {
    sizes_are_checked::<f32>();
    sizes_are_checked::<f64>();
}

fn coordinates_are_checked<N: Scalar>() {
    let far = N::MAX_COORDINATE.to_f64() * 1.5;
    let limit = N::MAX_COORDINATE.to_f64();
    assert_envelope(
        Segment::new(p2::<N>(0.0, 0.0), p2(0.0, -far)),
        "point 1 coordinate",
        far,
        limit,
    );
    assert_envelope(
        Capsule::new(p3::<N>(far, 0.0, 0.0), p3(far, 1.0, 0.0), N::one()),
        "point 0 coordinate",
        far,
        limit,
    );
    assert_envelope(
        Triangle::new(p3::<N>(0.0, 0.0, 0.0), p3(1.0, 0.0, 0.0), p3(0.0, 1.0, far)),
        "point 2 coordinate",
        far,
        limit,
    );
    let square = [p2::<N>(far, 0.0), p2(far + 1.0, 0.0), p2(far + 1.0, 1.0), p2(far, 1.0)];
    assert_envelope(ConvexPolygon::from_convex_ccw(&square), "point 0 coordinate", far, limit);
    assert_envelope(ConvexPolygon::from_hull(&square), "point 0 coordinate", far, limit);
    assert_envelope(ConvexPolygon::from_convex_polyline(&square), "point 0 coordinate", far, limit);
    let cube: Vec<Point3<N>> =
        (0..8).map(|i| p3((i & 1) as f64, (i >> 1 & 1) as f64, (i >> 2) as f64 - far)).collect();
    assert_envelope(ConvexPolyhedron::from_points(&cube), "point 0 coordinate", far + 0.0, limit);
    // At the limit itself a shape is legal.
    let at = N::MAX_COORDINATE;
    assert!(
        Segment::new(Point2::new(at, N::zero()), Point2::new(at - N::one(), N::zero())).is_ok()
    );
}

#[test]
fn coordinates_beyond_the_envelope_are_refused() {
    coordinates_are_checked::<f32>();
    coordinates_are_checked::<f64>();
}

/// The case: an `f32` shape of size `1e10` used to be accepted and then give an infinite
/// inertia. It is now refused, and the largest legal shapes have finite, invertible mass
/// properties at a density of `1e10`.
#[test]
fn huge_f32_shapes_are_refused_and_the_largest_legal_ones_have_finite_mass() {
    assert!(matches!(Ball::<f32, 3>::new(1e10), Err(ShapeError::OutOfEnvelope { .. })));
    assert!(matches!(
        Cuboid::new(Vec3::new(1e10f32, 1e10, 1e10)),
        Err(ShapeError::OutOfEnvelope { .. })
    ));
    check_largest::<f32>();
    check_largest::<f64>();
}

fn finite3<N: Scalar>(m: &kollide_shapes::MassProperties3<N>) -> bool {
    m.mass.is_finite_value()
        && m.inertia.iter().all(|x| x.is_finite_value())
        && (N::one() / m.inertia[(0, 0)]).is_finite_value()
}

fn check_largest<N: Scalar>() {
    let (s, c) = (N::MAX_SIZE, N::MAX_COORDINATE);
    let density = N::lit(1e10);
    let shapes3: Vec<Box<dyn HasMass3<N>>> = vec![
        Box::new(Ball::<N, 3>::new(s).unwrap()),
        Box::new(Cuboid::new(Vec3::repeat(s)).unwrap()),
        Box::new(Cylinder::new(s, s).unwrap()),
        Box::new(Cone::new(s, s).unwrap()),
        Box::new(Capsule::<N, 3>::new_axis(s, s).unwrap()),
        Box::new(ConvexPolyhedron::from_cuboid(Vec3::repeat(s)).unwrap()),
        // A polyhedron as far from its origin as allowed.
        Box::new(
            ConvexPolyhedron::from_points(
                &(0..8)
                    .map(|i| {
                        let k = |b: u32| if i & (1 << b) != 0 { c } else { c - s };
                        Point3::new(k(0), k(1), k(2))
                    })
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
        ),
    ];
    for (k, shape) in shapes3.iter().enumerate() {
        let m = shape.mass_properties(density).unwrap_or_else(|e| panic!("shape {k}: {e}"));
        assert!(finite3(&m), "shape {k}: {m:?}");
    }
    let shapes2: Vec<Box<dyn HasMass2<N>>> = vec![
        Box::new(Ball::<N, 2>::new(s).unwrap()),
        Box::new(Cuboid::new(Vec2::repeat(s)).unwrap()),
        Box::new(Capsule::<N, 2>::new_axis(s, s).unwrap()),
        Box::new(ConvexPolygon::from_box(Vec2::repeat(s)).unwrap()),
        Box::new(Rounded::new(Cuboid::new(Vec2::repeat(s)).unwrap(), s).unwrap()),
    ];
    for (k, shape) in shapes2.iter().enumerate() {
        let m = shape.mass_properties(density).unwrap_or_else(|e| panic!("2D shape {k}: {e}"));
        assert!(m.mass.is_finite_value() && m.inertia.is_finite_value(), "2D shape {k}: {m:?}");
    }
}

/// Densities so large that the mass overflows, or so small that the inertia underflows, give
/// `MassOutOfRange`, never an infinite, zero or NaN mass.
#[test]
fn mass_overflow_and_underflow_are_typed_errors() {
    let big = Cuboid::new(Vec3::repeat(f32::MAX_SIZE)).unwrap();
    assert!(matches!(big.mass_properties(1e30), Err(ShapeError::MassOutOfRange { .. })));
    let small = Ball::<f32, 3>::new(f32::MIN_SIZE).unwrap();
    assert!(matches!(small.mass_properties(1e-30), Err(ShapeError::MassOutOfRange { .. })));
    let disc = Ball::<f64, 2>::new(f64::MIN_SIZE).unwrap();
    assert!(matches!(disc.mass_properties(1e-300), Err(ShapeError::MassOutOfRange { .. })));
    let poly = ConvexPolyhedron::from_cuboid(Vec3::repeat(f32::MAX_SIZE)).unwrap();
    assert!(matches!(poly.mass_properties(1e30), Err(ShapeError::MassOutOfRange { .. })));
    // The same shapes at ordinary densities are fine.
    assert!(big.mass_properties(1000.0).is_ok() && small.mass_properties(1000.0).is_ok());
}

/// A segment whose ends coincide is a typed error; so is a capsule around it (a capsule with no
/// core length is a ball: use `Ball`).
#[test]
fn coincident_segment_ends_are_refused() {
    let p = p3::<f32>(3.0, -2.0, 1e4);
    assert_eq!(Segment::new(p, p), Err(ShapeError::DuplicatePoints { first: 0, second: 1 }));
    assert_eq!(Capsule::new(p, p, 1.0), Err(ShapeError::DuplicatePoints { first: 0, second: 1 }));
    assert!(matches!(Capsule::<f64, 2>::new_axis(0.0, 1.0), Err(ShapeError::NonPositive { .. })));
}
