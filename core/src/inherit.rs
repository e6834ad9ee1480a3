//! `inherits` for files that build on another (variant files, evaluation
//! parameter files, and experiment files in the selfplay crate): the chain
//! walked with its length and cycles bounded, and for
//! TOML tables each file's keys merged over what it inherits
//! ([`merged_chain`]). Core reads no files: the caller resolves names.

/// Most `inherits` links followed from one file (more is most likely a
/// cycle through names that differ).
pub(crate) const MAX_INHERITANCE_DEPTH: usize = 16;

/// How an `inherits` link is followed: `(file, name)` of the naming file
/// and the name it gives, to the parent's `(file name, text)` or the reason
/// there is none.
pub type Resolver<'a> = dyn Fn(&str, &str) -> Result<(String, String), String> + 'a;

/// One file of a chain checked on its own: what it holds (for
/// [`merged_chain`], its keys without `inherits`), and the name it
/// inherits from, if any.
#[derive(Clone, Debug)]
pub struct OwnFile<T = toml::Table> {
    /// What the file holds.
    pub table: T,
    /// The name it inherits from, if any.
    pub inherits: Option<String>,
}

/// How one file of a chain is checked alone: `(file, text)` to what it
/// holds and the name it inherits from, or the file's error.
pub type OwnCheck<'a, T, E> = dyn Fn(&str, &str) -> Result<OwnFile<T>, E> + 'a;

/// What went wrong in a chain, and in which file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainError<E> {
    /// A file failed its own check.
    File(E),
    /// The `inherits` link of `file` could not be followed.
    Link {
        /// The file whose link failed.
        file: String,
        /// Why it could not be followed.
        reason: String,
    },
}

/// The merged keys of `file` and every file it inherits from, nearest
/// last: `own(file, text)` checks one file alone, `resolve(file, name)`
/// turns the `inherits` value `name` of `file` into the parent's `(file
/// name, text)` or says why it cannot. Also returns the file names of the
/// chain, `file` first.
///
/// ```
/// use pocketlab_core::inherit::{OwnFile, merged_chain};
///
/// let own = |_: &str, text: &str| -> Result<OwnFile, String> {
///     let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
///     let inherits = table.remove("inherits").and_then(|v| v.as_str().map(str::to_owned));
///     Ok(OwnFile { table, inherits })
/// };
/// let base = "[engine]\nnodes = 1000\nhash_mb = 8\n";
/// let (merged, chain) = merged_chain(
///     "child.toml",
///     "inherits = \"base.toml\"\n[engine]\nnodes = 2000\n",
///     &own,
///     &|_, name| Ok((name.to_owned(), base.to_owned())),
/// )
/// .unwrap();
/// assert_eq!(merged["engine"]["nodes"].as_integer(), Some(2000));
/// assert_eq!(merged["engine"]["hash_mb"].as_integer(), Some(8));
/// assert_eq!(chain, ["child.toml", "base.toml"]);
/// ```
pub fn merged_chain<E>(
    file: &str,
    text: &str,
    own: &OwnCheck<'_, toml::Table, E>,
    resolve: &Resolver<'_>,
) -> Result<(toml::Table, Vec<String>), ChainError<E>> {
    let mut files = walk_chain(file, text, own, resolve)?;
    let chain = files.iter().map(|(file, _)| file.clone()).collect();
    let (_, mut merged) = files.pop().expect("the chain has its first file");
    while let Some((_, child)) = files.pop() {
        merge_over(&mut merged, child);
    }
    Ok((merged, chain))
}

/// Every file of the chain from `file` up, each checked alone by
/// `own(file, text)`, with its name: `file` first, the file that inherits
/// nothing last. `resolve` as for [`merged_chain`].
pub(crate) fn walk_chain<T, E>(
    file: &str,
    text: &str,
    own: &OwnCheck<'_, T, E>,
    resolve: &Resolver<'_>,
) -> Result<Vec<(String, T)>, ChainError<E>> {
    let mut files: Vec<(String, T)> = Vec::new();
    let (mut file, mut text) = (file.to_owned(), text.to_owned());
    loop {
        let OwnFile { table, inherits } = own(&file, &text).map_err(ChainError::File)?;
        files.push((file.clone(), table));
        let Some(name) = inherits else { break };
        let link = |reason: String| ChainError::Link {
            file: file.clone(),
            reason,
        };
        if files.len() > MAX_INHERITANCE_DEPTH {
            return Err(link(format!(
                "a chain deeper than {MAX_INHERITANCE_DEPTH} files (a cycle?)"
            )));
        }
        let (parent_file, parent_text) = resolve(&file, &name).map_err(link)?;
        if files.iter().any(|(f, _)| *f == parent_file) {
            return Err(link(format!("a cycle through '{parent_file}'")));
        }
        (file, text) = (parent_file, parent_text);
    }
    Ok(files)
}

/// `child`'s keys over `parent`'s: tables key by key, anything else
/// (numbers, strings, arrays, arrays of tables) whole.
pub(crate) fn merge_over(parent: &mut toml::Table, child: toml::Table) {
    for (key, value) in child {
        match (parent.get_mut(&key), value) {
            (Some(toml::Value::Table(below)), toml::Value::Table(above)) => {
                merge_over(below, above);
            }
            (_, value) => {
                parent.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(_: &str, text: &str) -> Result<OwnFile, String> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        let inherits = table
            .remove("inherits")
            .and_then(|v| v.as_str().map(str::to_owned));
        Ok(OwnFile { table, inherits })
    }

    #[test]
    fn nearer_files_win_key_by_key_and_arrays_whole() {
        let files = [
            ("a", "inherits = \"b\"\nx = 1\n[t]\np = 1\n"),
            ("b", "inherits = \"c\"\ny = [1]\n[t]\nq = 2\n"),
            ("c", "x = 0\ny = [3, 4]\nz = 5\n[t]\np = 0\nr = 3\n"),
        ];
        let resolve = |_: &str, name: &str| {
            let (f, t) = files.iter().find(|(f, _)| *f == name).unwrap();
            Ok((f.to_string(), t.to_string()))
        };
        let (merged, chain) = merged_chain("a", files[0].1, &own, &resolve).unwrap();
        let expected: toml::Table =
            toml::from_str("x = 1\ny = [1]\nz = 5\n[t]\np = 1\nq = 2\nr = 3\n").unwrap();
        assert_eq!(merged, expected);
        assert_eq!(chain, ["a", "b", "c"]);
    }

    #[test]
    fn cycles_unknown_parents_and_bad_files_are_named() {
        let cyclic = |_: &str, name: &str| Ok((name.to_owned(), format!("inherits = \"{name}\"")));
        let err = merged_chain("a", "inherits = \"b\"", &own, &cyclic).unwrap_err();
        assert_eq!(
            err,
            ChainError::Link {
                file: "b".into(),
                reason: "a cycle through 'b'".into()
            }
        );
        let missing = |_: &str, name: &str| Err(format!("no file '{name}'"));
        let err = merged_chain("a", "inherits = \"b\"", &own, &missing).unwrap_err();
        assert_eq!(
            err,
            ChainError::Link {
                file: "a".into(),
                reason: "no file 'b'".into()
            }
        );
        let broken = |_: &str, _: &str| Ok(("b".to_owned(), "x = ".to_owned()));
        let err = merged_chain("a", "inherits = \"b\"", &own, &broken).unwrap_err();
        assert!(matches!(err, ChainError::File(_)), "{err:?}");
        // Names that differ each time: the depth bound ends it.
        let endless = |file: &str, _: &str| {
            let next = format!("{file}+");
            Ok((next.clone(), format!("inherits = \"{next}\"")))
        };
        let err = merged_chain("a", "inherits = \"a+\"", &own, &endless).unwrap_err();
        assert!(
            matches!(&err, ChainError::Link { reason, .. } if reason.contains("deeper")),
            "{err:?}"
        );
    }
}
