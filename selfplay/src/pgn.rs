//! PGN export of logged games (SAN; drops `N@e4`, pocket-ins `^e2=C`).
//! Potential Chess games keep the seed's move notation and give their
//! start as potential position text in the `FEN` tag; every move is still
//! replayed, so a damaged log is reported rather than exported.

use std::fmt::Write as _;

use pocketlab_core::potential::{Army, PotentialPosition};
use pocketlab_core::{Color, Position, Variant, notation, san};

use crate::log::{GameId, GameRecord, MoveRecord};

/// One game as PGN. `moves` are the game's rows of the moves table in ply order.
pub fn game_pgn(
    variant: &Variant,
    game: &GameRecord,
    moves: &[MoveRecord],
) -> Result<String, String> {
    let movetext = match variant.potential_army() {
        Some(army) => potential_movetext(&army, game, moves)?,
        None => movetext(variant, game, moves)?,
    };
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

/// SAN movetext of an ordinary game.
fn movetext(variant: &Variant, game: &GameRecord, moves: &[MoveRecord]) -> Result<String, String> {
    let mut pos = Position::from_fen(variant, &game.start_fen)
        .map_err(|e| format!("game {}: {e}", game.game_id))?;
    let (mut out, mut line) = (String::new(), String::new());
    for (i, m) in moves.iter().enumerate() {
        let mv = notation::parse(&pos, &m.mv)
            .map_err(|e| format!("game {} ply {i}: {e}", game.game_id))?;
        let text = san::format(&pos, mv);
        push_move(
            &mut out,
            &mut line,
            pos.side_to_move(),
            pos.fullmove_number(),
            i == 0,
            &text,
        );
        pos = pos.after(mv);
    }
    Ok(finish(out, line, &game.result))
}

/// Seed-notation movetext of a Potential Chess game, replayed to check it.
fn potential_movetext(
    army: &Army<'_>,
    game: &GameRecord,
    moves: &[MoveRecord],
) -> Result<String, String> {
    let mut pos = PotentialPosition::from_text(army, &game.start_fen)
        .map_err(|e| format!("game {}: {e}", game.game_id))?;
    let (mut out, mut line) = (String::new(), String::new());
    for (i, m) in moves.iter().enumerate() {
        let mv = pos
            .parse_move(&m.mv)
            .map_err(|e| format!("game {} ply {i}: {e}", game.game_id))?;
        push_move(
            &mut out,
            &mut line,
            pos.side_to_move(),
            pos.fullmove_number(),
            i == 0,
            &m.mv,
        );
        pos = pos
            .play(mv)
            .map_err(|e| format!("game {} ply {i}: {e}", game.game_id))?;
    }
    Ok(finish(out, line, &game.result))
}
