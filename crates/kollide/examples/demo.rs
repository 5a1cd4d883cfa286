//! kollide's narrowphase demo: builds a few shapes, asks for contacts, distances and casts, and
//! prints what it finds in plain words.
//!
//! Run it with `cargo run --release --example demo`.

use kollide::narrowphase::{
    QuerySettings, Ray, closest_points, contact, directional_penetration, intersection_test,
    ray_cast, shape_cast,
};
use kollide::prelude::*;

fn main() -> Result<(), ShapeError> {
    let settings = QuerySettings::<f64>::default();
    println!("kollide demo: every normal points from A to B; separation < 0 means overlap.\n");

    // 2D: a box resting 2 cm deep in a wider box (the ground).
    let ground = Cuboid::new(Vec2::new(5.0, 0.5))?;
    let crate_ = Cuboid::new(Vec2::new(0.5, 0.5))?;
    let ground_pose = Iso2::translation(0.0, -0.5);
    let crate_pose = Iso2::new(Vec2::new(0.3, 0.48), 0.0);
    if let Some(c) = contact(&ground_pose, &ground, &crate_pose, &crate_, 0.0, &settings) {
        println!(
            "2D box on ground : separation {:+.4} m, normal ({:+.3}, {:+.3}), status {:?}",
            c.separation, c.normal.x, c.normal.y, c.status
        );
    }

    // 2D: two polygons from point clouds, penetration by GJK + EPA.
    let hexagon = ConvexPolygon::regular(6, 1.0)?;
    let tri = ConvexPolygon::from_hull(&[
        Point2::new(-1.0, -0.5),
        Point2::new(1.0, -0.5),
        Point2::new(0.0, 1.2),
        Point2::new(0.0, 0.0),
    ])?;
    let pose_tri = Iso2::new(Vec2::new(1.4, 0.3), 0.4);
    let c = closest_points(&Iso2::identity(), &hexagon, &pose_tri, &tri, &settings);
    println!(
        "2D hexagon/tri   : separation {:+.4} m, on A ({:+.3}, {:+.3}), on B ({:+.3}, {:+.3})",
        c.separation, c.point_a.x, c.point_a.y, c.point_b.x, c.point_b.y
    );

    // Pushing the triangle out along its own direction of travel instead of the shortest way.
    if let Some(p) = directional_penetration(
        &Iso2::identity(),
        &hexagon,
        &pose_tri,
        &tri,
        &Vec2::new(1.0, 1.0),
        &settings,
    ) {
        println!("2D push along (1,1): move the triangle {:.4} m to separate", p.t);
    }

    // 3D: a capsule lying across a cube, and a ball 1 cm above it.
    let cube = Cuboid::new(Vec3::new(1.0, 1.0, 1.0))?;
    let capsule = Capsule::<f64, 3>::new_axis(1.5, 0.25)?;
    let capsule_pose = Iso3::new(Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 0.0, 1.2));
    let c = contact(&Iso3::identity(), &cube, &capsule_pose, &capsule, 0.0, &settings);
    match c {
        Some(c) => println!(
            "3D capsule/cube  : separation {:+.4} m, normal ({:+.3}, {:+.3}, {:+.3})",
            c.separation, c.normal.x, c.normal.y, c.normal.z
        ),
        None => println!("3D capsule/cube  : apart"),
    }
    let ball = Ball::<f64, 3>::new(0.5)?;
    let ball_pose = Iso3::translation(0.0, 1.51, 0.0);
    let hit = intersection_test(&Iso3::identity(), &cube, &ball_pose, &ball, None, &settings);
    println!("3D ball above cube: intersecting = {} ({:?})", hit.intersecting, hit.status);

    // 3D: a hull of 200 random-ish points against the cube, and a ray through both.
    let cloud: Vec<Point3<f64>> = (0..200)
        .map(|i| {
            let t = i as f64 * 0.618_034;
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / 200.0;
            let r = (1.0 - y * y).sqrt();
            Point3::new(
                r * (t * std::f64::consts::TAU).cos(),
                y,
                r * (t * std::f64::consts::TAU).sin(),
            )
        })
        .collect();
    let hull = ConvexPolyhedron::from_points(&cloud)?;
    println!(
        "3D hull          : {} vertices, {} faces, {} edges from {} points",
        hull.vertices().len(),
        hull.num_faces(),
        hull.edges().len(),
        cloud.len()
    );
    let hull_pose = Iso3::translation(1.7, 0.2, 0.0);
    let c = closest_points(&Iso3::identity(), &cube, &hull_pose, &hull, &settings);
    println!("3D hull/cube     : separation {:+.4} m ({:?})", c.separation, c.status);
    let ray = Ray { origin: Point3::new(-10.0, 0.2, 0.0), dir: Vec3::new(1.0, 0.0, 0.0) };
    if let Some(h) = ray_cast(&hull_pose, &hull, &ray, 100.0, &settings) {
        println!("ray along +x      : hits the hull at t = {:.4}", h.t);
    }

    // Time of impact: the ball thrown at the cube.
    let toi = shape_cast(
        &Iso3::identity(),
        &Vec3::zeros(),
        &cube,
        &Iso3::translation(-6.0, 0.0, 0.0),
        &Vec3::new(3.0, 0.0, 0.0),
        &ball,
        10.0,
        &settings,
    );
    if let Some(t) = toi {
        println!("ball thrown at cube: touches after {:.4} s at x = {:+.4}", t.t, t.point_a.x);
    }
    Ok(())
}
