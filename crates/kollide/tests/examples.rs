//! The event examples as tests: `examples/one_way_platform.rs` (a box jumps up through a
//! one-way platform and then rests on it), `examples/conveyor.rs` (a belt carries a box at its
//! speed) and `examples/bullet.rs` (a fast ball never crosses a thin wall). Each runs the
//! example's own `simulate` and asserts what its summary claims, with a control run that shows
//! the assertion can fail.

#[path = "../examples/one_way_platform.rs"]
mod one_way_platform;

#[path = "../examples/conveyor.rs"]
mod conveyor;

#[path = "../examples/bullet.rs"]
mod bullet;

#[test]
fn the_one_way_platform_lets_a_box_through_from_below_and_holds_it_from_above() {
    use one_way_platform::{HALF, PLATFORM_TOP, simulate};
    let o = simulate(true).unwrap();
    // Through from below: the box's bottom rose well above the platform's top.
    assert!(o.highest - HALF > PLATFORM_TOP + 0.5, "stopped below: {o:?}");
    // Held from above: it rests on the platform's top, still.
    assert!((o.final_height - (PLATFORM_TOP + HALF)).abs() < 0.03, "not on top: {o:?}");
    assert!(o.final_speed.abs() < 1e-3, "not at rest: {o:?}");
    assert!(o.disabled > 0 && o.enabled > 0, "the hook ran both ways: {o:?}");
    // Control: without the hook the platform is solid, and the box cannot get above it.
    let solid = simulate(false).unwrap();
    assert!(
        solid.highest + HALF < PLATFORM_TOP - 0.1,
        "a solid platform let it through: {solid:?}"
    );
    assert!(solid.final_height < PLATFORM_TOP, "{solid:?}");
}

#[test]
fn the_conveyor_carries_a_box_at_the_belt_speed() {
    use conveyor::{BELT_SPEED, simulate};
    let o = simulate().unwrap();
    // After landing and a short slide to the belt's speed, the box moves with the belt.
    for v in &o.speeds[1..] {
        assert!((v - BELT_SPEED).abs() < 0.01 * BELT_SPEED, "speeds {:?}", o.speeds);
    }
    // 3 s at 2 m/s, less the start: carried at least 5 m, at most 6 m, still on the belt.
    assert!(o.x + 6.0 > 5.0 && o.x + 6.0 < 6.0 + 1e-9, "{o:?}");
    assert!((o.y - 0.4).abs() < 0.02, "{o:?}");
}

#[test]
fn the_bullet_never_crosses_the_wall_and_tunnels_without_the_continuous_stage() {
    use bullet::{WALL, simulate};
    for angle in [0.0, 30.0, 45.0, 60.0] {
        let o = simulate(angle, true).unwrap();
        // Never inside the wall, let alone past it, in any step; the stage swept the ball.
        assert!(o.max_x < -WALL, "{angle}°: {o:?}");
        assert!(o.sweeps > 0, "{angle}°: {o:?}");
    }
    // Control: at an angle, without the stage, the ball tunnels (so the check above can fail).
    for angle in [30.0, 45.0, 60.0] {
        let o = simulate(angle, false).unwrap();
        assert!(o.max_x > WALL && o.sweeps == 0, "{angle}°: {o:?}");
    }
}
