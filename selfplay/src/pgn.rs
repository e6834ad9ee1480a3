//! PGN export of logged games (SAN; drops `N@e4`, pocket-ins `^e2=C`).
//! Potential Chess games keep the seed's move notation and give their
//! start as potential position text in the `FEN` tag; every move is
//! replayed ([`replay`], which the report's game viewer shares), so a
//! damaged log is reported rather than exported.

use std::fmt;
use std::fmt::Write as _;

use pocketlab_core::kind::{AnyPosition, GameKind, MoveTextError, PositionTextError};
use pocketlab_core::{Color, GamePosition, IllegalMove, Variant};

use crate::log::{GameId, GameRecord, MoveRecord};

/// A logged game that does not replay.
#[derive(Debug)]
pub enum PgnError {
    /// The game's start position does not read.
    Start {
        /// The game's `game_id`.
        game_id: u64,
        /// Why the start position does not read.
        error: PositionTextError,
    },
    /// A logged move is not a legal move of the replayed position.
    Move {
        /// The game's `game_id`.
        game_id: u64,
        /// The move's ply, from 0.
        ply: usize,
        /// Why the move does not read.
        error: MoveTextError,
    },
    /// A logged move reads but cannot be played.
    Illegal {
        /// The game's `game_id`.
        game_id: u64,
        /// The move's ply, from 0.
        ply: usize,
        /// Why the move cannot be played.
        error: IllegalMove,
    },
    /// The position logged before a move is not the replayed one.
    Position {
        /// The game's `game_id`.
        game_id: u64,
        /// The ply of the move the position was logged with, from 0.
        ply: usize,
        /// The position as logged.
        logged: String,
        /// The position the replay reached.
        replayed: String,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Start { game_id, error } => write!(f, "game {game_id}: {error}"),
            PgnError::Move {
                game_id,
                ply,
                error,
            } => write!(f, "game {game_id} ply {ply}: {error}"),
            PgnError::Illegal {
                game_id,
                ply,
                error,
            } => write!(f, "game {game_id} ply {ply}: {error}"),
            PgnError::Position {
                game_id,
                ply,
                logged,
                replayed,
            } => write!(
                f,
                "game {game_id} ply {ply}: the log has position '{logged}' where the moves lead to '{replayed}'"
            ),
        }
    }
}

impl std::error::Error for PgnError {}

/// One game as PGN. `moves` are the game's rows of the moves table in ply order.
pub fn game_pgn(
    variant: &Variant,
    game: &GameRecord,
    moves: &[MoveRecord],
) -> Result<String, PgnError> {
    let movetext = movetext(variant, game, moves)?;
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        writeln!(out, "[{k} \"{v}\"]").expect("writing to a String");
    };
    tag(
        &mut out,
        "Event",
        &format!("{} {}", game.experiment, game.matchup),
    );
    tag(&mut out, "Site", "pocketlab");
    tag(
        &mut out,
        "Round",
        &format!(
            "{}.{}",
            game.pair_index + 1,
            1 + u8::from(GameId::decode(game.game_id).b_is_white)
        ),
    );
    tag(
        &mut out,
        "White",
        &format!("{} ({})", game.white, game.white_engine),
    );
    tag(
        &mut out,
        "Black",
        &format!("{} ({})", game.black, game.black_engine),
    );
    tag(&mut out, "Result", &game.result);
    tag(&mut out, "Variant", &game.variant);
    tag(&mut out, "SetUp", "1");
    tag(&mut out, "FEN", &game.start_fen);
    tag(&mut out, "Termination", game.termination.as_str());
    tag(&mut out, "PlyCount", &game.plies.to_string());
    out.push('\n');
    out.push_str(&movetext);
    Ok(out)
}

/// Adds one move (with its number when due) and wraps lines near 80 columns.
fn push_move(
    out: &mut String,
    line: &mut String,
    side: Color,
    number: u16,
    first: bool,
    text: &str,
) {
    if side == Color::White {
        write!(line, "{number}. ").expect("writing to a String");
    } else if first {
        write!(line, "{number}... ").expect("writing to a String");
    }
    line.push_str(text);
    line.push(' ');
    if line.len() > 72 {
        out.push_str(line.trim_end());
        out.push('\n');
        line.clear();
    }
}

fn finish(mut out: String, mut line: String, result: &str) -> String {
    line.push_str(result);
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A move as a replay played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// SAN where the kind has it, else the kind's own notation.
    pub text: String,
    /// Who played it, and the move number it was played at.
    pub side: Color,
    /// The full-move number the move was played at, as the position counts
    /// it (1 at a usual start position).
    pub number: u16,
}

/// Replays a logged game from its start through the lab's rules, calling
/// `visit` with the start position (ply 0, no move) and then with each
/// position reached and the move that reached it. A move that is not legal,
/// or a logged position (every `fen_every` plies) that differs from the
/// replayed one, ends the replay with an error.
pub fn replay(
    variant: &Variant,
    game_id: u64,
    start: &str,
    moves: &[MoveRecord],
    mut visit: impl FnMut(usize, &AnyPosition<'_>, Option<PlayedMove>),
) -> Result<(), PgnError> {
    let kind = GameKind::of(variant);
    let mut pos = kind
        .parse_position(start)
        .map_err(|error| PgnError::Start { game_id, error })?;
    visit(0, &pos, None);
    for (ply, m) in moves.iter().enumerate() {
        if let Some(logged) = &m.fen {
            let replayed = pos.to_text();
            if *logged != replayed {
                return Err(PgnError::Position {
                    game_id,
                    ply,
                    logged: logged.clone(),
                    replayed,
                });
            }
        }
        let mv = pos.parse_move(&m.mv).map_err(|error| PgnError::Move {
            game_id,
            ply,
            error,
        })?;
        let played = PlayedMove {
            text: pos.san(mv),
            side: pos.side_to_move(),
            number: pos.fullmove_number(),
        };
        pos = pos.play(mv).map_err(|error| PgnError::Illegal {
            game_id,
            ply,
            error,
        })?;
        visit(ply + 1, &pos, Some(played));
    }
    Ok(())
}

/// The movetext: SAN where the kind has it, else the kind's own notation.
fn movetext(
    variant: &Variant,
    game: &GameRecord,
    moves: &[MoveRecord],
) -> Result<String, PgnError> {
    let (mut out, mut line) = (String::new(), String::new());
    replay(
        variant,
        game.game_id,
        &game.start_fen,
        moves,
        |ply, _, played| {
            if let Some(m) = played {
                push_move(&mut out, &mut line, m.side, m.number, ply == 1, &m.text);
            }
        },
    )?;
    Ok(finish(out, line, &game.result))
}
