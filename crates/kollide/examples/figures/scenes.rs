//! The scenes behind `docs/figures/*.svg`, one function per figure. Shared by the `figures`
//! example (which writes them) and `tests/figures.rs` (which checks that they are deterministic
//! and render).

use kollide::draw::{Color, DebugDraw, Ortho, Style, SvgCanvas, SvgFigure, palette};
use kollide::manifold::Manifold;
use kollide::math::{Iso2, Iso3, Point2, Point3, Pose, Vec2, Vec3};
use kollide::narrowphase::draw::{
    ManifoldStyle, draw_clip_features2, draw_epa_frame2, draw_manifold2,
    draw_minkowski_difference2, draw_origin2, draw_simplex2, epa2_trace, gjk2_trace,
};
use kollide::narrowphase::{GjkOutcome, QuerySettings, gjk, manifold2};
use kollide::shapes::draw::{Draw2, Draw3, draw_frame2};
use kollide::shapes::{
    Ball, BoundingVolume, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder,
    MinkowskiDifference, Rounded, Segment, Shape2, Shape3, Triangle,
};

/// Every figure, by file name (without `.svg`), in a fixed order.
pub fn all() -> Vec<(&'static str, SvgFigure)> {
    vec![
        ("shapes2d", shapes2d()),
        ("minkowski", minkowski()),
        ("gjk", gjk_steps()),
        ("epa", epa_steps()),
        ("manifold", manifold()),
        ("world2d", world2d()),
        ("events", events()),
        ("level2d", level2d()),
        ("shapes3d", shapes3d()),
    ]
}

fn p(x: f64, y: f64) -> Point2<f64> {
    Point2::new(x, y)
}

/// Every 2D shape, each at a rotated pose with its local axes and its AABB.
fn shapes2d() -> SvgFigure {
    let v = Vec2::new(1.0, 0.6);
    let shapes: Vec<(&str, Shape2<f64>)> = vec![
        ("Circle", Ball::new(0.8).unwrap().into()),
        ("Capsule", Capsule::new(p(-0.8, 0.0), p(0.8, 0.0), 0.4).unwrap().into()),
        ("Segment", Segment::new(p(-1.0, 0.0), p(1.0, 0.0)).unwrap().into()),
        ("Cuboid", Cuboid::new(v).unwrap().into()),
        ("Triangle", Triangle::new(p(-1.0, -0.6), p(1.0, -0.4), p(-0.2, 0.8)).unwrap().into()),
        ("ConvexPolygon (regular, 7)", ConvexPolygon::regular(7, 0.9).unwrap().into()),
        (
            "ConvexPolygon (hull)",
            ConvexPolygon::from_hull(&[
                p(-1.0, -0.5),
                p(0.9, -0.7),
                p(1.1, 0.2),
                p(0.1, 0.8),
                p(-0.7, 0.5),
            ])
            .unwrap()
            .into(),
        ),
        (
            "Rounded cuboid",
            Rounded::new(Cuboid::new(Vec2::new(0.7, 0.4)).unwrap(), 0.25).unwrap().into(),
        ),
    ];
    let mut fig = SvgFigure::new("kollide 2D shapes")
        .columns(4)
        .panel_width(200.0)
        .legend(palette::SHAPE, "shape (dashed: core of a rounded shape)")
        .legend(palette::AABB, "AABB under the pose")
        .legend(Color::VERMILION, "local x axis")
        .legend(Color::SKY_BLUE, "local y axis")
        .caption("Each shape is drawn by Draw2 at the pose (0.3, 0.2) turned 25 degrees. Polygons draw their vertices; round shapes draw the outline recovered from their support function.");
    let pose = Iso2::new(Vec2::new(0.3, 0.2), 25f64.to_radians());
    for (name, s) in &shapes {
        let mut c = SvgCanvas::with_title(*name);
        s.aabb(&pose).draw2(
            &Iso2::identity(),
            &mut c,
            &Style::stroke(palette::AABB).width(1.0).dashed(),
        );
        s.draw2(&pose, &mut c, &Style::filled(palette::SHAPE));
        draw_frame2(&pose, 0.5, &mut c);
        fig.push(c);
    }
    fig.share_view();
    fig
}

fn polygon_a() -> ConvexPolygon<f64> {
    ConvexPolygon::from_hull(&[p(-1.2, -0.8), p(1.0, -1.0), p(1.4, 0.4), p(0.2, 1.1), p(-1.0, 0.6)])
        .unwrap()
}

fn polygon_b() -> ConvexPolygon<f64> {
    ConvexPolygon::from_hull(&[p(-0.6, -0.5), p(0.7, -0.3), p(0.3, 0.7)]).unwrap()
}

/// A, B and A − B, separated and overlapping.
fn minkowski() -> SvgFigure {
    let a = polygon_a();
    let b = polygon_b();
    let pos_a = Iso2::identity();
    let mut fig = SvgFigure::new("The Minkowski difference A − B")
        .columns(2)
        .panel_width(300.0)
        .legend(palette::SHAPE_A, "A")
        .legend(palette::SHAPE_B, "B")
        .legend(palette::CSO, "A − B = { a − b }")
        .legend(palette::NORMAL, "closest point of A − B to the origin")
        .caption("A − B contains the origin exactly when A and B overlap, and its distance to the origin is the distance between the shapes. The outlines are recovered from support points s(d) = sA(d) − sB(−d), the only thing GJK and EPA ask of a shape.");
    for (label, pos_b) in [
        ("apart", Iso2::new(Vec2::new(2.9, 0.9), 0.5)),
        ("overlapping", Iso2::new(Vec2::new(1.3, 0.5), 0.5)),
    ] {
        let mut shapes = SvgCanvas::with_title(format!("A and B, {label}"));
        a.draw2(&pos_a, &mut shapes, &Style::filled(palette::SHAPE_A));
        b.draw2(&pos_b, &mut shapes, &Style::filled(palette::SHAPE_B));
        shapes.text(&p(-1.0, -0.6), "A", palette::SHAPE_A);
        shapes.text(&(pos_b * p(0.0, 0.0)), "B", palette::SHAPE_B);
        draw_origin2(0.15, &mut shapes);
        let mut cso = SvgCanvas::with_title(format!("A − B, {label}"));
        draw_minkowski_difference2(&pos_a, &a, &pos_b, &b, &mut cso, &Style::filled(palette::CSO));
        let md = MinkowskiDifference::new(&a, &b, pos_a.inv_compose(&pos_b));
        let g = gjk(&md, &Vec2::x(), f64::MAX, 1e-9, &QuerySettings::default());
        if let GjkOutcome::Separated { v, .. } = g.outcome {
            cso.arrow(
                &Point2::origin(),
                &Point2::from(v),
                &Style::stroke(palette::NORMAL).width(1.5),
            );
            cso.text(&Point2::from(v * 0.5), &format!("distance {:.3}", v.norm()), palette::NORMAL);
        } else {
            cso.text(&p(0.0, -0.4), "origin inside", palette::TEXT);
        }
        draw_origin2(0.15, &mut cso);
        fig.push(shapes);
        fig.push(cso);
    }
    fig
}

/// GJK's simplex, iteration by iteration, for two separated polygons.
fn gjk_steps() -> SvgFigure {
    let a = ConvexPolygon::regular(9, 0.8).unwrap();
    let b = ConvexPolygon::from_hull(&[p(-0.5, -0.3), p(0.4, -0.4), p(0.6, 0.3), p(-0.2, 0.5)])
        .unwrap();
    let pos_ab = Iso2::new(Vec2::new(-1.2, 2.3), 0.3);
    let md = MinkowskiDifference::new(&a, &b, pos_ab);
    let s = QuerySettings::default();
    let start = Vec2::new(1.0, 0.0);
    let trace = gjk2_trace(&md, &start, f64::MAX, 1e-9, &s);
    let mut fig = SvgFigure::new("GJK, iteration by iteration")
        .columns(trace.len().min(5))
        .panel_width(200.0)
        .legend(palette::CSO, "A − B")
        .legend(palette::SIMPLEX, "simplex s0, s1, …")
        .legend(palette::SUPPORT, "closest point v (dashed), next support point w in −v")
        .caption("Each iteration asks for the support point of A − B in −v, adds it to the simplex and keeps the sub-simplex closest to the origin. GJK stops when the new support point brings v no closer: |v| is then the distance. Frames are the real gjk() stopped after 1, 2, 3, … iterations (gjk2_trace).");
    for (k, r) in trace.iter().enumerate() {
        let v = r.simplex.closest().0.norm();
        let title = if k + 1 == trace.len() {
            format!("{}: converged, distance {v:.3}", k + 1)
        } else {
            format!("after iteration {}: |v| = {v:.3}", k + 1)
        };
        let mut c = SvgCanvas::with_title(title);
        draw_minkowski_difference2(
            &Iso2::identity(),
            &a,
            &pos_ab,
            &b,
            &mut c,
            &Style::filled(palette::CSO),
        );
        draw_simplex2(&r.simplex, &mut c, &Style::filled(palette::SIMPLEX).width(2.0));
        // The next support point, in −v.
        let w = Point2::from(md.support(&-r.simplex.closest().0).point);
        c.point(&w, palette::SUPPORT);
        c.text(&w, "w", palette::SUPPORT);
        draw_origin2(0.15, &mut c);
        fig.push(c);
    }
    fig.share_view();
    fig
}

/// EPA's polygon, iteration by iteration, for two overlapping shapes.
fn epa_steps() -> SvgFigure {
    let a = ConvexPolygon::regular(12, 1.3).unwrap();
    let b = Cuboid::<f64, 2>::new(Vec2::new(1.0, 0.5)).unwrap();
    let pos_ab = Iso2::new(Vec2::new(1.1, 0.9), 0.35);
    let md = MinkowskiDifference::new(&a, &b, pos_ab);
    let s = QuerySettings::default();
    let g = gjk(&md, &pos_ab.translation.vector, 0.0, 1e-9, &s);
    let (result, frames) = epa2_trace(&md, &g.simplex, 1.3, &Vec2::x(), &s);
    let mut fig = SvgFigure::new("EPA, iteration by iteration")
        .columns(4)
        .panel_width(220.0)
        .legend(palette::CSO, "A − B")
        .legend(palette::SIMPLEX, "polygon (thick: edge closest to O)")
        .legend(palette::SUPPORT, "support point w along that edge's normal")
        .caption(format!(
            "GJK ends with a triangle around the origin; EPA grows it inside A − B. Each frame splits the edge closest to the origin at the support point w found along its normal (dashed), until w adds nothing: that edge lies on the boundary of A − B, and its distance is the penetration depth ({:.4} after {} iterations). The last panel moves B by depth · normal, which leaves A and B touching. Frames come from epa2_trace, the real EPA with a recorder.",
            result.depth, result.iterations
        ));
    for (k, f) in frames.iter().enumerate() {
        let (_, dist) = f.closest_normal();
        let last = k + 1 == frames.len();
        let title = if last {
            format!("{}: converged, depth {:.3}", k + 1, dist)
        } else {
            format!("{}: closest edge at {:.3}", k + 1, dist)
        };
        let mut c = SvgCanvas::with_title(title);
        draw_minkowski_difference2(
            &Iso2::identity(),
            &a,
            &pos_ab,
            &b,
            &mut c,
            &Style::filled(palette::CSO),
        );
        draw_epa_frame2(f, &mut c, &Style::filled(palette::SIMPLEX));
        draw_origin2(0.12, &mut c);
        fig.push(c);
    }
    fig.share_view();
    // The answer, on the shapes.
    let mut c = SvgCanvas::with_title("B moved by depth · normal");
    let moved = Iso2::from_parts(
        (pos_ab.translation.vector + result.normal * result.depth).into(),
        pos_ab.rotation,
    );
    a.draw2(&Iso2::identity(), &mut c, &Style::filled(palette::SHAPE_A));
    b.draw2(&pos_ab, &mut c, &Style::stroke(palette::SHAPE_B).width(1.0).dashed());
    b.draw2(&moved, &mut c, &Style::filled(palette::SHAPE_B));
    c.arrow(
        &Point2::from(result.point_b),
        &Point2::from(result.point_a),
        &Style::stroke(palette::NORMAL).width(2.0),
    );
    fig.push(c);
    fig
}

/// Box on box: SAT picks the reference face, clips the incident face against its side planes.
fn manifold() -> SvgFigure {
    // B overhangs A's right side, so clipping against A's side plane shows.
    let ground: Shape2<f64> = Cuboid::new(Vec2::new(1.0, 0.5)).unwrap().into();
    let crate_: Shape2<f64> = Cuboid::new(Vec2::new(1.0, 0.4)).unwrap().into();
    let pos_a = Iso2::new(Vec2::new(0.0, -0.5), 0.0);
    let pos_b = Iso2::new(Vec2::new(1.2, 0.25), 6f64.to_radians());
    let m: Manifold<f64, 2> = manifold2(&pos_a, &ground, &pos_b, &crate_, 0.05);
    let mut c = SvgCanvas::with_title("manifold2(ground, box)");
    ground.draw2(&pos_a, &mut c, &Style::filled(palette::SHAPE_A));
    crate_.draw2(&pos_b, &mut c, &Style::filled(palette::SHAPE_B));
    draw_clip_features2(&pos_a, &ground, &pos_b, &crate_, &m, 0.6, &mut c);
    draw_manifold2(&m, &mut c, &ManifoldStyle { normal_length: 0.5, labels: true });
    c.text(&p(-0.9, -0.8), "A", palette::SHAPE_A);
    c.text(&(pos_b * p(0.5, 0.1)), "B", palette::SHAPE_B);
    c.set_view(kollide::draw::Rect::new([-1.3, -1.1], [2.4, 1.0]));
    let mut fig = SvgFigure::new("A contact manifold: box on box")
        .panel_width(560.0)
        .legend(palette::REFERENCE, "reference face (on A)")
        .legend(palette::INCIDENT, "incident face (on B, dashed)")
        .legend(Color::GREY, "side planes of the reference face")
        .legend(palette::NORMAL, "normal n, from A to B")
        .caption("SAT finds the axis of least penetration, here A's top face: the reference face. The incident face is B's face most anti-parallel to it; clipped against the reference face's side planes (B overhangs on the right), what remains of it below the reference face gives the contacts. Each contact pairs a point on A (blue) with a point on B (vermilion); d is its depth, the separation with the sign flipped.");
    fig.push(c);
    fig
}

/// A small 2D world: bodies, their AABBs and every contact manifold (no solver yet).
fn world2d() -> SvgFigure {
    let bodies: Vec<(Iso2<f64>, Shape2<f64>)> = vec![
        (Iso2::new(Vec2::new(0.0, -0.5), 0.0), Cuboid::new(Vec2::new(4.0, 0.5)).unwrap().into()),
        (Iso2::new(Vec2::new(-1.5, 0.48), 0.0), Cuboid::new(Vec2::new(0.5, 0.5)).unwrap().into()),
        (Iso2::new(Vec2::new(-1.4, 1.45), 0.1), Cuboid::new(Vec2::new(0.5, 0.5)).unwrap().into()),
        (Iso2::new(Vec2::new(0.5, 0.58), 0.0), Ball::new(0.6).unwrap().into()),
        (
            Iso2::new(Vec2::new(2.1, 0.35), 0.2),
            Capsule::new(p(-0.7, 0.0), p(0.7, 0.0), 0.3).unwrap().into(),
        ),
        (
            Iso2::new(Vec2::new(1.3, 1.55), -0.4),
            Rounded::new(Cuboid::new(Vec2::new(0.5, 0.25)).unwrap(), 0.1).unwrap().into(),
        ),
    ];
    let mut c = SvgCanvas::with_title("bodies, AABBs, manifolds");
    let colors = [
        palette::CSO,
        palette::SHAPE_A,
        palette::SHAPE_A,
        palette::SHAPE,
        palette::SHAPE_B,
        Color::PURPLE,
    ];
    for ((pose, shape), color) in bodies.iter().zip(colors) {
        shape.aabb(pose).draw2(
            &Iso2::identity(),
            &mut c,
            &Style::stroke(palette::AABB).width(0.8).dashed(),
        );
        shape.draw2(pose, &mut c, &Style::filled(color));
    }
    let margin = 0.05;
    for i in 0..bodies.len() {
        for j in (i + 1)..bodies.len() {
            let (pa, a) = &bodies[i];
            let (pb, b) = &bodies[j];
            if !a.aabb(pa).loosened(margin).intersects(&b.aabb(pb)) {
                continue;
            }
            let m: Manifold<f64, 2> = manifold2(pa, a, pb, b, margin);
            draw_manifold2(&m, &mut c, &ManifoldStyle { normal_length: 0.35, labels: false });
        }
    }
    let mut fig = SvgFigure::new("A 2D world")
        .panel_width(620.0)
        .legend(palette::AABB, "AABB (dashed)")
        .legend(palette::NORMAL, "manifold normal")
        .legend(palette::CONTACT, "contact (points on A and B)")
        .caption("Every pair whose AABBs overlap gets a manifold from the dispatcher manifold2, drawn with draw_manifold2. A solver draws its world the same way: Draw2 for each body's shape and AABB, draw_manifold2 for each contact.");
    fig.push(c);
    fig
}

/// Level geometry in a real 2D world: circles, boxes and capsules dropped on a hilly chain of
/// one-sided segments and an L-shaped compound, after 4 s of simulation, drawn by `World2::draw`.
fn level2d() -> SvgFigure {
    use kollide::shapes::{Compound2, Polyline};
    use kollide::solver::{BodyDesc, World2, WorldStyle};
    let mut w = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    // Right to left, so that the front of every segment (the right of the direction) faces up.
    let ground: Vec<Point2<f64>> = (0..=60)
        .map(|k| {
            let x = 6.0 - 0.2 * k as f64;
            p(x, 0.08 * x * x + 0.25 * (2.0 * x).sin())
        })
        .collect();
    w.add(BodyDesc::fixed(Polyline::open(ground, None, None).unwrap())).unwrap();
    let l_shape = Compound2::new(vec![
        (Iso2::identity(), Shape2::from(Cuboid::new(Vec2::new(0.5, 0.1)).unwrap())),
        (Iso2::translation(0.4, 0.35), Shape2::from(Cuboid::new(Vec2::new(0.1, 0.25)).unwrap())),
    ])
    .unwrap();
    for k in 0..9 {
        let x = -4.0 + k as f64;
        let shape: kollide::shapes::BodyShape2<f64> = match k % 4 {
            0 => Ball::new(0.3).unwrap().into(),
            1 => Cuboid::new(Vec2::new(0.3, 0.25)).unwrap().into(),
            2 => Capsule::new(p(-0.3, 0.0), p(0.3, 0.0), 0.18).unwrap().into(),
            _ => l_shape.clone().into(),
        };
        let pose = Iso2::new(Vec2::new(x, 0.08 * x * x + 1.5), 0.4 * k as f64);
        w.add(BodyDesc::dynamic(shape).pose(pose)).unwrap();
    }
    for _ in 0..240 {
        w.step(1.0 / 60.0).unwrap();
    }
    let mut c = SvgCanvas::with_title("after 4 s on a chain of 60 segments");
    w.draw(&mut c, &WorldStyle::default());
    let mut fig = SvgFigure::new("Bodies on level geometry (2D)")
        .panel_width(620.0)
        .legend(palette::CSO, "static chain")
        .legend(palette::SHAPE_A, "dynamic bodies")
        .legend(palette::NORMAL, "manifold normal")
        .caption("A real World2 run: circles, boxes, capsules and L-shaped compounds dropped on a hilly Polyline chain roll into the valley. Each chain segment is one-sided (its front, the right of the chain's direction, faces up), and contacts from the chain's internal vertices take the segment's normal, so nothing catches on the joints.");
    fig.push(c);
    fig
}

/// Events, sensors and the contact hook, from real runs: a box jumps up through a one-way
/// platform (the hook turns the contact off) and lands on it (the contact is solved), and a
/// ball falls through a sensor, which reports it entering and leaving.
fn events() -> SvgFigure {
    use kollide::solver::{BodyDesc, PreSolve, World2, WorldStyle};
    let dt = 1.0 / 60.0;
    let mut w = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    let ground = Cuboid::new(Vec2::new(2.5, 0.25)).unwrap();
    w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.25))).unwrap();
    let slab = Cuboid::new(Vec2::new(2.0, 0.1)).unwrap();
    let platform = w.add(BodyDesc::fixed(slab).pose(Iso2::translation(0.0, 3.0))).unwrap();
    let crate_ = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
    let b = w
        .add(
            BodyDesc::dynamic(crate_)
                .pose(Iso2::translation(-0.6, 0.5))
                .linear_velocity(Vec2::new(0.5, 9.0)),
        )
        .unwrap();
    let mut one_way = |c: &mut PreSolve<'_, f64, 2>| {
        if c.a() != platform && c.b() != platform {
            return;
        }
        let up = if c.a() == platform { c.normal() } else { -c.normal() };
        let deepest = c.manifold().contacts().iter().map(|p| p.separation).fold(f64::MAX, f64::min);
        if up.y < 0.7 || deepest < -0.05 {
            c.disable();
        }
    };
    let mut path = Vec::new();
    let mut through = None;
    for _ in 0..150 {
        w.step_with_hook(dt, &mut one_way).unwrap();
        let y = w.body(b).unwrap().pose().translation;
        path.push(p(y.x, y.y));
        let touching_platform = w
            .contact_pairs()
            .iter()
            .any(|c| (c.a == platform || c.b == platform) && !c.manifold.is_empty());
        if through.is_none() && y.y > 2.8 && touching_platform {
            through = Some(w.clone());
        }
    }
    let style = WorldStyle { aabbs: false, contacts: true, labels: false };
    let trail = Style::stroke(Color::GREY).width(1.0).dashed();
    let mut rising = SvgCanvas::with_title("rising: the hook turns it off");
    through.expect("the box reaches the platform").draw(&mut rising, &style);
    rising.polyline(&path[..path.len() / 3], &trail);
    let mut landed = SvgCanvas::with_title("landed: the contact is solved");
    w.draw(&mut landed, &style);
    landed.polyline(&path, &trail);

    let mut w = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    let zone_shape = Cuboid::new(Vec2::new(1.5, 0.6)).unwrap();
    let zone_pose = Iso2::translation(0.0, 0.0);
    w.add(BodyDesc::fixed(zone_shape).pose(zone_pose).sensor(true)).unwrap();
    let ball = Ball::new(0.25).unwrap();
    let b = w.add(BodyDesc::dynamic(ball).pose(Iso2::translation(0.0, 1.7))).unwrap();
    let mut sensor = SvgCanvas::with_title("a sensor: in and out, never pushed");
    zone_shape.draw2(&zone_pose, &mut sensor, &Style::filled(palette::SHAPE).dashed());
    for step in 0..56 {
        let before = *w.body(b).unwrap().pose();
        w.step(dt).unwrap();
        let events = w.events();
        let inside = !w.sensor_overlaps().is_empty();
        if step % 3 == 0 || !events.is_empty() {
            let color = if inside { palette::SHAPE_B } else { palette::SHAPE_A };
            let at = p(before.translation.x, before.translation.y);
            sensor.circle(&at, 0.25, &Style::stroke(color).width(1.0));
        }
        let at = p(before.translation.x + 0.4, before.translation.y);
        if !events.sensor_begin().is_empty() {
            sensor.text(&at, "sensor begin", palette::TEXT);
        }
        if !events.sensor_end().is_empty() {
            sensor.text(&at, "sensor end", palette::TEXT);
        }
    }
    let mut fig = SvgFigure::new("Events, sensors and the contact hook")
        .columns(3)
        .panel_width(240.0)
        .legend(palette::SHAPE_A, "dynamic body (ball: outside the sensor)")
        .legend(palette::CSO, "static body")
        .legend(palette::SHAPE_B, "ball overlapping the sensor")
        .legend(palette::NORMAL, "manifold normal")
        .legend(Color::GREY, "path of the box (dashed)")
        .caption("Left and middle: a box jumps up through a one-way platform and lands on it. The contact hook of World::step_with_hook disables the pair while the normal from the platform points down or the box is sunk in it, so the manifold on the left is not solved; the one in the middle is. Right: a ball falls through a static sensor, drawn every third step at the pose the step tested; the step reports sensor begin and end events, and the ball falls freely.");
    fig.push(rising);
    fig.push(landed);
    fig.push(sensor);
    fig
}

/// Every 3D shape, projected orthographically.
fn shapes3d() -> SvgFigure {
    let golden = (1.0 + 5f64.sqrt()) / 2.0;
    let mut ico = Vec::new();
    for s1 in [-1.0, 1.0] {
        for s2 in [-1.0, 1.0] {
            let (a, b) = (s1 * 0.55, s2 * 0.55 * golden);
            ico.extend([Point3::new(0.0, a, b), Point3::new(a, b, 0.0), Point3::new(b, 0.0, a)]);
        }
    }
    let shapes: Vec<(&str, Shape3<f64>)> = vec![
        ("Ball", Ball::new(0.9).unwrap().into()),
        ("Cuboid", Cuboid::new(Vec3::new(0.9, 0.5, 0.6)).unwrap().into()),
        ("Capsule", Capsule::new_axis(0.6, 0.4).unwrap().into()),
        ("Cylinder", Cylinder::new(0.6, 0.6).unwrap().into()),
        ("Cone", Cone::new(0.7, 0.7).unwrap().into()),
        ("ConvexPolyhedron (icosahedron)", ConvexPolyhedron::from_points(&ico).unwrap().into()),
        (
            "Triangle",
            Triangle::new(
                Point3::new(-0.9, -0.5, 0.0),
                Point3::new(0.9, -0.3, 0.2),
                Point3::new(0.0, 0.8, -0.3),
            )
            .unwrap()
            .into(),
        ),
        (
            "Segment",
            Segment::new(Point3::new(-0.8, -0.6, 0.3), Point3::new(0.8, 0.6, -0.3)).unwrap().into(),
        ),
    ];
    let view = Ortho::standard();
    let pose = Iso3::new(Vec3::zeros(), Vec3::new(0.25, 0.0, 0.15));
    let mut fig = SvgFigure::new("kollide 3D shapes, orthographic projection")
        .columns(4)
        .panel_width(200.0)
        .legend(palette::SHAPE, "silhouette and visible edges")
        .legend(palette::SHAPE.with_alpha(150), "hidden edges (dashed)")
        .caption("Draw3 projects with Ortho (35 degrees right, 25 degrees above). The silhouette comes from the support function (the support of the projection is the projection of the support); edges whose two faces both face away are dashed.");
    for (name, s) in &shapes {
        let mut c = SvgCanvas::with_title(*name);
        s.draw3(&pose, &view, &mut c, &Style::filled(palette::SHAPE));
        fig.push(c);
    }
    fig.share_view();
    fig
}
