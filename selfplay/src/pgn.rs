//! PGN export of logged games (SAN; drops `N@e4`, pocket-ins `^e2=C`).

use std::fmt::Write as _;

use pocketlab_core::{Color, Position, Variant, notation, san};

use crate::log::{GameRecord, MoveRecord};

/// One game as PGN. `moves` are the game's rows of the moves table in ply order.
pub fn game_pgn(
    variant: &Variant,
    game: &GameRecord,
    moves: &[MoveRecord],
) -> Result<String, String> {
    let mut pos = Position::from_fen(variant, &game.start_fen)
        .map_err(|e| format!("game {}: {e}", game.game_id))?;
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
        &format!("{}.{}", game.pair_index + 1, 1 + (game.game_id & 1)),
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
    tag(&mut out, "Termination", &game.termination);
    tag(&mut out, "PlyCount", &game.plies.to_string());
    out.push('\n');
    let mut line = String::new();
    for (i, m) in moves.iter().enumerate() {
        let mv = notation::parse(&pos, &m.mv)
            .map_err(|e| format!("game {} ply {i}: {e}", game.game_id))?;
        if pos.side_to_move() == Color::White {
            write!(line, "{}. ", pos.fullmove_number()).expect("writing to a String");
        } else if i == 0 {
            write!(line, "{}... ", pos.fullmove_number()).expect("writing to a String");
        }
        line.push_str(&san::format(&pos, mv));
        line.push(' ');
        if line.len() > 72 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        pos = pos.after(mv);
    }
    line.push_str(&game.result);
    out.push_str(&line);
    out.push_str("\n\n");
    Ok(out)
}
