//! `position startpos|fen <text> [moves …]` and how search results are
//! written. Moves use the variant's own notation (`e2e4`, `N@e4`, `^e8=C`;
//! for Potential Chess the seed's `d2-d4>QRP`, `c4:d5>Q(b)`), and `fen`
//! takes the kind's position text.

use std::time::Duration;

use pocketlab_core::engine::mate_distance;
use pocketlab_core::kind::{AnyMove, AnyPosition, GameKind};
use pocketlab_core::{Color, GamePosition};

/// What a `position` command said, kept as text so the search thread can
/// rebuild the position from its own copy of the variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct PositionSpec {
    /// The position text after `fen`; `None` for `startpos`.
    pub(super) setup: Option<String>,
    pub(super) moves: Vec<String>,
}

impl PositionSpec {
    /// The arguments of `position`.
    pub(super) fn parse(args: &[&str]) -> Result<PositionSpec, String> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let setup = match setup.split_first() {
            Some((&"startpos", [])) => None,
            Some((&"startpos", extra)) => {
                return Err(format!(
                    "unexpected '{}' after startpos (expected 'moves')",
                    extra.join(" ")
                ));
            }
            Some((&"fen", [])) => return Err("'fen' needs a FEN".into()),
            Some((&"fen", fen)) => Some(fen.join(" ")),
            _ => {
                return Err("expected 'startpos' or 'fen <FEN>', then optionally 'moves …'".into());
            }
        };
        Ok(PositionSpec {
            setup,
            moves: moves.iter().map(|&m| m.to_owned()).collect(),
        })
    }

    /// The position in `kind`, and the hashes of the positions before it.
    pub(super) fn replay<'k>(
        &self,
        kind: &'k GameKind<'_>,
    ) -> Result<(AnyPosition<'k>, Vec<u64>), String> {
        let mut position = match &self.setup {
            Some(text) => kind
                .parse_position(text)
                .map_err(|e| format!("'{text}': {e}"))?,
            None => kind.start_position(),
        };
        let mut history = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let next = position
                .parse_move(text)
                .map_err(|e| e.to_string())
                .and_then(|mv| position.play(mv).map_err(|e| e.to_string()))
                .map_err(|e| format!("move {} of the list: {e}", i + 1))?;
            history.push(position.hash());
            position = next;
        }
        Ok((position, history))
    }
}

/// What the session keeps of its current position for answers that need
/// no search.
#[derive(Clone, Debug)]
pub(super) struct PositionSummary {
    pub(super) text: String,
    pub(super) side_to_move: Color,
    /// Some legal move as text, or `0000`: the answer when no search can run.
    pub(super) any_move: String,
}

impl PositionSummary {
    pub(super) fn of(position: &AnyPosition<'_>) -> PositionSummary {
        PositionSummary {
            text: position.to_text(),
            side_to_move: position.side_to_move(),
            any_move: move_text(position, position.legal_moves().first().copied()),
        }
    }
}

pub(super) fn move_text(pos: &AnyPosition<'_>, mv: Option<AnyMove>) -> String {
    mv.map_or_else(|| "0000".to_owned(), |mv| pos.format_move(mv))
}

/// `info depth … pv …`; without a completed iteration (`depth` 0) only
/// the counts: `info nodes … nps … time …`.
pub(super) fn info_line(
    depth: u32,
    seldepth: u32,
    score: Option<i32>,
    nodes: u64,
    elapsed: Duration,
    pv: &[String],
) -> String {
    let micros = elapsed.as_micros().max(1);
    let nps = u128::from(nodes) * 1_000_000 / micros;
    let mut line = String::from("info");
    if depth > 0 {
        line.push_str(&format!(" depth {depth} seldepth {}", seldepth.max(depth)));
    }
    if let Some(score) = score {
        line.push_str(&format!(" score {}", uci_score(score)));
    }
    line.push_str(&format!(
        " nodes {nodes} nps {nps} time {}",
        elapsed.as_millis()
    ));
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// `cp X`, or `mate N` in moves (negative: the side to move is mated).
pub(super) fn uci_score(score: i32) -> String {
    match mate_distance(score) {
        Some(plies) => format!("mate {}", plies.signum() * ((plies.abs() + 1) / 2)),
        None => format!("cp {score}"),
    }
}
