//! Games to look at: per matchup a few real games a designer can replay
//! (the shortest decisive win each way and a game of median length),
//! chosen deterministically from the log and replayed through the lab's
//! rules with the PGN export's [`replay`], so the viewer shows only legal
//! games whose positions the rules computed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use pocketlab_core::kind::{AnyPosition, GameKind};
use pocketlab_core::{Color, Position, Square, Variant};
use pocketlab_selfplay::log::{
    self, GameId, GameRecord, MoveRecord, Termination, read_game_chunks, read_move_chunks,
};
use pocketlab_selfplay::pgn::{PgnError, replay};

use super::model::{DrawnPosition, ShownGame, ShownGames};
use super::read::ReportError;

/// The lab's boards: [`Square`] numbers 8 files by 8 ranks.
const FILES: u8 = 8;
const RANKS: u8 = 8;

/// What the selection needs of a logged game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameLength {
    /// The game's id in the log.
    pub game_id: u64,
    /// The matchup's index in the experiment.
    pub matchup: u32,
    /// The game's length, plies.
    pub plies: u32,
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
}

/// Why a game was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The matchup's shortest win for its first army (A) or second (B).
    ShortestWin {
        /// Won by army A (else by army B).
        by_first_army: bool,
    },
    /// A game of the matchup's median length.
    Median,
}

/// The games to show, in matchup order: per matchup the shortest win by
/// army A, the shortest win by army B and the median-length game (the
/// lower middle one), each game once. Ties go to the lower game id.
pub fn choose(games: &[GameLength]) -> Vec<(u64, Choice)> {
    let mut by_matchup: BTreeMap<u32, Vec<GameLength>> = BTreeMap::new();
    for g in games {
        by_matchup.entry(g.matchup).or_default().push(*g);
    }
    let mut out = Vec::new();
    for mut games in by_matchup.into_values() {
        games.sort_by_key(|g| (g.plies, g.game_id));
        let first_army_won = |g: &GameLength| {
            let a_is_white = !GameId::decode(g.game_id).b_is_white;
            match g.white_score {
                1.0 => Some(a_is_white),
                0.0 => Some(!a_is_white),
                _ => None,
            }
        };
        let mut chosen: Vec<(u64, Choice)> = Vec::new();
        for by_first_army in [true, false] {
            if let Some(g) = games
                .iter()
                .find(|g| first_army_won(g) == Some(by_first_army))
            {
                chosen.push((g.game_id, Choice::ShortestWin { by_first_army }));
            }
        }
        if let Some(g) = games.get(games.len().saturating_sub(1) / 2)
            && !chosen.iter().any(|(id, _)| *id == g.game_id)
        {
            chosen.push((g.game_id, Choice::Median));
        }
        out.extend(chosen);
    }
    out
}

/// The chosen games of the logs in `dirs`, replayed; of the matchups
/// (experiment indices) in `only` when given. A game that does not replay
/// is left out and named in [`ShownGames::problems`].
pub(super) fn shown_games(
    dirs: &[PathBuf],
    variant: &Variant,
    only: Option<&[usize]>,
) -> Result<ShownGames, ReportError> {
    let files = log::list_chunks(dirs)?;
    if files.moves.is_empty() {
        return Ok(ShownGames {
            not_drawn: Some(
                "The log keeps no moves (its experiment sets moves = false under [log]), so no game \
                 can be shown."
                    .to_owned(),
            ),
            ..ShownGames::default()
        });
    }
    // One chunk at a time, so a large log is never held whole in memory.
    let mut lengths = Vec::new();
    for chunk in &files.games {
        lengths.extend(
            read_game_chunks(std::slice::from_ref(chunk))?
                .iter()
                .filter(|g| only.is_none_or(|only| only.contains(&(g.matchup_index as usize))))
                .map(|g| GameLength {
                    game_id: g.game_id,
                    matchup: g.matchup_index,
                    plies: g.plies,
                    white_score: g.white_score,
                }),
        );
    }
    let chosen = choose(&lengths);
    let wanted: BTreeSet<u64> = chosen.iter().map(|(id, _)| *id).collect();
    let mut records: BTreeMap<u64, GameRecord> = BTreeMap::new();
    for chunk in &files.games {
        for g in read_game_chunks(std::slice::from_ref(chunk))? {
            if wanted.contains(&g.game_id) {
                records.insert(g.game_id, g);
            }
        }
    }
    let mut moves: BTreeMap<u64, Vec<MoveRecord>> = BTreeMap::new();
    for chunk in &files.moves {
        for m in read_move_chunks(std::slice::from_ref(chunk))? {
            if wanted.contains(&m.game_id) {
                moves.entry(m.game_id).or_default().push(m);
            }
        }
    }
    let mut out = ShownGames {
        not_drawn: (!drawable(variant)).then(|| {
            "The viewer cannot draw this variant's positions: a Potential Chess piece may \
             still be one of several until its moves narrow it down, so the games are listed \
             for export only."
                .to_owned()
        }),
        ..ShownGames::default()
    };
    for (id, choice) in chosen {
        let Some(record) = records.get(&id) else {
            continue;
        };
        let mut game_moves = moves.remove(&id).unwrap_or_default();
        game_moves.sort_by_key(|m| m.ply);
        match shown_game(variant, record, &game_moves, choice) {
            Ok(game) => out.games.push(game),
            Err(reason) => out
                .problems
                .push(format!("game {id} is not shown: {reason}")),
        }
    }
    Ok(out)
}

/// Whether the viewer can draw the variant's positions: pieces of fixed
/// identity on the board and in the pockets.
fn drawable(variant: &Variant) -> bool {
    matches!(GameKind::of(variant), GameKind::Standard(_))
}

/// A logged game replayed for the viewer: every move played by the lab's
/// rules from the logged start, the positions the log holds compared on the
/// way, and the end compared with the logged length, result and material.
pub fn shown_game(
    variant: &Variant,
    game: &GameRecord,
    moves: &[MoveRecord],
    choice: Choice,
) -> Result<ShownGame, String> {
    if moves.len() != game.plies as usize {
        return Err(format!(
            "{} moves logged for {} plies",
            moves.len(),
            game.plies
        ));
    }
    let expected_result = match game.white_score {
        1.0 => "1-0",
        0.0 => "0-1",
        _ => "1/2-1/2",
    };
    if game.result != expected_result {
        return Err(format!(
            "result {} does not match White's score {}",
            game.result, game.white_score
        ));
    }
    let why = match choice {
        Choice::ShortestWin { .. } => {
            let winner = if game.white_score == 1.0 {
                &game.white
            } else {
                &game.black
            };
            format!("shortest win for {winner}")
        }
        Choice::Median => "median length".to_owned(),
    };
    let draw = drawable(variant);
    let mut shown = ShownGame {
        game_id: game.game_id,
        matchup: game.matchup.clone(),
        why,
        white: game.white.clone(),
        black: game.black.clone(),
        result: game.result.clone(),
        termination: game.termination.as_str().to_owned(),
        plies: game.plies,
        start: game.start_fen.clone(),
        moves: moves.iter().map(|m| m.mv.clone()).collect(),
        move_texts: Vec::with_capacity(moves.len()),
        files: FILES,
        ranks: RANKS,
        positions: Vec::new(),
    };
    let mut end_problem = None;
    replay(
        variant,
        game.game_id,
        &game.start_fen,
        moves,
        |ply, pos, played| {
            if let Some(m) = played {
                shown.move_texts.push(match (m.side, ply) {
                    (Color::White, _) => format!("{}. {}", m.number, m.text),
                    (Color::Black, 1) => format!("{}... {}", m.number, m.text),
                    (Color::Black, _) => m.text,
                });
            }
            if let (true, AnyPosition::Standard(p)) = (draw, pos) {
                shown.positions.push(drawn_position(p));
                if ply == moves.len() {
                    end_problem = end_mismatch(p, game);
                }
            }
        },
    )
    .map_err(|e: PgnError| e.to_string())?;
    match end_problem {
        Some(problem) => Err(problem),
        None => Ok(shown),
    }
}

/// How the replayed end differs from the log's record of it, if it does:
/// the final material, and a checkmate the log reports.
fn end_mismatch(end: &Position<'_>, game: &GameRecord) -> Option<String> {
    let material = [end.material(Color::White), end.material(Color::Black)];
    if material != [game.white_material, game.black_material] {
        return Some(format!(
            "the moves end with material {material:?}, the log has [{}, {}]",
            game.white_material, game.black_material
        ));
    }
    if game.termination == Termination::Checkmate {
        let loser_score = match end.side_to_move() {
            Color::White => 0.0,
            Color::Black => 1.0,
        };
        let mated = end.is_check() && end.legal_moves().is_empty();
        if !mated || game.white_score != loser_score {
            return Some(format!(
                "the log says {} by checkmate, the moves end in {}",
                game.result,
                end.to_fen()
            ));
        }
    }
    None
}

/// The position as the viewer draws it.
fn drawn_position(pos: &Position<'_>) -> DrawnPosition {
    let variant = pos.variant();
    let letter = |color: Color, kind| match color {
        Color::White => variant.letter(kind),
        Color::Black => variant.letter(kind).to_ascii_lowercase(),
    };
    let rows = (0..RANKS)
        .rev()
        .map(|rank| {
            (0..FILES)
                .map(|file| {
                    pos.piece_at(Square::from_coords(file, rank))
                        .map_or('.', |p| letter(p.color, p.kind))
                })
                .collect()
        })
        .collect();
    let pockets = Color::ALL.map(|color| {
        pos.pocket(color)
            .flat_map(|(kind, n)| std::iter::repeat_n(letter(color, kind), usize::from(n)))
            .collect()
    });
    DrawnPosition {
        text: pos.to_fen(),
        rows,
        pockets,
    }
}

/// Checks an embedded game against the lab's rules and its log: its moves
/// replay from its start through `pocketlab-core` to exactly its positions
/// and move texts, and it is the game the log holds under its id (moves,
/// logged positions, length, result and material). The report's embedded
/// games pass; any changed move, position or text is refused.
pub fn check_shown_game(
    variant: &Variant,
    shown: &ShownGame,
    logged: &GameRecord,
    logged_moves: &[MoveRecord],
) -> Result<(), String> {
    let id = shown.game_id;
    if logged.game_id != id {
        return Err(format!(
            "game {id}: compared with logged game {}",
            logged.game_id
        ));
    }
    // The embedded moves alone, through the rules: what the viewer shows.
    let mut own = logged.clone();
    own.start_fen.clone_from(&shown.start);
    let own_moves: Vec<MoveRecord> = shown
        .moves
        .iter()
        .enumerate()
        .map(|(ply, mv)| MoveRecord {
            game_id: id,
            ply: ply as u32,
            mv: mv.clone(),
            piece: String::new(),
            capture: None,
            score_cp: None,
            depth: 0,
            nodes: 0,
            fen: None,
        })
        .collect();
    // Why a game was chosen is the selection's business, not the log's:
    // any choice replays the same, and the embedded reason is kept below.
    let choice = Choice::Median;
    let replayed = shown_game(variant, &own, &own_moves, choice)
        .map_err(|e| format!("game {id}: the embedded moves do not replay: {e}"))?;
    if let Some(ply) = first_difference(&replayed.positions, &shown.positions) {
        return Err(format!(
            "game {id}: the embedded position at ply {ply} is not the one the moves reach"
        ));
    }
    if let Some(ply) = first_difference(&replayed.move_texts, &shown.move_texts) {
        return Err(format!(
            "game {id}: the embedded text of move {} is not the move played",
            ply + 1
        ));
    }
    // The game the log holds, replayed with its logged positions.
    let from_log = shown_game(variant, logged, logged_moves, choice)
        .map_err(|e| format!("game {id}: the logged game does not replay: {e}"))?;
    let same = ShownGame {
        why: shown.why.clone(),
        ..from_log
    };
    if same != *shown {
        return Err(format!(
            "game {id}: the embedded game is not the logged one"
        ));
    }
    Ok(())
}

/// The first index where two sequences differ (a missing element counts).
fn first_difference<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pocketlab_selfplay::log::game_id;

    fn game(
        matchup: usize,
        pair: u64,
        b_is_white: bool,
        plies: u32,
        white_score: f64,
    ) -> GameLength {
        GameLength {
            game_id: game_id(matchup, pair, b_is_white),
            matchup: matchup as u32,
            plies,
            white_score,
        }
    }

    #[test]
    fn choose_takes_the_shortest_win_each_way_and_the_median() {
        let games = [
            // Matchup 0: A wins as White in 40 plies and as Black twice in
            // 30 (the lower id wins the tie); B wins once, in 90.
            game(0, 0, false, 40, 1.0),
            game(0, 0, true, 30, 0.0),
            game(0, 1, true, 30, 0.0),
            game(0, 1, false, 90, 0.0),
            game(0, 2, false, 60, 0.5),
            game(0, 2, true, 20, 0.5),
            // Matchup 1: only draws.
            game(1, 0, false, 10, 0.5),
            game(1, 0, true, 12, 0.5),
        ];
        let chosen = choose(&games);
        assert_eq!(
            chosen,
            vec![
                (
                    game_id(0, 0, true),
                    Choice::ShortestWin {
                        by_first_army: true
                    }
                ),
                (
                    game_id(0, 1, false),
                    Choice::ShortestWin {
                        by_first_army: false
                    }
                ),
                // By length and id: 20, 30, 30 (the later of the two wins
                // in 30), 40, 60, 90; the lower middle is the third.
                (game_id(0, 1, true), Choice::Median),
                (game_id(1, 0, false), Choice::Median),
            ]
        );
        // Deterministic whatever the order the log lists them in.
        let mut reversed = games.to_vec();
        reversed.reverse();
        assert_eq!(choose(&reversed), chosen);
        assert!(choose(&[]).is_empty());
    }
}
