//! The SVG backend's output is well-formed XML, renders with resvg, and puts colour where the
//! primitives are: a filled polygon's centre has its fill, the empty space between shapes is
//! background, an arrow's shaft is drawn.

use kollide_draw::{Color, DebugDraw, Style, SvgCanvas, SvgFigure};
use kollide_math::Point2;
use resvg::{tiny_skia, usvg};

/// Renders an SVG document at its own size and returns the pixmap.
fn render(svg: &str) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("usvg parses the SVG");
    let size = tree.size().to_int_size();
    let mut pix = tiny_skia::Pixmap::new(size.width(), size.height()).expect("non-empty figure");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pix.as_mut());
    pix
}

fn rgba(pix: &tiny_skia::Pixmap, x: f64, y: f64) -> [u8; 4] {
    let p = pix.pixel(x.round() as u32, y.round() as u32).expect("pixel inside the image");
    let c = p.demultiply();
    [c.red(), c.green(), c.blue(), c.alpha()]
}

fn close(a: [u8; 4], c: Color) -> bool {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).abs() <= 3;
    d(a[0], c.r) && d(a[1], c.g) && d(a[2], c.b) && a[3] == 255
}

/// The pixel coordinates of the first element named `tag`, from its `points` or `cx`/`cy`.
fn first_position(svg: &str, tag: &str) -> [f64; 2] {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let node = doc.descendants().find(|n| n.has_tag_name(tag)).expect("element present");
    if let Some(points) = node.attribute("points") {
        let pts: Vec<[f64; 2]> = points
            .split(' ')
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                [x.parse().unwrap(), y.parse().unwrap()]
            })
            .collect();
        let n = pts.len() as f64;
        [pts.iter().map(|p| p[0]).sum::<f64>() / n, pts.iter().map(|p| p[1]).sum::<f64>() / n]
    } else {
        [
            node.attribute("cx").unwrap().parse().unwrap(),
            node.attribute("cy").unwrap().parse().unwrap(),
        ]
    }
}

fn scene() -> SvgCanvas {
    let mut c = SvgCanvas::with_title("scene");
    let square = [
        Point2::new(0.0, 0.0),
        Point2::new(1.0, 0.0),
        Point2::new(1.0, 1.0),
        Point2::new(0.0, 1.0),
    ];
    c.polygon(&square, &Style::solid(Color::BLUE));
    c.circle(&Point2::new(3.0, 0.5), 0.5, &Style::solid(Color::VERMILION));
    c.arrow(
        &Point2::new(0.0, -1.0),
        &Point2::new(3.0, -1.0),
        &Style::stroke(Color::GREEN).width(4.0),
    );
    c.text(&Point2::new(0.0, 1.0), "a <square> & a circle", Color::BLACK);
    c
}

#[test]
fn output_is_well_formed_and_self_contained() {
    let svg = scene().to_svg();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    for n in doc.descendants() {
        assert!(n.attribute("href").is_none(), "no external references");
        assert!(!n.has_tag_name("script") && !n.has_tag_name("image") && !n.has_tag_name("style"));
    }
    let text = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.text().is_some_and(|t| t.contains("square")));
    assert_eq!(text.and_then(|t| t.text()), Some("a <square> & a circle"));
}

#[test]
fn filled_regions_have_their_colour_and_gaps_are_background() {
    let canvas = scene();
    let svg = canvas.to_svg();
    let pix = render(&svg);
    let square = first_position(&svg, "polygon");
    assert!(close(rgba(&pix, square[0], square[1]), Color::BLUE), "square centre is blue");
    // The circle element after the panel's rect and clip path.
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let circle = doc
        .descendants()
        .find(|n| n.has_tag_name("circle"))
        .map(|n| {
            [
                n.attribute("cx").unwrap().parse::<f64>().unwrap(),
                n.attribute("cy").unwrap().parse().unwrap(),
            ]
        })
        .unwrap();
    assert!(
        close(rgba(&pix, circle[0], circle[1]), Color::VERMILION),
        "circle centre is vermilion"
    );
    let gap = [(square[0] + circle[0]) / 2.0, (square[1] + circle[1]) / 2.0];
    assert!(close(rgba(&pix, gap[0], gap[1]), Color::WHITE), "between the shapes is background");
    // y is up: the square (world y in 0..1) is above the arrow (world y = −1) on screen.
    let arrow = first_position(&svg, "polyline");
    assert!(arrow[1] > square[1], "world y up is screen y down");
    assert!(close(rgba(&pix, arrow[0], arrow[1]), Color::GREEN), "arrow shaft is drawn");
    let dims = [f64::from(pix.width()), f64::from(pix.height())];
    assert!(close(rgba(&pix, 2.0, dims[1] - 2.0), Color::WHITE), "corner is background");
}

#[test]
fn small_multiples_share_a_view_and_are_deterministic() {
    let mut fig =
        SvgFigure::new("frames").columns(3).panel_width(200.0).legend(Color::BLUE, "moving dot");
    fig = fig.caption(
        "A dot moves right; every frame shows the same window, so it appears at a different place.",
    );
    for i in 0..3 {
        let mut c = SvgCanvas::with_title(format!("frame {i}"));
        c.circle(&Point2::new(f64::from(i), 0.0), 0.2, &Style::solid(Color::BLUE));
        fig.push(c);
    }
    fig.share_view();
    let svg = fig.to_svg();
    assert_eq!(svg, fig.clone().to_svg(), "same input, same bytes");
    let pix = render(&svg);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let centres: Vec<[f64; 2]> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            [
                n.attribute("cx").unwrap().parse().unwrap(),
                n.attribute("cy").unwrap().parse().unwrap(),
            ]
        })
        .collect();
    assert_eq!(centres.len(), 3);
    for c in &centres {
        assert!(close(rgba(&pix, c[0], c[1]), Color::BLUE));
    }
    // Shared view: frame i's dot sits i world units right of its panel's left edge, so the
    // offsets from one panel to the next (panel width + gap) differ by one world unit each.
    let step1 = centres[1][0] - centres[0][0];
    let step2 = centres[2][0] - centres[1][0];
    assert!((step1 - step2).abs() < 0.02, "equal spacing in a shared view: {step1} vs {step2}");
    assert!(step1 > 200.0, "each frame in its own panel");
}
