//! Finding variants: a shipped name, or a path to a TOML file whose
//! `inherits` may name a shipped variant or a file beside it.

use std::path::{Path, PathBuf};

use pocketlab_core::builtin;
use pocketlab_core::kind::parse_variant;
use pocketlab_core::{Variant, VariantError};

/// Load `spec`: a shipped variant name (`pocket-mutation`) or a file path.
pub fn load_variant(spec: &str) -> Result<Variant, VariantError> {
    if builtin::text(spec).is_some() {
        return builtin::load(spec);
    }
    let path = Path::new(spec);
    if !path.exists() {
        return Err(VariantError {
            file: spec.to_owned(),
            key: String::new(),
            reason: format!(
                "neither a shipped variant ({}) nor an existing file",
                builtin::names().collect::<Vec<_>>().join(", ")
            ),
        });
    }
    let text = read(path)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse_variant(&path.display().to_string(), &text, &|name| {
        resolve_beside(&dir, name)
    })
}

fn read(path: &Path) -> Result<String, VariantError> {
    std::fs::read_to_string(path).map_err(|e| VariantError {
        file: path.display().to_string(),
        key: String::new(),
        reason: format!("cannot read: {e}"),
    })
}

/// A variant named from a file in `dir`: a file there (with or without
/// `.toml`), else a shipped variant.
pub fn resolve_beside(dir: &Path, name: &str) -> Option<(String, String)> {
    let candidates: [PathBuf; 2] = [dir.join(name), dir.join(format!("{name}.toml"))];
    for candidate in candidates {
        if candidate.is_file() {
            let text = std::fs::read_to_string(&candidate).ok()?;
            return Some((candidate.display().to_string(), text));
        }
    }
    builtin::resolve(name)
}
