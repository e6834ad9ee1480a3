//! Finding variants: a shipped name, or a path to a TOML file whose
//! `inherits` may name a shipped variant or a file.
//!
//! How paths resolve: a relative path in a file is relative to the
//! directory of the file that names it (the experiment file for
//! `variant`, the inheriting variant file for `inherits`); an absolute path
//! is taken as it is; `../` works. A name that is no file there is looked
//! up among the shipped variants (which inherit only shipped variants).
//! Only regular files are read.

use std::cell::RefCell;
use std::path::{Path, PathBuf};

use pocketlab_core::builtin;
use pocketlab_core::kind::parse_variant;
use pocketlab_core::{Variant, VariantError};

use crate::files::read_text;
use crate::hash::stable_hash;
use crate::log::VARIANT_INPUT;

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
    let text = read_text(path).map_err(|e| VariantError {
        file: spec.to_owned(),
        key: String::new(),
        reason: format!("cannot read: {e}"),
    })?;
    let chain = Chain::new(path.parent().unwrap_or(Path::new("")));
    chain.enter(spec, path);
    parse_variant(&path.display().to_string(), &text, &|name| {
        chain.resolve(name)
    })
}

/// Resolves the files of one inheritance chain, each `inherits` beside the
/// file that says it, and records each file's hash. The core asks for one
/// parent per file, in order, so the chain is a path: the directory of the
/// last file found is where the next name resolves.
#[derive(Debug)]
pub struct Chain {
    /// Where the next name resolves; `None` once inside shipped variants.
    dir: RefCell<Option<PathBuf>>,
    /// The names so far, as written (`a.toml > ../b.toml > chess`).
    names: RefCell<Vec<String>>,
    inputs: RefCell<Vec<(String, u64)>>,
}

impl Chain {
    /// A chain whose first name resolves in `dir`.
    pub fn new(dir: &Path) -> Chain {
        Chain {
            dir: RefCell::new(Some(dir.to_path_buf())),
            names: RefCell::new(Vec::new()),
            inputs: RefCell::new(Vec::new()),
        }
    }

    /// Record that the chain starts at the file `path`, named `name`.
    fn enter(&self, name: &str, path: &Path) {
        if let Ok(text) = read_text(path) {
            self.found(name, &text, path.parent().map(Path::to_path_buf));
        }
    }

    fn found(&self, name: &str, text: &str, next_dir: Option<PathBuf>) {
        self.names.borrow_mut().push(name.to_owned());
        let what = format!("{VARIANT_INPUT}{}", self.names.borrow().join(" > "));
        self.inputs
            .borrow_mut()
            .push((what, stable_hash(text.as_bytes())));
        *self.dir.borrow_mut() = next_dir;
    }

    /// The label and text of the variant `name` names from where the chain is.
    pub fn resolve(&self, name: &str) -> Option<(String, String)> {
        let dir = self.dir.borrow().clone();
        if let Some(dir) = dir {
            let candidates: [PathBuf; 2] = [dir.join(name), dir.join(format!("{name}.toml"))];
            for candidate in candidates {
                if candidate.is_file() {
                    let text = read_text(&candidate).ok()?;
                    self.found(name, &text, candidate.parent().map(Path::to_path_buf));
                    return Some((candidate.display().to_string(), text));
                }
            }
        }
        let (label, text) = builtin::resolve(name)?;
        self.found(name, &text, None);
        Some((label, text))
    }

    /// Each file of the chain with the hash of its text, named by the path
    /// of names that led to it.
    pub fn inputs(&self) -> Vec<(String, u64)> {
        self.inputs.borrow().clone()
    }
}

/// A variant named from a file in `dir`: a file there (with or without
/// `.toml`), else a shipped variant.
pub fn resolve_beside(dir: &Path, name: &str) -> Option<(String, String)> {
    Chain::new(dir).resolve(name)
}
