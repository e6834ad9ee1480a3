//! `pocketlab init`: a commented starter variant file, ready for
//! `pocketlab study`.

use std::path::PathBuf;

use clap::Args;
use pocketlab_selfplay::files::replace_whole;

/// The starter: Pocket Mutation Chess with one new piece in a class, every
/// line a designer is likely to change commented.
pub const STARTER: &str = r#"# A variant of your own, for `pocketlab study`. It inherits Pocket Mutation
# Chess (pockets, mutation within a class, 18 pieces in 8 classes) and
# changes what it states; every key not written here is inherited. Shipped
# variants to start from: `pocketlab variants`. The guide's chapter on
# variant files lists every key.
name = "my-variant"
inherits = "pocket-mutation"
description = "Pocket Mutation Chess with a knight-wazir in class 3."

# The claim to test: pieces in one class are worth the same. Classes go
# lowest first, each the FEN letters of its pieces; `pocketlab study`
# compares every pair of pieces within a class.
classes = ["P", "BN", "RIXW", "CU", "QHDF", "EGJ", "AL", "M"]

# A new piece: its FEN letter (upper case; lower case is Black's), its moves
# in Betza notation (here a knight that also steps one square orthogonally)
# and the engine's starting estimate of its value in centipawns (the study
# measures the real one).
[pieces.W]
name = "knight-wazir"
betza = "NW"
value = 450

# The start position, if the new piece should stand on the board from the
# first move (FEN, with the pockets in brackets):
# start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1"

# Pocket rules, as Pocket Mutation Chess has them:
# [pocket]
# size = 1
# mutation = true
"#;

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Where to write the variant file.
    #[arg(default_value = "my-variant.toml")]
    pub file: PathBuf,
}

pub fn run(args: &InitArgs) -> anyhow::Result<()> {
    if args.file.exists() {
        anyhow::bail!(
            "{} exists: choose another file name (it is not replaced)",
            args.file.display()
        );
    }
    replace_whole(&args.file, STARTER.as_bytes())?;
    println!(
        "variant: {}\nedit it, then: pocketlab study {} --dry-run",
        args.file.display(),
        args.file.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_is_a_valid_variant_with_the_new_piece_in_a_class() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("my-variant.toml");
        std::fs::write(&path, STARTER).unwrap();
        let variant = pocketlab_selfplay::load_variant(&path.display().to_string()).unwrap();
        let w = variant.piece_by_letter('W').unwrap();
        assert_eq!(variant.piece(w).name, "knight-wazir");
        assert!(variant.class(3).unwrap().contains(&w));
    }
}
