//! How Potential Chess games resolve their pieces' identities, from a log:
//! every game is replayed through the rules core, and for each side the
//! ply at which its king and its queen became known is recorded, with the
//! moves after which the consistency rule (rule 5) narrowed a piece.
//!
//! ```sh
//! cargo run --release -p pocketlab --example potential_resolution -- reports/potential-chess-study/log
//! ```
//!
//! A king is known once one piece alone may be the king (its potential is
//! exactly {K}); a queen once one piece alone may be the queen or the queen
//! has been captured (named Q). A move forces a reduction by consistency
//! when a piece loses a type other than the king beyond what the move
//! itself says (the mover keeps fewer types than could have made the move,
//! or another piece narrows): only rule 5 removes such types. A lost king
//! alone is not counted, since rule 4 (attackable pieces are not the king)
//! removes it too. Shares come with 95% intervals clustered by
//! colour-swapped pair (the games of a pair share an opening).

use std::collections::BTreeMap;
use std::path::Path;

use pocketlab_core::potential::{Army, Potential, PotentialPosition};
use pocketlab_core::{Color, GamePosition, Square};
use pocketlab_selfplay::log::{open_log, read_games, read_moves};
use pocketlab_stats::estimate::{ConfidenceLevel, clustered_mean};

/// A colour-swapped pair: (matchup index, pair index).
type PairKey = (u32, u64);

/// What one replayed game says.
#[derive(Default)]
struct Resolution {
    /// Ply (1-based, after that ply's move) at which each side's king, then
    /// queen, became known; `None` if never.
    king_known: [Option<u32>; 2],
    queen_known: [Option<u32>; 2],
    /// Whether each side's queen became known by being captured (the
    /// capturer names the captured piece), rather than by deduction.
    queen_captured: [bool; 2],
    /// Moves after which rule 5 narrowed some piece.
    consistency_moves: u32,
    plies: u32,
    /// Whether each side started with hidden identities.
    hidden: [bool; 2],
}

fn side(color: Color) -> usize {
    usize::from(color == Color::Black)
}

/// Whether `color`'s type `t` is known in `pos`: one piece alone may be it
/// and it is a single piece of the army, or it has been captured.
fn known(pos: &PotentialPosition<'_>, army: &Army<'_>, color: Color, t: u8) -> bool {
    if pos.captured_count(color, t) > 0 {
        return true;
    }
    let candidates: Vec<Potential> = Square::all()
        .filter_map(|sq| pos.piece_at(sq))
        .filter(|p| p.color == color && p.promoted.is_none() && p.potential.contains(t))
        .map(|p| p.potential)
        .collect();
    army.count(t) == 1 && candidates.len() == 1 && candidates[0] == Potential::single(t)
}

/// Types other than the king lost between `before` and `after`.
fn lost_beyond_king(before: Potential, after: Potential, king: u8) -> bool {
    Potential(before.0 & !after.0).without(king).count() > 0
}

fn resolve(
    army: &Army<'_>,
    start: &str,
    moves: &[&str],
) -> Result<Resolution, Box<dyn std::error::Error>> {
    let mut pos = PotentialPosition::from_text(army, start)?;
    let (king, queen) = (
        army.royal(),
        army.type_of_letter('Q')
            .ok_or("the army has no queen (Q)")?,
    );
    let mut r = Resolution {
        plies: moves.len() as u32,
        ..Resolution::default()
    };
    for color in Color::ALL {
        r.hidden[side(color)] = !known(&pos, army, color, king);
    }
    for (i, text) in moves.iter().enumerate() {
        let mv = pos.parse_move(text)?;
        let next = pos
            .successor(mv)
            .ok_or_else(|| format!("move {} ({text}) is illegal", i + 1))?;
        let narrowed = Square::all().any(|sq| {
            let Some(after) = next.piece_at(sq) else {
                return false;
            };
            let before = if sq == mv.to && after.color == pos.side_to_move() {
                Some(mv.reduced)
            } else {
                pos.piece_at(sq)
                    .filter(|p| p.color == after.color)
                    .map(|p| p.potential)
            };
            before.is_some_and(|b| lost_beyond_king(b, after.potential, king))
        });
        r.consistency_moves += u32::from(narrowed);
        pos = next;
        let ply = i as u32 + 1;
        for color in Color::ALL {
            let s = side(color);
            if r.king_known[s].is_none() && known(&pos, army, color, king) {
                r.king_known[s] = Some(ply);
            }
            if r.queen_known[s].is_none() && known(&pos, army, color, queen) {
                r.queen_known[s] = Some(ply);
                r.queen_captured[s] = pos.captured_count(color, queen) > 0;
            }
        }
    }
    Ok(r)
}

/// The median of some values, or NaN.
fn median(mut values: Vec<u32>) -> f64 {
    values.sort_unstable();
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => f64::from(values[n / 2]),
        n => (f64::from(values[n / 2 - 1]) + f64::from(values[n / 2])) / 2.0,
    }
}

/// A share clustered by pair: `per_pair` holds (successes, trials) per pair.
fn share(per_pair: &BTreeMap<PairKey, (f64, u64)>) -> String {
    let clusters: Vec<(f64, u64)> = per_pair.values().copied().collect();
    match clustered_mean(&clusters, ConfidenceLevel::default()) {
        Some(m) => format!(
            "{:.1}% ({:.1} to {:.1}%, {} of {})",
            100.0 * m.mean,
            100.0 * m.interval.lower.max(0.0),
            100.0 * m.interval.upper.min(1.0),
            clusters.iter().map(|c| c.0).sum::<f64>(),
            m.observations
        ),
        None => "none".to_owned(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: potential_resolution LOG_DIR")?;
    let dir = Path::new(&dir);
    let exp = open_log(dir)?.experiment()?;
    let army = Army::of(&exp.variant).ok_or("the log's variant is not Potential Chess")?;
    let games = read_games(dir)?;
    let mut moves: BTreeMap<u64, Vec<(u32, String)>> = BTreeMap::new();
    for m in read_moves(dir)? {
        moves.entry(m.game_id).or_default().push((m.ply, m.mv));
    }
    // Per matchup: resolutions by (matchup, pair).
    let mut by_matchup: BTreeMap<String, Vec<(PairKey, Resolution)>> = BTreeMap::new();
    for g in &games {
        let mut own = moves.remove(&g.game_id).unwrap_or_default();
        own.sort_unstable();
        let texts: Vec<&str> = own.iter().map(|(_, m)| m.as_str()).collect();
        let r =
            resolve(&army, &g.start_fen, &texts).map_err(|e| format!("game {}: {e}", g.game_id))?;
        by_matchup
            .entry(g.matchup.clone())
            .or_default()
            .push(((g.matchup_index, g.pair_index), r));
    }
    for (matchup, results) in &by_matchup {
        println!("{matchup}: {} games", results.len());
        let king = |r: &Resolution, s: usize| r.king_known[s];
        let queen = |r: &Resolution, s: usize| r.queen_known[s];
        for (what, of) in [
            ("king", &king as &dyn Fn(&Resolution, usize) -> Option<u32>),
            ("queen", &queen),
        ] {
            let mut known_by_pair = BTreeMap::new();
            let mut plies = Vec::new();
            for (pair, r) in results {
                for s in 0..2 {
                    if !r.hidden[s] {
                        continue;
                    }
                    let entry = known_by_pair.entry(*pair).or_insert((0.0, 0));
                    entry.1 += 1;
                    if let Some(ply) = of(r, s) {
                        entry.0 += 1.0;
                        plies.push(ply);
                    }
                }
            }
            println!(
                "  {what} known (sides with hidden identities): {}; median ply when known {:.1}",
                share(&known_by_pair),
                median(plies)
            );
        }
        let mut captured_by_pair = BTreeMap::new();
        for (pair, r) in results {
            for s in (0..2).filter(|&s| r.hidden[s] && r.queen_known[s].is_some()) {
                let entry = captured_by_pair.entry(*pair).or_insert((0.0, 0));
                entry.0 += f64::from(u8::from(r.queen_captured[s]));
                entry.1 += 1;
            }
        }
        println!(
            "  of the queens known, known by being captured and named: {}",
            share(&captured_by_pair)
        );
        let mut forced_by_pair = BTreeMap::new();
        let mut games_with = BTreeMap::new();
        for (pair, r) in results {
            let entry = forced_by_pair.entry(*pair).or_insert((0.0, 0));
            entry.0 += f64::from(r.consistency_moves);
            entry.1 += u64::from(r.plies);
            let entry = games_with.entry(*pair).or_insert((0.0, 0));
            entry.0 += f64::from(u8::from(r.consistency_moves > 0));
            entry.1 += 1;
        }
        println!(
            "  moves after which consistency narrowed a piece: {}",
            share(&forced_by_pair)
        );
        println!("  games with such a move: {}", share(&games_with));
    }
    Ok(())
}
