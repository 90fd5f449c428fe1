//! Renders the Sales Report's revenue chart as a PNG, for the `media` block.

use base64::Engine as _;

const WIDTH: u32 = 280;
const HEIGHT: u32 = 140;
const BACKGROUND: [u8; 3] = [250, 250, 252];
/// A bar's colour, and today's (the person's chart uses them too).
pub(crate) const BAR: [u8; 3] = [66, 133, 244];
pub(crate) const TODAY: [u8; 3] = [52, 168, 83];
const AXIS: [u8; 3] = [90, 90, 90];

/// Draws one bar per value (the last one highlighted) and encodes the picture as PNG.
pub fn bar_chart_png(values: &[f64]) -> Vec<u8> {
    let (w, h) = (WIDTH as usize, HEIGHT as usize);
    let mut pixels = BACKGROUND.repeat(w * h);
    let mut put = |x: usize, y: usize, c: [u8; 3]| {
        if x < w && y < h {
            let i = (y * w + x) * 3;
            pixels[i..i + 3].copy_from_slice(&c);
        }
    };
    let (left, bottom, top) = (10usize, h - 10, 10usize);
    for x in left..w - 10 {
        put(x, bottom, AXIS);
    }
    let max = values.iter().copied().fold(0.0f64, f64::max).max(1.0);
    let n = values.len().max(1);
    let slot = (w - 20) / n;
    for (i, v) in values.iter().enumerate() {
        let bar_h = ((v / max) * (bottom - top) as f64).round() as usize;
        let color = if i + 1 == n { TODAY } else { BAR };
        let x0 = left + i * slot + slot / 6;
        let x1 = left + (i + 1) * slot - slot / 6;
        for x in x0..x1 {
            for y in bottom.saturating_sub(bar_h)..bottom {
                put(x, y, color);
            }
        }
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb); // 8 bits deep by default
    let written = encoder.write_header().and_then(|mut wr| wr.write_image_data(&pixels));
    if let Err(e) = written {
        tracing::error!(error = %e, "could not encode the chart");
    }
    out
}

/// The PNG as a `data:` URL.
pub fn data_url(png: &[u8]) -> String {
    format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(png))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_decodes_as_png_of_the_right_size() {
        let png = bar_chart_png(&[1.0, 5.0, 3.0]);
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (WIDTH, HEIGHT));
        assert!(data_url(&[1, 2]).starts_with("data:image/png;base64,"));
    }
}
