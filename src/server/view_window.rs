//! `app__view_window {windowId}`: a look at a window as the person sees it now, for what is
//! painted and no block can say (a chart, a drawing, a widget of the app's own).
//!
//! Read-only and listed on every connection, beside `app__read_windows`. The picture is asked of
//! the UI thread through the hub (`hub/picture.rs`: one at a time per app, at least
//! [`MIN_VIEW_INTERVAL`](crate::limits::MIN_VIEW_INTERVAL) apart, within
//! [`VIEW_WINDOW_WAIT`](crate::limits::VIEW_WINDOW_WAIT)); what the UI hands back is the
//! integration's screenshot and the window's framing, which are cropped, blanked (what the app
//! hides from the read view, every password edit: a flat [`BLANK`] fill), scaled down to at most
//! [`MAX_VIEW_SIDE`] pixels on the long side and encoded as a PNG of at most [`MAX_VIEW_BYTES`]
//! here, on a blocking thread of the server's runtime, never on the UI thread.
//!
//! The result: an MCP `image` content, then the text every result carries (the message, or the
//! JSON), and `structuredContent` `{message, result: {windowId, version, width, height}}` (the
//! picture's size in pixels, the window's version in the state published with the pass that was
//! pictured). Log lines carry sizes, never the image.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use base64::Engine as _;
use rmcp::model::{CallToolResult, ContentBlock, Tool};
use serde_json::{Map, Value, json};

use super::result::{call_result, wrap_result};
use super::tool_entry::to_mcp_tool;
use super::{ResultView, ServerShared};
use crate::hub::picture::{PxRect, Shot, view_wait};
use crate::hub::{Hints, MAX_VIEW_BYTES, MAX_VIEW_SIDE, ToolSpec, clipped};
use crate::protocol::{APP_TARGET, ErrorCode, ToolError, VIEW_WINDOW_ACTION, tool_name};

/// `app__view_window`.
pub static VIEW_WINDOW: LazyLock<String> = LazyLock::new(|| tool_name(APP_TARGET, VIEW_WINDOW_ACTION));

/// The flat fill of what a picture blanks (mid grey).
pub(crate) const BLANK: [u8; 3] = [128, 128, 128];

/// The entry of `app__view_window`: it says what it is for, so that a model reaches for it only
/// where the blocks cannot say what is shown.
pub fn view_window_tool() -> Tool {
    static TOOL: LazyLock<Tool> = LazyLock::new(|| {
        to_mcp_tool(&ToolSpec {
            name: VIEW_WINDOW.clone(),
            title: "View a window".to_owned(),
            description: "A window as the person sees it now (PNG), for what is painted that blocks cannot say: a chart, a custom widget. Hidden parts and passwords are grey.".to_owned(),
            input_schema: Arc::new(rmcp::model::object(json!({
                "type": "object",
                "properties": {"windowId": {"type": "string"}},
                "required": ["windowId"]
            }))),
            hints: Hints { read_only: true, idempotent: true, ..Hints::default() },
            ask_person: false,
        })
    });
    TOOL.clone()
}

/// The window an agent named, or why its arguments are unusable (naming the parameter).
fn window_of(args: &Map<String, Value>) -> Result<&str, ToolError> {
    if let Some(unknown) = args.keys().find(|k| *k != "windowId") {
        return Err(ToolError::invalid_field(
            clipped(unknown),
            format!("is not a parameter of {} (windowId)", *VIEW_WINDOW),
        ));
    }
    match args.get("windowId") {
        Some(Value::String(w)) if !w.is_empty() => Ok(w),
        _ => Err(ToolError::invalid_field("windowId", "must be a window's id, as app://windows lists it")),
    }
}

/// `app__view_window`'s result, or its error as every tool's.
pub async fn view_window(shared: &ServerShared, sees: ResultView, args: &Map<String, Value>) -> CallToolResult {
    let window = match window_of(args) {
        Ok(w) => w,
        Err(e) => return call_result(&Err(e), sees, None),
    };
    shared.hub.first_frame().await;
    if shared.hub.snapshot().window(window).is_none() {
        return call_result(&Err(ToolError::window_not_found(&clipped(window))), sees, None);
    }
    let picture = match take(shared, window).await {
        Ok(p) => p,
        Err(e) => {
            tracing::info!(tool = VIEW_WINDOW.as_str(), code = e.code.as_str(), "no picture");
            return call_result(&Err(e), sees, None);
        }
    };
    tracing::info!(
        tool = VIEW_WINDOW.as_str(),
        width = picture.width,
        height = picture.height,
        bytes = picture.png.len(),
        blanked = picture.blanked,
        "window picture"
    );
    let scaled = if picture.scaled { ", scaled down" } else { "" };
    let grey = match picture.blanked {
        0 => String::new(),
        1 => "; 1 grey area is hidden from agents (a password, a hidden part)".to_owned(),
        n => format!("; {n} grey areas are hidden from agents (passwords, hidden parts)"),
    };
    let message =
        format!("Window {window} as the person sees it: {}×{} px{scaled}{grey}", picture.width, picture.height);
    let value = json!({
        "message": message,
        "result": {"windowId": window, "version": picture.version, "width": picture.width, "height": picture.height}
    });
    let mut result = wrap_result(value, false, sees);
    let data = base64::engine::general_purpose::STANDARD.encode(&picture.png);
    result.content.insert(0, ContentBlock::image(data, "image/png"));
    result
}

/// Waits for the turn, asks the UI for the picture and makes the PNG off the UI thread, the
/// turn held until it is made (so that at most one screenshot is held at a time).
async fn take(shared: &ServerShared, window: &str) -> Result<Picture, ToolError> {
    let hub = &shared.hub;
    let turn = hub.picture_turn(view_wait(hub.config().call_timeout)).await?;
    let shot = hub.ask_picture(&turn, window).await?;
    let made = tokio::task::spawn_blocking(move || picture(shot)).await;
    drop(turn);
    made.unwrap_or_else(|_| Err(ToolError::new(ErrorCode::ActionNotAvailable, "The picture could not be made")))
}

/// A window's picture, made.
#[derive(Debug)]
struct Picture {
    png: Vec<u8>,
    width: usize,
    height: usize,
    version: u64,
    /// Scaled down to fit.
    scaled: bool,
    /// The areas blanked in it.
    blanked: usize,
}

/// A rectangle in whole pixels, `x0..x1` by `y0..y1`, taking in every pixel `r` touches,
/// within `width` by `height`.
fn whole_pixels(r: PxRect, width: usize, height: usize) -> (usize, usize, usize, usize) {
    let at = |v: f32, max: usize| if v.is_nan() { 0 } else { (v.max(0.0) as usize).min(max) };
    let x0 = at(r[0].floor(), width);
    let y0 = at(r[1].floor(), height);
    let x1 = at(r[2].ceil(), width);
    let y1 = at(r[3].ceil(), height);
    (x0, y0, x1.max(x0), y1.max(y0))
}

/// The screenshot cropped to the window, blanked, scaled down to [`MAX_VIEW_SIDE`] and then
/// until its PNG takes at most [`MAX_VIEW_BYTES`].
fn picture(shot: Shot) -> Result<Picture, ToolError> {
    let [sw, sh] = shot.pixels.size();
    let (x0, y0, x1, y1) = whole_pixels(shot.crop, sw, sh);
    let (w, h) = (x1 - x0, y1 - y0);
    if w == 0 || h == 0 {
        return Err(ToolError::new(ErrorCode::ActionNotAvailable, "The window takes no room on screen: no picture"));
    }
    let mut rgb = Vec::with_capacity(w * h * 3);
    for y in y0..y1 {
        shot.pixels.rgb_row(y, x0, x1, &mut rgb);
    }
    drop(shot.pixels);
    if rgb.len() != w * h * 3 {
        return Err(ToolError::new(ErrorCode::ActionNotAvailable, "The app's screenshot was smaller than its screen"));
    }
    let mut blanked = 0;
    for b in &shot.blanks {
        let moved = [b[0] - x0 as f32, b[1] - y0 as f32, b[2] - x0 as f32, b[3] - y0 as f32];
        blanked += usize::from(blank(&mut rgb, w, h, moved));
    }
    let mut side = MAX_VIEW_SIDE.min(w.max(h));
    loop {
        let (pixels, pw, ph) = scaled(&rgb, w, h, side);
        let png = png_of(&pixels, pw, ph)?;
        if png.len() <= MAX_VIEW_BYTES {
            let scaled = (pw, ph) != (w, h);
            return Ok(Picture { png, width: pw, height: ph, version: shot.version, scaled, blanked });
        }
        // A PNG's size goes with its area: the side shrinks by the square root, and a margin.
        let ratio = (MAX_VIEW_BYTES as f64 / png.len() as f64).sqrt() * 0.9;
        side = (side as f64 * ratio) as usize;
        if side < 16 {
            return Err(ToolError::new(
                ErrorCode::ActionNotAvailable,
                format!("The window's picture does not fit in {MAX_VIEW_BYTES} bytes"),
            ));
        }
    }
}

/// Fills `r` (pixels of the `w` by `h` picture) with [`BLANK`]; whether any pixel was in it.
fn blank(rgb: &mut [u8], w: usize, h: usize, r: PxRect) -> bool {
    let (x0, y0, x1, y1) = whole_pixels(r, w, h);
    if x1 == x0 || y1 == y0 {
        return false;
    }
    for y in y0..y1 {
        for px in rgb[(y * w + x0) * 3..(y * w + x1) * 3].chunks_exact_mut(3) {
            px.copy_from_slice(&BLANK);
        }
    }
    true
}

/// The picture with its long side at most `side` (its proportions kept), each pixel the
/// average of those it covers; as it is when it fits already.
fn scaled(rgb: &[u8], w: usize, h: usize, side: usize) -> (Cow<'_, [u8]>, usize, usize) {
    if w.max(h) <= side {
        return (Cow::Borrowed(rgb), w, h);
    }
    let (nw, nh) =
        if w >= h { (side, ((h * side + w / 2) / w).max(1)) } else { (((w * side + h / 2) / h).max(1), side) };
    let mut out = Vec::with_capacity(nw * nh * 3);
    let span = |d: usize, n: usize, of: usize| {
        let start = d * of / n;
        (start, ((d + 1) * of / n).max(start + 1).min(of))
    };
    for dy in 0..nh {
        let (sy0, sy1) = span(dy, nh, h);
        for dx in 0..nw {
            let (sx0, sx1) = span(dx, nw, w);
            let mut sum = [0u32; 3];
            for y in sy0..sy1 {
                for px in rgb[(y * w + sx0) * 3..(y * w + sx1) * 3].chunks_exact(3) {
                    for c in 0..3 {
                        sum[c] += u32::from(px[c]);
                    }
                }
            }
            let n = ((sy1 - sy0) * (sx1 - sx0)) as u32;
            out.extend(sum.map(|s| ((s + n / 2) / n) as u8));
        }
    }
    (Cow::Owned(out), nw, nh)
}

/// An RGB PNG of `w` by `h` pixels.
fn png_of(rgb: &[u8], w: usize, h: usize) -> Result<Vec<u8>, ToolError> {
    let failed = |_| ToolError::new(ErrorCode::ActionNotAvailable, "The picture could not be encoded");
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(rgb).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::picture::Pixels;

    /// A screenshot whose pixel (x, y) is `f(x, y)`.
    struct Made<F>(usize, usize, F);

    impl<F: Fn(usize, usize) -> [u8; 3] + Send> Pixels for Made<F> {
        fn size(&self) -> [usize; 2] {
            [self.0, self.1]
        }

        fn rgb_row(&self, y: usize, x0: usize, x1: usize, out: &mut Vec<u8>) {
            out.extend((x0..x1).flat_map(|x| (self.2)(x, y)));
        }
    }

    fn shot(w: usize, h: usize, f: impl Fn(usize, usize) -> [u8; 3] + Send + 'static, crop: PxRect) -> Shot {
        Shot { pixels: Box::new(Made(w, h, f)), crop, blanks: Vec::new(), version: 3 }
    }

    fn decode(png: &[u8]) -> (usize, usize, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width as usize, info.height as usize, buf)
    }

    /// The crop takes in every pixel the window touches, and a blank fills exactly the pixels
    /// it touches, in the crop's coordinates.
    #[test]
    fn the_window_is_cropped_and_what_is_hidden_blanked() {
        let mut s = shot(100, 80, |x, y| [x as u8, y as u8, 200], [10.5, 20.0, 50.0, 60.0]);
        s.blanks = vec![[20.0, 30.2, 30.0, 40.0], [90.0, 0.0, 99.0, 10.0]]; // the second outside
        let p = picture(s).unwrap();
        assert_eq!((p.width, p.height, p.version, p.blanked, p.scaled), (40, 40, 3, 1, false));
        let (w, h, rgb) = decode(&p.png);
        assert_eq!((w, h), (40, 40));
        let at = |x: usize, y: usize| [rgb[(y * w + x) * 3], rgb[(y * w + x) * 3 + 1], rgb[(y * w + x) * 3 + 2]];
        assert_eq!(at(0, 0), [10, 20, 200], "the crop starts at the pixel 10.5 is in");
        assert_eq!(at(10, 10), BLANK);
        assert_eq!(at(19, 19), BLANK);
        assert_eq!(at(20, 19), [30, 39, 200], "past the blank");
        assert_eq!(at(10, 9), [20, 29, 200], "above it");
    }

    /// A picture is at most `MAX_VIEW_SIDE` on its long side (proportions kept), and its PNG at
    /// most `MAX_VIEW_BYTES`, however large and noisy the window.
    #[test]
    fn a_picture_is_bounded_in_side_and_bytes() {
        let wide = picture(shot(3300, 90, |x, _| [(x / 3 % 256) as u8; 3], [0.0, 0.0, 3300.0, 90.0])).unwrap();
        assert_eq!((wide.width, wide.height, wide.scaled), (MAX_VIEW_SIDE, 44, true));
        let tall = picture(shot(50, 2000, |_, y| [(y % 256) as u8; 3], [0.0, 0.0, 50.0, 2000.0])).unwrap();
        assert_eq!((tall.width, tall.height), (40, MAX_VIEW_SIDE));
        // Noise does not compress: 1,200 × 1,000 of it is 3.6 MB as pixels.
        let noise = |x: usize, y: usize| {
            let v = ((x * 2_654_435_761) ^ (y * 40_503) ^ (x * y).rotate_left(7)).wrapping_mul(0x9E37_79B9) >> 7;
            [v as u8, (v >> 8) as u8, (v >> 16) as u8]
        };
        let noisy = picture(shot(1200, 1000, noise, [0.0, 0.0, 1200.0, 1000.0])).unwrap();
        assert!(noisy.png.len() <= MAX_VIEW_BYTES, "{} bytes", noisy.png.len());
        assert!(noisy.scaled && noisy.width < 1200 && noisy.width > 300, "{}×{}", noisy.width, noisy.height);
        let (w, h, _) = decode(&noisy.png);
        assert_eq!((w, h), (noisy.width, noisy.height), "the size said is the PNG's");
    }

    #[test]
    fn scaling_averages_the_pixels_each_covers() {
        let rgb: Vec<u8> = [[0u8, 0, 0], [200, 100, 50], [10, 10, 10], [30, 30, 30]].concat();
        let (out, w, h) = scaled(&rgb, 2, 2, 1);
        assert_eq!((w, h, &*out), (1, 1, &[60u8, 35, 23][..]));
    }

    #[test]
    fn the_arguments_are_checked_naming_the_parameter() {
        let field = |v: Value| {
            let Value::Object(o) = v else { unreachable!() };
            window_of(&o).err().map(|e| e.fields.unwrap_or_default()[0].field.clone())
        };
        assert_eq!(field(json!({})), Some("windowId".into()));
        assert_eq!(field(json!({"windowId": 3})), Some("windowId".into()));
        assert_eq!(field(json!({"windowId": ""})), Some("windowId".into()));
        assert_eq!(field(json!({"windowId": "a", "zoom": 2})), Some("zoom".into()));
        assert_eq!(field(json!({"windowId": "orders"})), None);
    }
}
