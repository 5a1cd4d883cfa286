//! The figures of `docs/figures/` (the `figures` example's scenes): deterministic (same input,
//! same bytes), committed as the code draws them today, well-formed SVG, and rendered with
//! something drawn in every panel.

#[path = "../examples/figures/scenes.rs"]
#[allow(dead_code, reason = "shared with the figures example")]
mod scenes;

use resvg::{tiny_skia, usvg};

#[test]
fn figures_are_deterministic() {
    let first: Vec<(&str, String)> =
        scenes::all().into_iter().map(|(n, f)| (n, f.to_svg())).collect();
    let second: Vec<(&str, String)> =
        scenes::all().into_iter().map(|(n, f)| (n, f.to_svg())).collect();
    assert_eq!(first, second);
}

/// The committed SVGs are byte for byte what the scenes draw now, and no committed SVG is left
/// over from a scene that was removed. `cargo xtask figures` regenerates them.
#[test]
fn committed_figures_are_fresh() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/figures");
    let mut problems = Vec::new();
    let scenes = scenes::all();
    for (name, fig) in &scenes {
        let path = dir.join(format!("{name}.svg"));
        match std::fs::read_to_string(&path) {
            Ok(committed) if committed == fig.to_svg() => {}
            Ok(_) => problems.push(format!("{name}.svg: stale")),
            Err(e) => problems.push(format!("{name}.svg: {e}")),
        }
    }
    for entry in std::fs::read_dir(&dir).expect("docs/figures exists") {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(stem) = file.strip_suffix(".svg") else { continue };
        if !scenes.iter().any(|(n, _)| *n == stem) {
            problems.push(format!("{file}: no scene draws it any more"));
        }
    }
    assert!(!scenes.is_empty(), "no scenes were drawn");
    assert!(
        problems.is_empty(),
        "docs/figures is out of date; run `cargo xtask figures` and commit:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn figures_are_well_formed_and_every_panel_is_drawn() {
    for (name, fig) in scenes::all() {
        let svg = fig.to_svg();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        let mut pix = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pix.as_mut());
        // Each panel is a clip rectangle; count the non-white pixels inside it, shrunk by 2 px to
        // skip the frame.
        let panels: Vec<[f64; 4]> = doc
            .descendants()
            .filter(|n| n.has_tag_name("clipPath"))
            .filter_map(|n| n.first_element_child())
            .map(|r| {
                ["x", "y", "width", "height"].map(|a| r.attribute(a).unwrap().parse().unwrap())
            })
            .collect();
        assert_eq!(panels.len(), fig.panels().len(), "{name}");
        for (i, [x, y, w, h]) in panels.iter().enumerate() {
            let mut drawn = 0;
            let mut total = 0;
            for py in (*y as u32 + 2)..((y + h) as u32 - 2) {
                for px in (*x as u32 + 2)..((x + w) as u32 - 2) {
                    let c = pix.pixel(px, py).unwrap().demultiply();
                    total += 1;
                    if (c.red(), c.green(), c.blue()) != (255, 255, 255) {
                        drawn += 1;
                    }
                }
            }
            let frac = f64::from(drawn) / f64::from(total);
            assert!(frac > 0.01, "{name}: panel {i} is nearly empty ({frac:.4})");
            assert!(frac < 0.9, "{name}: panel {i} is nearly full ({frac:.4})");
        }
    }
}
