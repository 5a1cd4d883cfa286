//! A Box2D v3 world of boxes on a static ground box (through `boxdd`'s safe API), shared by the
//! world benches and the side-by-side physics tests so that both build Box2D's scenes the same
//! way: one worker unless asked for more, no sleeping, density 1 and Box2D's default friction (0.6).

/// A Box2D world, its dynamic boxes in the order of their centres, and the foundation that
/// keeps Box2D initialised.
pub struct Box2dBoxes {
    /// The world.
    pub world: boxdd::World,
    /// One body per centre.
    pub boxes: Vec<boxdd::BodyId>,
}

/// Builds the world: gravity `(0, gravity)`, a static ground box of half extents `ground_half`
/// centred at `ground_centre`, and a dynamic box of half size `half` at each centre.
pub fn box2d_boxes(
    gravity: f32,
    ground_half: [f32; 2],
    ground_centre: [f32; 2],
    half: f32,
    centres: impl IntoIterator<Item = [f32; 2]>,
) -> Box2dBoxes {
    box2d_boxes_on_workers(1, gravity, ground_half, ground_centre, half, centres)
}

/// [`box2d_boxes`] stepped by `workers` workers of Box2D's own scheduler (Box2D v3.2 starts
/// its built-in thread pool when a world asks for more than one worker).
pub fn box2d_boxes_on_workers(
    workers: u32,
    gravity: f32,
    ground_half: [f32; 2],
    ground_centre: [f32; 2],
    half: f32,
    centres: impl IntoIterator<Item = [f32; 2]>,
) -> Box2dBoxes {
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let def = boxdd::WorldBuilder::from(foundation.world_def())
        .gravity(boxdd::Vec2::new(0.0, gravity))
        .enable_sleep(false)
        .worker_count(boxdd::WorkerCount::new(workers).expect("a supported worker count"))
        .build()
        .expect("a world definition");
    let mut world = foundation.create_world(def).expect("a world");
    let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");

    let ground_def = boxdd::BodyBuilder::from(foundation.body_def())
        .position(boxdd::Position::new(ground_centre[0], ground_centre[1]))
        .build()
        .expect("a body definition");
    let ground = world.create_body(ground_def).expect("ground");
    let ground_box = boxdd::shapes::box_polygon(ground_half[0], ground_half[1]).expect("extents");
    world.body(ground).and_then(|mut b| b.create_polygon(&shape, &ground_box)).expect("ground");

    let cube = boxdd::shapes::box_polygon(half, half).expect("extents");
    let boxes = centres
        .into_iter()
        .map(|c| {
            let def = boxdd::BodyBuilder::from(foundation.body_def())
                .body_type(boxdd::BodyType::Dynamic)
                .position(boxdd::Position::new(c[0], c[1]))
                .enable_sleep(false)
                .build()
                .expect("a body definition");
            let id = world.create_body(def).expect("a box");
            world.body(id).and_then(|mut b| b.create_polygon(&shape, &cube)).expect("a box");
            id
        })
        .collect();
    Box2dBoxes { world, boxes }
}
