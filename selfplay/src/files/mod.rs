//! Files in and out.
//!
//! Reading input files safely: only regular files are opened, so a FIFO,
//! a device or a directory given where a file belongs is an error instead
//! of a read that never returns (opening a FIFO blocks until a writer
//! comes; `/dev/stdin` would swallow the terminal).
//!
//! Writing outputs whole ([`replace_whole`]): reports, training outputs,
//! label files and evaluation files are replaced atomically, never left
//! half-written (the self-play log has its own writer, which never
//! replaces).

mod replace;

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read as _};
use std::path::{Component, Path, PathBuf};

use pocketlab_core::engine::{EvalParams, ParamsError};

pub use replace::{WriteError, commit, replace_whole, temp_sibling};

/// `target` as a path from the directory `dir` (`../eval/x.toml`), both
/// resolved first, so a file named in one folder can be named from
/// another: an experiment file written beside a study, a command printed
/// in a report. An error when either does not exist.
pub fn relative_path(dir: &Path, target: &Path) -> io::Result<PathBuf> {
    let target = target.canonicalize()?;
    let dir = dir.canonicalize()?;
    let common = dir
        .components()
        .zip(target.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for _ in dir.components().skip(common) {
        relative.push(Component::ParentDir);
    }
    for c in target.components().skip(common) {
        relative.push(c);
    }
    Ok(relative)
}

/// Input files larger than this are refused: no experiment, variant,
/// parameter file or book is anywhere near it, and a mistaken path to a
/// huge file should fail at once rather than fill memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Checks that `path` is a regular file (following symbolic links) before
/// anything opens it.
pub fn require_regular(path: &Path) -> io::Result<std::fs::Metadata> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        Ok(meta)
    } else {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device?)"
        };
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("is {kind}"),
        ))
    }
}

/// Creates the output directory `dir` and its parents where missing.
/// Where `dir` exists as something other than a directory, the error
/// says what it is: the system's own "File exists" would not tell a
/// regular file from a symbolic link whose target is missing.
pub fn create_output_dir(dir: &Path) -> io::Result<()> {
    let Err(e) = std::fs::create_dir_all(dir) else {
        return Ok(());
    };
    let explained = |reason: String| Err(io::Error::new(e.kind(), reason));
    match (std::fs::symlink_metadata(dir), std::fs::metadata(dir)) {
        (Ok(link), Err(_)) if link.file_type().is_symlink() => {
            let target = std::fs::read_link(dir)
                .map_or_else(|_| "?".to_owned(), |t| t.display().to_string());
            explained(format!(
                "is a symbolic link to {target}, which does not exist; create that directory \
                 or remove the link"
            ))
        }
        (_, Ok(meta)) if !meta.is_dir() => {
            explained("exists and is not a directory; give a directory".to_owned())
        }
        _ => Err(e),
    }
}

/// The text of a regular file of at most [`MAX_INPUT_BYTES`].
pub fn read_text(path: &Path) -> io::Result<String> {
    let meta = require_regular(path)?;
    if meta.len() > MAX_INPUT_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "is {} bytes, more than any input file needs ({} MiB at most)",
                meta.len(),
                MAX_INPUT_BYTES >> 20
            ),
        ));
    }
    let mut text = String::new();
    File::open(path)?
        .take(MAX_INPUT_BYTES + 1)
        .read_to_string(&mut text)?;
    Ok(text)
}

/// Evaluation parameters from the file `name` in `dir` (an absolute
/// `name` as it is), following `inherits`, each resolved beside the file
/// that writes it: [`EvalParams::from_toml_inheriting`] with the files on
/// disk. `seen` is told each file read with its text, named by the path
/// of names that led to it (`a.toml`, then `a.toml > ../b.toml`), as
/// variant chains are: what it is told decides the games, so an
/// experiment records their hashes.
pub fn read_eval_params(
    dir: &Path,
    name: &Path,
    seen: &dyn Fn(&str, &str),
) -> Result<EvalParams, ParamsError> {
    let path = dir.join(name);
    let label = path.display().to_string();
    let text = read_text(&path).map_err(|e| ParamsError {
        file: label.clone(),
        reason: format!("cannot read: {e}"),
    })?;
    let names = RefCell::new(name.display().to_string());
    seen(&names.borrow(), &text);
    EvalParams::from_toml_inheriting(&label, &text, &|file, parent_name| {
        let parent = Path::new(file)
            .parent()
            .unwrap_or(Path::new(""))
            .join(parent_name);
        let text =
            read_text(&parent).map_err(|e| format!("cannot read '{}': {e}", parent.display()))?;
        // The core asks for one parent per file, in order: the names so far are a path.
        let mut names = names.borrow_mut();
        names.push_str(" > ");
        names.push_str(parent_name);
        seen(&names, &text);
        Ok((parent.display().to_string(), text))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_are_refused_and_files_read() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            read_text(dir.path())
                .unwrap_err()
                .to_string()
                .contains("directory")
        );
        let f = dir.path().join("a.toml");
        std::fs::write(&f, "x = 1").unwrap();
        assert_eq!(read_text(&f).unwrap(), "x = 1");
    }
}
