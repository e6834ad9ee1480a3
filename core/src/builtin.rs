//! The variants shipped in `configs/variants/` and the evaluations shipped
//! in `configs/eval/` as their default players, embedded at build time so
//! a name such as `pocket-mutation` works without the files at hand.

use crate::engine::EvalParams;
use crate::kind::parse_variant;
use crate::variant::{Variant, VariantError};

/// `(name, file text)` of every shipped variant.
pub(crate) const SHIPPED: &[(&str, &str)] = &[
    (
        "pocket-mutation",
        include_str!("../../configs/variants/pocket-mutation.toml"),
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

/// The name that asks for the hand-written weights ([`EvalParams::default`])
/// where an evaluation file is named (`eval = "builtin"`, `EvalFile
/// builtin`), whatever the variant ships.
pub const BUILTIN_EVAL: &str = "builtin";

/// The evaluation file shipped as a variant's default player: the best
/// evaluation the lab has measured for it, embedded so that an experiment
/// without an `eval` key, `pocketlab study` and the UCI engine play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShippedEval {
    /// The file's name in `configs/eval/`.
    pub file: &'static str,
    /// The file's text.
    pub text: &'static str,
}

impl ShippedEval {
    /// The file's parameters.
    pub fn params(&self) -> EvalParams {
        // Every shipped file parses: `shipped_evaluations_parse` checks it.
        EvalParams::from_toml(self.file, self.text).unwrap_or_default()
    }
}

const PMC_WEIGHTS_2: ShippedEval = ShippedEval {
    file: "pmc-weights-2.toml",
    text: include_str!("../../configs/eval/pmc-weights-2.toml"),
};

/// The self-play network over `pmc-weights-2.toml`: +154 Elo against it
/// at 20,000 nodes.
const PMC_NETWORK: ShippedEval = ShippedEval {
    file: "pmc-network.toml",
    text: include_str!("../../configs/eval/pmc-network.toml"),
};

/// The self-play network for drops with fairy armies over `pmc-weights-2.toml`
/// (generation 3): +215 against Fairy-Stockfish where `pmc-weights-2.toml`
/// gave +96.
const DROPS_NETWORK_GEN3: ShippedEval = ShippedEval {
    file: "fairy-drops-network.toml",
    text: include_str!("../../configs/eval/fairy-drops-network.toml"),
};

/// Generation 4 of the same training: +272 against Fairy-Stockfish where
/// generation 3 gave +235 from the same openings.
const DROPS_NETWORK: ShippedEval = ShippedEval {
    file: "fairy-drops-network-2.toml",
    text: include_str!("../../configs/eval/fairy-drops-network-2.toml"),
};

/// The self-play network of the fairy armies over the hand-written weights
/// (128 units): +238 against Fairy-Stockfish where the hand-written weights
/// gave +127.
const ARMIES_NETWORK_128: ShippedEval = ShippedEval {
    file: "fairy-armies-network.toml",
    text: include_str!("../../configs/eval/fairy-armies-network.toml"),
};

/// Its 256-unit successor (generation 1 of the wider training): +285
/// against Fairy-Stockfish where the 128-unit network gave +244 from the
/// same openings.
const ARMIES_NETWORK: ShippedEval = ShippedEval {
    file: "fairy-armies-network-2.toml",
    text: include_str!("../../configs/eval/fairy-armies-network-2.toml"),
};

/// The first 256-unit chess network, labelled by `chess-network.toml`'s
/// searches: about -90 against Fairy-Stockfish where `chess.toml` gave
/// -204. Fitted on chess without castling; castling changes no input of it.
const CHESS_NETWORK_1: ShippedEval = ShippedEval {
    file: "chess-network-10k-h256-both-sq.toml",
    text: include_str!("../../configs/eval/chess-network-10k-h256-both-sq.toml"),
};

/// The same recipe and positions labelled by the searches of
/// `chess-network-10k-h256-both-sq.toml`: -98 against Fairy-Stockfish
/// where that network gave -147 from the same openings (paired +49).
const CHESS_NETWORK_2: ShippedEval = ShippedEval {
    file: "chess-network-10k-h256-both-sq-2.toml",
    text: include_str!("../../configs/eval/chess-network-10k-h256-both-sq-2.toml"),
};

/// The same recipe fitted to five data sets labelled by the searches of
/// `chess-network-10k-h256-both-sq-2.toml`: -57 against Fairy-Stockfish
/// where that network gave -91 from the same openings (paired +34).
const CHESS_NETWORK_3: ShippedEval = ShippedEval {
    file: "chess-network-10k-h256-both-sq-3.toml",
    text: include_str!("../../configs/eval/chess-network-10k-h256-both-sq-3.toml"),
};

/// `chess-network-10k-h256-both-sq-3.toml` refined on three newer data
/// sets labelled by its own refinements' searches: -37 against
/// Fairy-Stockfish where that network gave -57 from the same openings
/// (paired +20).
const CHESS_NETWORK: ShippedEval = ShippedEval {
    file: "chess-network-10k-h256-both-sq-4.toml",
    text: include_str!("../../configs/eval/chess-network-10k-h256-both-sq-4.toml"),
};

/// `(variant name, its default evaluation)`. A variant not listed plays
/// the hand-written weights ([`EvalParams::default`]).
const SHIPPED_EVALS: &[(&str, ShippedEval)] = &[
    ("pocket-mutation", PMC_NETWORK),
    ("pmc-drops", DROPS_NETWORK),
    ("fairy-oracle", ARMIES_NETWORK),
    ("chess", CHESS_NETWORK),
    ("chess-nocastle", CHESS_NETWORK),
];

/// Evaluations a variant shipped before its current one: embedded still,
/// so that a log that played one resumes and replays with it.
const EARLIER_SHIPPED_EVALS: &[(&str, ShippedEval)] = &[
    ("pocket-mutation", PMC_WEIGHTS_2),
    ("pmc-drops", PMC_WEIGHTS_2),
    ("pmc-drops", DROPS_NETWORK_GEN3),
    ("fairy-oracle", ARMIES_NETWORK_128),
    ("chess", CHESS_NETWORK_1),
    ("chess-nocastle", CHESS_NETWORK_1),
    ("chess", CHESS_NETWORK_2),
    ("chess-nocastle", CHESS_NETWORK_2),
    ("chess", CHESS_NETWORK_3),
    ("chess-nocastle", CHESS_NETWORK_3),
];

/// The evaluation shipped for the variant named `variant` (its `name`,
/// which rule overrides keep), if any.
///
/// ```
/// use pocketlab_core::builtin;
///
/// assert_eq!(builtin::shipped_eval("pocket-mutation").unwrap().file, "pmc-network.toml");
/// assert!(builtin::shipped_eval("chess-mutation").is_none());
/// ```
pub fn shipped_eval(variant: &str) -> Option<ShippedEval> {
    SHIPPED_EVALS
        .iter()
        .find(|(name, _)| *name == variant)
        .map(|(_, eval)| *eval)
}

/// The evaluation a log played for the variant named `variant` when it
/// recorded the shipped files `recorded` (their file names): the variant's
/// current or earlier shipped file among them, else its current one.
///
/// ```
/// use pocketlab_core::builtin;
///
/// let old = builtin::shipped_eval_as_recorded("pocket-mutation", &["pmc-weights-2.toml"]);
/// assert_eq!(old.unwrap().file, "pmc-weights-2.toml");
/// let new = builtin::shipped_eval_as_recorded::<&str>("pocket-mutation", &[]);
/// assert_eq!(new.unwrap().file, "pmc-network.toml");
/// ```
pub fn shipped_eval_as_recorded<S: AsRef<str>>(
    variant: &str,
    recorded: &[S],
) -> Option<ShippedEval> {
    SHIPPED_EVALS
        .iter()
        .chain(EARLIER_SHIPPED_EVALS)
        .filter(|(name, _)| *name == variant)
        .map(|(_, eval)| *eval)
        .find(|eval| recorded.iter().any(|file| file.as_ref() == eval.file))
        .or_else(|| shipped_eval(variant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_evaluations_parse_and_differ_from_the_hand_written_weights() {
        for (variant, eval) in SHIPPED_EVALS.iter().chain(EARLIER_SHIPPED_EVALS) {
            assert!(text(variant).is_some(), "{variant} is a shipped variant");
            let params = EvalParams::from_toml(eval.file, eval.text)
                .unwrap_or_else(|e| panic!("{}: {e}", eval.file));
            assert_ne!(params, EvalParams::default(), "{}", eval.file);
        }
    }

    #[test]
    fn a_log_that_played_an_earlier_shipped_file_keeps_it() {
        for (variant, earlier) in EARLIER_SHIPPED_EVALS {
            let current = shipped_eval(variant).expect("the variant ships a file now");
            assert_ne!(current.file, earlier.file, "{variant}");
            assert_eq!(
                shipped_eval_as_recorded(variant, &[earlier.file]),
                Some(*earlier),
                "{variant}"
            );
            assert_eq!(
                shipped_eval_as_recorded::<&str>(variant, &[]),
                Some(current),
                "{variant}"
            );
        }
    }
}
