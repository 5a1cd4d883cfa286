//! [`DebugDraw`]: the primitives collision code draws with, and the [`Style`] they are drawn in.
//!
//! Positions and lengths of geometry (points, radii) are in **world units**, y up. Sizes that are
//! about legibility rather than geometry (line width, dot size, arrow heads, text) are in
//! **screen units** (pixels of the backend's output), so a figure reads the same whether it shows
//! a millimetre or a kilometre. A backend chooses the world-to-screen scale; collision code never
//! sees it.
//!
//! The trait is object safe: drawing code takes `&mut dyn DebugDraw<N>` and never depends on a
//! backend.

use kollide_math::{Point2, Scalar};

use crate::Color;

/// How a primitive is stroked and filled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Outline colour, or none.
    pub stroke: Option<Color>,
    /// Fill colour for closed primitives, or none.
    pub fill: Option<Color>,
    /// Line width in screen units.
    pub width: f32,
    /// Dashed outline (hidden edges, construction lines).
    pub dashed: bool,
}

impl Style {
    /// The default line width, in screen units.
    pub const LINE_WIDTH: f32 = 1.5;
    /// The alpha of the fill of [`Style::filled`].
    pub const FILL_ALPHA: u8 = 64;

    /// An outline in `color`, not filled.
    pub const fn stroke(color: Color) -> Self {
        Self { stroke: Some(color), fill: None, width: Self::LINE_WIDTH, dashed: false }
    }

    /// An outline in `color` over a translucent fill of the same colour.
    pub const fn filled(color: Color) -> Self {
        Self {
            stroke: Some(color),
            fill: Some(color.with_alpha(Self::FILL_ALPHA)),
            width: Self::LINE_WIDTH,
            dashed: false,
        }
    }

    /// A fill in `color` (as given, alpha included) without outline.
    pub const fn solid(color: Color) -> Self {
        Self { stroke: None, fill: Some(color), width: Self::LINE_WIDTH, dashed: false }
    }

    /// The same style with another line width (screen units).
    pub const fn width(self, width: f32) -> Self {
        Self { width, ..self }
    }

    /// The same style, dashed.
    pub const fn dashed(self) -> Self {
        Self { dashed: true, ..self }
    }
}

/// A sink for 2D debug drawing. Implemented by [`crate::SvgCanvas`]; a game would implement it
/// over its own line renderer.
///
/// Points are world positions (y up). Geometry (points, radii) is in world units; line widths,
/// dots, arrow heads and text are in screen units, so a figure reads the same at any scale.
pub trait DebugDraw<N: Scalar> {
    /// An open polyline through `points`.
    fn polyline(&mut self, points: &[Point2<N>], style: &Style);

    /// A closed polygon through `points` (filled when the style has a fill).
    fn polygon(&mut self, points: &[Point2<N>], style: &Style);

    /// A circle of `radius` world units around `center`.
    fn circle(&mut self, center: &Point2<N>, radius: N, style: &Style);

    /// A dot of fixed screen size at `p`.
    fn point(&mut self, p: &Point2<N>, color: Color);

    /// An arrow from `from` to `to`, with a head of fixed screen size at `to`.
    fn arrow(&mut self, from: &Point2<N>, to: &Point2<N>, style: &Style);

    /// A text label whose lower-left corner is just above and right of `at`.
    fn text(&mut self, at: &Point2<N>, text: &str, color: Color);

    /// A segment from `a` to `b`.
    fn segment(&mut self, a: &Point2<N>, b: &Point2<N>, style: &Style) {
        self.polyline(&[*a, *b], style);
    }
}
