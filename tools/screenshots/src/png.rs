//! A rendered frame written as a PNG.

use std::path::Path;

use anyhow::Context as _;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, RgbaImage};

/// Writes `image` to `path` as an RGB PNG (the window is opaque: the alpha
/// channel would only add bytes), compressed as far as the encoder goes.
pub fn write(image: &RgbaImage, path: &Path) -> anyhow::Result<()> {
    let rgb: Vec<u8> = image
        .pixels()
        .flat_map(|pixel| [pixel[0], pixel[1], pixel[2]])
        .collect();
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, CompressionType::Best, FilterType::Adaptive)
        .write_image(
            &rgb,
            image.width(),
            image.height(),
            image::ExtendedColorType::Rgb8,
        )
        .context("cannot encode the picture as PNG")?;
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot make {}", folder.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}
