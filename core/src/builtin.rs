//! The variants shipped in `configs/variants/`, embedded at build time so a
//! name such as `pocket-mutation` works without the files at hand.

use crate::kind::parse_variant;
use crate::variant::{Variant, VariantError};

/// `(name, file text)` of every shipped variant.
pub(crate) const SHIPPED: &[(&str, &str)] = &[
    (
        "pocket-mutation",
        include_str!("../../configs/variants/pocket-mutation.toml"),
    ),
    (
        "pmc-proposed",
        include_str!("../../configs/variants/pmc-proposed.toml"),
    ),
    (
        "pmc-proposed-v4",
        include_str!("../../configs/variants/pmc-proposed-v4.toml"),
    ),
    ("chess", include_str!("../../configs/variants/chess.toml")),
    (
        "chess-nocastle",
        include_str!("../../configs/variants/chess-nocastle.toml"),
    ),
    (
        "fairy-oracle",
        include_str!("../../configs/variants/fairy-oracle.toml"),
    ),
    (
        "fairy-oracle-allpromo",
        include_str!("../../configs/variants/fairy-oracle-allpromo.toml"),
    ),
    (
        "fairy-oracle-nopromo",
        include_str!("../../configs/variants/fairy-oracle-nopromo.toml"),
    ),
    (
        "pmc-drops",
        include_str!("../../configs/variants/pmc-drops.toml"),
    ),
    (
        "chess-mutation",
        include_str!("../../configs/variants/chess-mutation.toml"),
    ),
    (
        "chess-mutation-alt",
        include_str!("../../configs/variants/chess-mutation-alt.toml"),
    ),
    (
        "potential-chess",
        include_str!("../../configs/variants/potential-chess.toml"),
    ),
    (
        "potential-chess-knights",
        include_str!("../../configs/variants/potential-chess-knights.toml"),
    ),
];

/// The default variant of the lab.
pub const DEFAULT: &str = "pocket-mutation";

/// The text of a shipped variant.
pub fn text(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Names of the shipped variants.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n)
}

/// Resolves `inherits` among the shipped variants.
pub fn resolve(name: &str) -> Option<(String, String)> {
    text(name).map(|t| (format!("{name}.toml"), t.to_owned()))
}

/// Build a shipped variant by name.
pub fn load(name: &str) -> Result<Variant, VariantError> {
    let text = text(name).ok_or_else(|| VariantError {
        file: name.to_owned(),
        key: String::new(),
        reason: format!(
            "no shipped variant of this name (shipped: {})",
            names().collect::<Vec<_>>().join(", ")
        ),
    })?;
    parse_variant(&format!("{name}.toml"), text, &resolve)
}
