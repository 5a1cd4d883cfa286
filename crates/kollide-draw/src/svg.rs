//! The SVG backend: [`SvgCanvas`] collects primitives in world units, [`SvgFigure`] lays one or
//! more canvases out (small multiples) with a title, a legend and a caption, and writes one
//! self-contained SVG document (no scripts, no external fonts, images or style sheets).
//!
//! ## Coordinates
//! Each canvas is fitted to a *view*: the bounds of what was drawn (or a view set with
//! [`SvgCanvas::set_view`], for example the same view for every frame of an animation, see
//! [`SvgFigure::share_view`]), grown by a margin. World y points up; the writer flips it, and
//! writes every element in the figure's pixel coordinates, so line widths, dots, arrow heads and
//! text are in pixels as [`crate::DebugDraw`] promises.
//!
//! ## Determinism
//! The same primitives give the same bytes: elements are written in drawing order, numbers with a
//! fixed two decimals of a pixel (trailing zeros trimmed, `-0` written `0`), and ids are counters.
//! That is what lets `cargo xtask ci` compare regenerated figures byte for byte.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use kollide_math::{Point2, Scalar};

use crate::{Color, DebugDraw, Style};

/// An axis-aligned rectangle in world units (x right, y up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Lower-left corner.
    pub min: [f64; 2],
    /// Upper-right corner.
    pub max: [f64; 2],
}

impl Rect {
    /// The rectangle with these corners.
    pub fn new(min: [f64; 2], max: [f64; 2]) -> Self {
        Self { min, max }
    }

    /// Width (x extent).
    pub fn width(&self) -> f64 {
        self.max[0] - self.min[0]
    }

    /// Height (y extent).
    pub fn height(&self) -> f64 {
        self.max[1] - self.min[1]
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, o: &Self) -> Self {
        Self {
            min: [self.min[0].min(o.min[0]), self.min[1].min(o.min[1])],
            max: [self.max[0].max(o.max[0]), self.max[1].max(o.max[1])],
        }
    }

    /// The rectangle grown by `m` on every side.
    pub fn grown(&self, m: f64) -> Self {
        Self { min: [self.min[0] - m, self.min[1] - m], max: [self.max[0] + m, self.max[1] + m] }
    }

    fn around(p: [f64; 2], r: f64) -> Self {
        Self { min: [p[0] - r, p[1] - r], max: [p[0] + r, p[1] + r] }
    }
}

/// One recorded primitive, in world units (f64).
#[derive(Clone, Debug, PartialEq)]
enum Item {
    Poly { points: Vec<[f64; 2]>, closed: bool, style: Style },
    Circle { center: [f64; 2], radius: f64, style: Style },
    Dot { at: [f64; 2], color: Color },
    Arrow { from: [f64; 2], to: [f64; 2], style: Style },
    Text { at: [f64; 2], text: String, color: Color },
}

/// A drawing surface that records [`DebugDraw`] primitives for SVG output. One canvas is one
/// panel of a [`SvgFigure`]; [`SvgCanvas::to_svg`] writes a canvas alone.
///
/// ```
/// use kollide_draw::{Color, DebugDraw, Style, SvgCanvas};
/// use kollide_math::Point2;
/// let mut c = SvgCanvas::new();
/// c.polygon(&[Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0)],
///           &Style::filled(Color::BLUE));
/// c.text(&Point2::new(0.0, 0.0), "origin", Color::BLACK);
/// let svg = c.to_svg();
/// assert!(svg.starts_with("<svg") && svg.contains("<polygon"));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SvgCanvas {
    items: Vec<Item>,
    title: Option<String>,
    view: Option<Rect>,
}

impl SvgCanvas {
    /// An empty canvas.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty canvas with a panel title (written above it).
    pub fn with_title(title: impl Into<String>) -> Self {
        Self { title: Some(title.into()), ..Self::default() }
    }

    /// Sets the panel title.
    pub fn set_title(&mut self, title: impl Into<String>) {
        self.title = Some(title.into());
    }

    /// `true` when nothing was drawn.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Fixes the world window shown (a margin is still added), instead of fitting the content.
    pub fn set_view(&mut self, view: Rect) {
        self.view = Some(view);
    }

    /// The bounds of the content in world units (text anchors and dots count as points), or
    /// `None` for an empty canvas.
    pub fn bounds(&self) -> Option<Rect> {
        self.items.iter().map(item_bounds).reduce(|a, b| a.union(&b))
    }

    /// The window this canvas shows, before the margin: the set view, else the bounds.
    pub fn view(&self) -> Option<Rect> {
        self.view.or_else(|| self.bounds())
    }

    /// This canvas alone as an SVG document, 480 pixels wide.
    pub fn to_svg(&self) -> String {
        let mut f = SvgFigure::new("");
        f.push(self.clone());
        f.to_svg()
    }

    fn push(&mut self, item: Item) {
        if item_finite(&item) {
            self.items.push(item);
        }
    }
}

fn item_bounds(item: &Item) -> Rect {
    match item {
        Item::Poly { points, .. } => points
            .iter()
            .map(|p| Rect::around(*p, 0.0))
            .reduce(|a, b| a.union(&b))
            .unwrap_or(Rect::around([0.0, 0.0], 0.0)),
        Item::Circle { center, radius, .. } => Rect::around(*center, *radius),
        Item::Dot { at, .. } | Item::Text { at, .. } => Rect::around(*at, 0.0),
        Item::Arrow { from, to, .. } => Rect::around(*from, 0.0).union(&Rect::around(*to, 0.0)),
    }
}

fn item_finite(item: &Item) -> bool {
    let ok = |p: &[f64; 2]| p[0].is_finite() && p[1].is_finite();
    match item {
        Item::Poly { points, .. } => !points.is_empty() && points.iter().all(ok),
        Item::Circle { center, radius, .. } => ok(center) && radius.is_finite(),
        Item::Dot { at, .. } | Item::Text { at, .. } => ok(at),
        Item::Arrow { from, to, .. } => ok(from) && ok(to),
    }
}

fn xy<N: Scalar>(p: &Point2<N>) -> [f64; 2] {
    [p.x.to_f64(), p.y.to_f64()]
}

impl<N: Scalar> DebugDraw<N> for SvgCanvas {
    fn polyline(&mut self, points: &[Point2<N>], style: &Style) {
        self.push(Item::Poly {
            points: points.iter().map(xy).collect(),
            closed: false,
            style: *style,
        });
    }

    fn polygon(&mut self, points: &[Point2<N>], style: &Style) {
        self.push(Item::Poly {
            points: points.iter().map(xy).collect(),
            closed: true,
            style: *style,
        });
    }

    fn circle(&mut self, center: &Point2<N>, radius: N, style: &Style) {
        self.push(Item::Circle { center: xy(center), radius: radius.to_f64(), style: *style });
    }

    fn point(&mut self, p: &Point2<N>, color: Color) {
        self.push(Item::Dot { at: xy(p), color });
    }

    fn arrow(&mut self, from: &Point2<N>, to: &Point2<N>, style: &Style) {
        self.push(Item::Arrow { from: xy(from), to: xy(to), style: *style });
    }

    fn text(&mut self, at: &Point2<N>, text: &str, color: Color) {
        self.push(Item::Text { at: xy(at), text: text.to_owned(), color });
    }
}

/// One or more [`SvgCanvas`] panels in a grid, with a title, a legend and a caption.
///
/// ```
/// use kollide_draw::{Color, DebugDraw, SvgCanvas, SvgFigure};
/// use kollide_math::Point2;
/// let mut fig = SvgFigure::new("Two frames").columns(2).legend(Color::BLUE, "a point");
/// for i in 0..2 {
///     let mut c = SvgCanvas::with_title(format!("frame {i}"));
///     c.point(&Point2::new(i as f64, 0.0), Color::BLUE);
///     fig.push(c);
/// }
/// fig.share_view();
/// assert_eq!(fig.to_svg(), fig.to_svg()); // deterministic
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SvgFigure {
    title: String,
    caption: Vec<String>,
    legend: Vec<(Color, String)>,
    panels: Vec<SvgCanvas>,
    columns: usize,
    panel_width: f64,
}

/// Layout constants, in pixels.
const OUTER: f64 = 12.0;
const GAP: f64 = 12.0;
const PAD: f64 = 14.0;
const TITLE_BAND: f64 = 30.0;
const SUBTITLE_BAND: f64 = 20.0;
const LEGEND_ROW: f64 = 22.0;
const CAPTION_LINE: f64 = 17.0;
const FONT: f64 = 12.0;
const DOT_RADIUS: f64 = 3.5;
/// The world margin around a view, as a fraction of its larger side.
const MARGIN: f64 = 0.06;
/// Approximate advance of a character at [`FONT`] size, for wrapping and legend layout.
const CHAR_W: f64 = 6.8;

impl SvgFigure {
    /// An empty figure with a title (empty for none), one column, panels 480 pixels wide.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            caption: Vec::new(),
            legend: Vec::new(),
            panels: Vec::new(),
            columns: 1,
            panel_width: 480.0,
        }
    }

    /// Lays the panels out in `n` columns.
    pub fn columns(mut self, n: usize) -> Self {
        self.columns = n.max(1);
        self
    }

    /// The width of each panel in pixels.
    pub fn panel_width(mut self, w: f64) -> Self {
        self.panel_width = w.max(2.0 * PAD + 10.0);
        self
    }

    /// Adds a caption paragraph (wrapped to the figure's width) under the panels.
    pub fn caption(mut self, text: impl Into<String>) -> Self {
        self.caption.push(text.into());
        self
    }

    /// Adds a legend entry: a swatch of `color` and a label.
    pub fn legend(mut self, color: Color, label: impl Into<String>) -> Self {
        self.legend.push((color, label.into()));
        self
    }

    /// Adds a panel.
    pub fn push(&mut self, canvas: SvgCanvas) {
        self.panels.push(canvas);
    }

    /// The panels.
    pub fn panels(&self) -> &[SvgCanvas] {
        &self.panels
    }

    /// Gives every panel the same view (the union of their views), so that successive frames of
    /// an algorithm line up.
    pub fn share_view(&mut self) {
        let all = self.panels.iter().filter_map(SvgCanvas::view).reduce(|a, b| a.union(&b));
        if let Some(v) = all {
            for p in &mut self.panels {
                p.set_view(v);
            }
        }
    }

    /// Writes the SVG document to `path`.
    pub fn write(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.to_svg())
    }

    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let cols = self.columns.min(self.panels.len()).max(1);
        let pw = self.panel_width;
        let width = 2.0 * OUTER + cols as f64 * pw + (cols - 1) as f64 * GAP;
        let max_h = pw * 1.1;
        let has_subtitles = self.panels.iter().any(|p| p.title.is_some());
        let sub = if has_subtitles { SUBTITLE_BAND } else { 0.0 };

        // Fit each panel: world view (with margin) and scale.
        let fits: Vec<(Rect, f64, f64)> = self
            .panels
            .iter()
            .map(|p| {
                let v = p.view().unwrap_or(Rect::around([0.0, 0.0], 1.0));
                let m = (v.width().max(v.height()) * MARGIN).max(1e-9);
                let v = if v.width().max(v.height()) <= 1e-12 { v.grown(1.0) } else { v.grown(m) };
                let s = ((pw - 2.0 * PAD) / v.width()).min((max_h - 2.0 * PAD) / v.height());
                (v, s, v.height() * s + 2.0 * PAD)
            })
            .collect();
        let rows: Vec<f64> =
            fits.chunks(cols).map(|r| r.iter().map(|f| f.2).fold(0.0, f64::max)).collect();

        let mut y = OUTER;
        let mut body = String::new();
        if !self.title.is_empty() {
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{}" font-size="16" font-weight="bold" fill="{}">{}</text>"#,
                num(OUTER),
                num(y + 17.0),
                Color::BLACK.hex(),
                escape(&self.title)
            );
            y += TITLE_BAND;
        }
        for (r, row_h) in rows.iter().enumerate() {
            for c in 0..cols {
                let i = r * cols + c;
                let Some(panel) = self.panels.get(i) else { break };
                let x0 = OUTER + c as f64 * (pw + GAP);
                if let Some(t) = &panel.title {
                    let _ = writeln!(
                        body,
                        r#"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="{}">{}</text>"#,
                        num(x0 + pw / 2.0),
                        num(y + 14.0),
                        Color::BLACK.hex(),
                        escape(t)
                    );
                }
                let (v, s, h) = fits[i];
                let top = y + sub;
                let _ = writeln!(
                    body,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1"/>"#,
                    num(x0),
                    num(top),
                    num(pw),
                    num(*row_h),
                    Color::LIGHT_GREY.hex()
                );
                let _ = writeln!(
                    body,
                    r#"<clipPath id="clip{i}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
                    num(x0),
                    num(top),
                    num(pw),
                    num(*row_h)
                );
                let _ = writeln!(body, r#"<g clip-path="url(#clip{i})">"#);
                let map = Map {
                    ox: x0 + (pw - v.width() * s) / 2.0,
                    oy: top + (row_h - h) / 2.0 + PAD,
                    min_x: v.min[0],
                    max_y: v.max[1],
                    s,
                    right: x0 + pw,
                    top,
                };
                for item in &panel.items {
                    write_item(&mut body, item, &map);
                }
                body.push_str("</g>\n");
            }
            y += sub + row_h + GAP;
        }

        // Legend: swatches and labels, wrapped.
        if !self.legend.is_empty() {
            let mut x = OUTER;
            for (color, label) in &self.legend {
                let w = 18.0 + label.chars().count() as f64 * CHAR_W + 18.0;
                if x > OUTER && x + w > width - OUTER {
                    x = OUTER;
                    y += LEGEND_ROW;
                }
                let _ = writeln!(
                    body,
                    r#"<rect x="{}" y="{}" width="12" height="12"{} stroke="{}" stroke-width="1"/>"#,
                    num(x),
                    num(y + 2.0),
                    fill_attrs(Some(*color)),
                    Color::BLACK.hex()
                );
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" font-size="{}" fill="{}">{}</text>"#,
                    num(x + 18.0),
                    num(y + 12.5),
                    num(FONT),
                    Color::BLACK.hex(),
                    escape(label)
                );
                x += w;
            }
            y += LEGEND_ROW;
        }
        // Caption: greedy word wrap.
        let per_line = (((width - 2.0 * OUTER) / CHAR_W) as usize).max(20);
        for para in &self.caption {
            for line in wrap(para, per_line) {
                let _ = writeln!(
                    body,
                    r#"<text x="{}" y="{}" font-size="{}" fill="{}">{}</text>"#,
                    num(OUTER),
                    num(y + 12.0),
                    num(FONT),
                    Color::rgb(60, 60, 60).hex(),
                    escape(&line)
                );
                y += CAPTION_LINE;
            }
        }
        let height =
            y + OUTER - if self.legend.is_empty() && self.caption.is_empty() { GAP } else { 0.0 };
        let mut out = String::with_capacity(body.len() + 400);
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#,
            w = num(width),
            h = num(height)
        );
        if !self.title.is_empty() {
            let _ = writeln!(out, "<title>{}</title>", escape(&self.title));
        }
        let _ = writeln!(
            out,
            r#"<rect width="{}" height="{}" fill="{}"/>"#,
            num(width),
            num(height),
            Color::WHITE.hex()
        );
        out.push_str(&body);
        out.push_str("</svg>\n");
        out
    }
}

/// World to pixel: `px = ox + (x − min_x)·s`, `py = oy + (max_y − y)·s` (y flipped).
struct Map {
    ox: f64,
    oy: f64,
    min_x: f64,
    max_y: f64,
    s: f64,
    /// The panel's right and top edges in pixels, to keep labels inside.
    right: f64,
    top: f64,
}

impl Map {
    fn px(&self, p: &[f64; 2]) -> [f64; 2] {
        [self.ox + (p[0] - self.min_x) * self.s, self.oy + (self.max_y - p[1]) * self.s]
    }
}

fn stroke_attrs(style: &Style) -> String {
    let mut a = String::new();
    match style.stroke {
        Some(c) => {
            let _ = write!(
                a,
                r#" stroke="{}" stroke-width="{}""#,
                c.hex(),
                num(f64::from(style.width))
            );
            if c.a != 255 {
                let _ = write!(a, r#" stroke-opacity="{}""#, num(c.opacity()));
            }
            a.push_str(r#" stroke-linejoin="round" stroke-linecap="round""#);
            if style.dashed {
                let dash = f64::from(style.width) * 3.0 + 2.0;
                let _ = write!(a, r#" stroke-dasharray="{} {}""#, num(dash), num(dash * 0.7));
            }
        }
        None => a.push_str(r#" stroke="none""#),
    }
    a
}

fn fill_attrs(fill: Option<Color>) -> String {
    match fill {
        Some(c) if c.a == 255 => format!(r#" fill="{}""#, c.hex()),
        Some(c) => format!(r#" fill="{}" fill-opacity="{}""#, c.hex(), num(c.opacity())),
        None => r#" fill="none""#.to_owned(),
    }
}

fn points_attr(pts: &[[f64; 2]]) -> String {
    let mut s = String::new();
    for (i, p) in pts.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{},{}", num(p[0]), num(p[1]));
    }
    s
}

fn write_item(out: &mut String, item: &Item, map: &Map) {
    match item {
        Item::Poly { points, closed, style } => {
            let pts: Vec<[f64; 2]> = points.iter().map(|p| map.px(p)).collect();
            let (tag, fill) = if *closed { ("polygon", style.fill) } else { ("polyline", None) };
            let _ = writeln!(
                out,
                r#"<{tag} points="{}"{}{}/>"#,
                points_attr(&pts),
                fill_attrs(fill),
                stroke_attrs(style)
            );
        }
        Item::Circle { center, radius, style } => {
            let c = map.px(center);
            let _ = writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}"{}{}/>"#,
                num(c[0]),
                num(c[1]),
                num(radius * map.s),
                fill_attrs(style.fill),
                stroke_attrs(style)
            );
        }
        Item::Dot { at, color } => {
            let c = map.px(at);
            let _ = writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}"{}/>"#,
                num(c[0]),
                num(c[1]),
                num(DOT_RADIUS),
                fill_attrs(Some(*color))
            );
        }
        Item::Arrow { from, to, style } => {
            let a = map.px(from);
            let b = map.px(to);
            let d = [b[0] - a[0], b[1] - a[1]];
            let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
            let color = style.stroke.unwrap_or(Color::BLACK);
            if len < 1e-9 {
                return;
            }
            let head = (7.0 + 2.0 * f64::from(style.width)).min(len * 0.6);
            let u = [d[0] / len, d[1] / len];
            let base = [b[0] - u[0] * head, b[1] - u[1] * head];
            let n = [-u[1] * head * 0.45, u[0] * head * 0.45];
            let _ = writeln!(
                out,
                r#"<polyline points="{}" fill="none"{}/>"#,
                points_attr(&[a, base]),
                stroke_attrs(&Style { stroke: Some(color), ..*style })
            );
            let _ = writeln!(
                out,
                r#"<polygon points="{}"{}/>"#,
                points_attr(&[
                    b,
                    [base[0] + n[0], base[1] + n[1]],
                    [base[0] - n[0], base[1] - n[1]]
                ]),
                fill_attrs(Some(color))
            );
        }
        Item::Text { at, text, color } => {
            // Above and right of the anchor, unless that leaves the panel: then left or below.
            let p = map.px(at);
            let w = text.chars().count() as f64 * CHAR_W;
            let (x, anchor) = if p[0] + 4.0 + w > map.right - 2.0 {
                (p[0] - 4.0, r#" text-anchor="end""#)
            } else {
                (p[0] + 4.0, "")
            };
            let y = if p[1] - 4.0 - FONT < map.top { p[1] + 4.0 + FONT } else { p[1] - 4.0 };
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="{}"{anchor}{}>{}</text>"#,
                num(x),
                num(y),
                num(FONT),
                fill_attrs(Some(*color)),
                escape(text)
            );
        }
    }
}

/// A number with at most two decimals, trailing zeros trimmed, never `-0`.
fn num(x: f64) -> String {
    let mut s = format!("{x:.2}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" { "0".to_owned() } else { s }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn wrap(text: &str, per_line: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > per_line {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_fixed_and_trimmed() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(1.23456), "1.23");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-2.5), "-2.5");
        assert_eq!(num(100.0), "100");
    }

    #[test]
    fn text_is_escaped_and_wrapped() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(wrap("one two three four", 9), vec!["one two", "three", "four"]);
    }

    #[test]
    fn non_finite_primitives_are_dropped() {
        let mut c = SvgCanvas::new();
        DebugDraw::<f64>::point(&mut c, &Point2::new(f64::NAN, 0.0), Color::BLACK);
        assert!(c.is_empty());
    }
}
