//! The engine: a tactics suite solved within a node budget, determinism,
//! and a strength sanity check.

use std::thread;

use pocketlab_core::builtin;
use pocketlab_core::engine::{
    EvalParams, MATE_BOUND, SearchLimits, SearchOptions, Searcher, mate_distance,
};
use pocketlab_core::{Game, GameStatus, Outcome, Position, Variant, notation};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Whether the side to move can force mate within `moves` of its moves, by
/// exhaustive search (independent of the engine's search).
fn forced_mate(pos: &Position<'_>, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    pos.legal_moves().into_iter().any(|mv| {
        let next = pos.after(mv);
        let replies = next.legal_moves();
        if replies.is_empty() {
            return next.is_check();
        }
        moves > 1
            && replies
                .into_iter()
                .all(|r| forced_mate(&next.after(r), moves - 1))
    })
}

fn mates_with(pos: &Position<'_>, first: &str, moves: u32) -> bool {
    let next = pos.after(notation::parse(pos, first).unwrap_or_else(|e| panic!("{e}")));
    let replies = next.legal_moves();
    if replies.is_empty() {
        return next.is_check() && moves >= 1;
    }
    moves > 1
        && replies
            .into_iter()
            .all(|r| forced_mate(&next.after(r), moves - 1))
}

struct Puzzle {
    name: &'static str,
    variant: &'static str,
    fen: &'static str,
    /// Solutions (verified); for mates, any move the exhaustive search
    /// proves to mate in `mate_in` also counts.
    best: &'static [&'static str],
    /// Mate in this many moves, verified exhaustively; 0 for material wins.
    mate_in: u32,
}

const PUZZLES: &[Puzzle] = &[
    Puzzle {
        name: "back-rank mate",
        variant: "chess",
        fen: "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        best: &["d1d8"],
        mate_in: 1,
    },
    Puzzle {
        name: "queen and rook ladder, mate in 2",
        variant: "chess",
        fen: "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
        best: &["a2a7", "b1b7"],
        mate_in: 2,
    },
    Puzzle {
        name: "smothered mate by a knight drop",
        variant: "pocket-mutation",
        fen: "6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 9",
        best: &["N@f7"],
        mate_in: 1,
    },
    Puzzle {
        name: "discovered mate by a pocket-in promotion",
        variant: "pocket-mutation",
        fen: "RP5k/6pp/8/8/8/8/8/4K3[] w - - 0 20",
        best: &["^b8=B", "^b8=N"],
        mate_in: 1,
    },
    Puzzle {
        name: "drop mate with a pocketed queen (not on the 8th rank)",
        variant: "pmc-drops",
        fen: "k7/8/1K6/8/8/8/8/8[Q] w - - 0 30",
        best: &["Q@a7", "Q@b7"],
        mate_in: 1,
    },
    Puzzle {
        name: "nightrider fork wins the queen",
        variant: "fairy-oracle",
        fen: "2I3k1/5ppp/8/8/8/2q5/8/6K1 w - - 0 1",
        best: &["c8e7"],
        mate_in: 0,
    },
    Puzzle {
        name: "amazon takes a chancellor with a knight jump",
        variant: "fairy-oracle",
        fen: "k7/8/8/3h4/8/4A3/8/4K3 w - - 0 1",
        best: &["e3d5"],
        mate_in: 0,
    },
    Puzzle {
        name: "queen mates guarded along a cardinal rider's nightrider line",
        variant: "fairy-oracle",
        fen: "7k/5Q2/8/8/8/4D3/8/6K1 w - - 0 1",
        best: &["f7g7"],
        mate_in: 1,
    },
];

const PUZZLE_NODES: u64 = 400_000;

#[test]
fn tactics_suite_is_solved_within_the_node_budget() {
    let mut failures = Vec::new();
    for p in PUZZLES {
        let v = builtin::load(p.variant).unwrap();
        let pos = Position::from_fen(&v, p.fen).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        if p.mate_in > 0 {
            for &best in p.best {
                assert!(
                    mates_with(&pos, best, p.mate_in),
                    "{}: {best} is not mate in {}",
                    p.name,
                    p.mate_in
                );
            }
        }
        let mut searcher = Searcher::standard(&v, &EvalParams::default(), SearchOptions::default());
        let result = searcher.search(&pos, &[], &SearchLimits::nodes(PUZZLE_NODES));
        let found = result
            .best_move
            .map(|m| notation::format(&pos, m))
            .unwrap_or_default();
        let solved = if p.mate_in > 0 {
            mates_with(&pos, &found, p.mate_in)
        } else {
            p.best.contains(&found.as_str())
        };
        if !solved {
            failures.push(format!(
                "{}: expected {:?}, found {found} (score {})",
                p.name, p.best, result.score
            ));
        } else if p.mate_in > 0 && mate_distance(result.score) != Some(2 * p.mate_in as i32 - 1) {
            failures.push(format!(
                "{}: found {found} but scored {} instead of mate in {}",
                p.name, result.score, p.mate_in
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn search_once(v: &Variant, fen: &str, nodes: u64) -> (String, u64, i32) {
    let pos = Position::from_fen(v, fen).unwrap();
    let mut s = Searcher::standard(v, &EvalParams::default(), SearchOptions::default());
    let r = s.search(&pos, &[], &SearchLimits::nodes(nodes));
    (
        notation::format(&pos, r.best_move.unwrap()),
        r.nodes,
        r.score,
    )
}

#[test]
fn node_limited_search_is_deterministic_across_runs_and_threads() {
    let v = builtin::load("pocket-mutation").unwrap();
    let fen = "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w - - 0 6";
    let first = search_once(&v, fen, 60_000);
    assert_eq!(search_once(&v, fen, 60_000), first);
    let (a, b) = thread::scope(|s| {
        let a = s.spawn(|| search_once(&v, fen, 60_000));
        let b = s.spawn(|| search_once(&v, fen, 60_000));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a, first);
    assert_eq!(b, first);
}

/// `new_game` forgets everything an earlier search left (table, histories,
/// cached evaluations): a used searcher then answers like a fresh one.
#[test]
fn a_new_game_searches_like_a_fresh_searcher() {
    let v = builtin::load("pocket-mutation").unwrap();
    let fen = "r1bqk2r/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R[] w - - 0 6";
    let pos = Position::from_fen(&v, fen).unwrap();
    let limits = SearchLimits::nodes(30_000);
    let mut fresh = Searcher::standard(&v, &EvalParams::default(), SearchOptions::default());
    let expected = fresh.search(&pos, &[], &limits);
    let mut used = Searcher::standard(&v, &EvalParams::default(), SearchOptions::default());
    used.search(&Position::start(&v), &[], &limits);
    used.search(&pos, &[], &limits);
    used.new_game();
    let again = used.search(&pos, &[], &limits);
    assert_eq!(
        (again.best_move, again.nodes, again.score, again.pv),
        (
            expected.best_move,
            expected.nodes,
            expected.score,
            expected.pv
        )
    );
}

#[test]
fn root_noise_is_seeded() {
    let v = builtin::load("chess").unwrap();
    let pos = Position::start(&v);
    let pick = |seed: u64| {
        let options = SearchOptions {
            root_noise: 60,
            seed,
            ..SearchOptions::default()
        };
        let mut s = Searcher::standard(&v, &EvalParams::default(), options);
        notation::format(
            &pos,
            s.search(&pos, &[], &SearchLimits::depth(4))
                .best_move
                .unwrap(),
        )
    };
    let picks: Vec<String> = (0..8).map(pick).collect();
    assert_eq!(
        picks,
        (0..8).map(pick).collect::<Vec<_>>(),
        "same seeds, same moves"
    );
    let distinct: std::collections::BTreeSet<_> = picks.iter().collect();
    assert!(
        distinct.len() > 1,
        "different seeds should vary the opening: {picks:?}"
    );
}

/// A player for the strength test: a searcher at fixed depth, or a random mover.
#[allow(clippy::large_enum_variant, reason = "a handful of players per test")]
enum Player<'v> {
    Engine(pocketlab_core::engine::StandardSearcher<'v>, u64),
    Random(ChaCha8Rng),
}

impl<'v> Player<'v> {
    fn choose(&mut self, game: &Game<Position<'v>>) -> pocketlab_core::Move {
        let pos = game.position();
        match self {
            Player::Engine(s, nodes) => {
                let history = &game.hashes()[..game.hashes().len() - 1];
                s.search(pos, history, &SearchLimits::nodes(*nodes))
                    .best_move
                    .unwrap()
            }
            Player::Random(rng) => {
                let moves = pos.legal_moves();
                moves[rng.random_range(0..moves.len())]
            }
        }
    }
}

/// Score of player A over `pairs` colour-swapped game pairs from random 2-ply openings.
fn match_score<'v>(
    v: &'v Variant,
    pairs: u64,
    mut make_a: impl FnMut(u64) -> Player<'v>,
    mut make_b: impl FnMut(u64) -> Player<'v>,
) -> f64 {
    let mut points = 0.0;
    for pair in 0..pairs {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + pair);
        let mut opening = Game::new(Position::start(v));
        for _ in 0..2 {
            let moves = opening.position().legal_moves();
            opening
                .play_legal(moves[rng.random_range(0..moves.len())])
                .unwrap();
        }
        for a_is_white in [true, false] {
            let mut game = opening.clone();
            let mut a = make_a(pair);
            let mut b = make_b(pair);
            let outcome = loop {
                if let GameStatus::Over { outcome, .. } = game.status() {
                    break outcome;
                }
                if game.moves().len() >= 160 {
                    break Outcome::Draw;
                }
                let white_to_move = game.position().side_to_move() == pocketlab_core::Color::White;
                let mv = if white_to_move == a_is_white {
                    a.choose(&game)
                } else {
                    b.choose(&game)
                };
                game.play_legal(mv).unwrap();
            };
            points += match outcome {
                Outcome::Draw => 0.5,
                Outcome::Win(c) if (c == pocketlab_core::Color::White) == a_is_white => 1.0,
                Outcome::Win(_) => 0.0,
            };
        }
    }
    points / (2 * pairs) as f64
}

fn engine(v: &Variant, nodes: u64) -> Player<'_> {
    Player::Engine(
        Searcher::standard(
            v,
            &EvalParams::default(),
            SearchOptions {
                hash_megabytes: 4,
                ..SearchOptions::default()
            },
        ),
        nodes,
    )
}

#[test]
fn more_nodes_beat_fewer_and_a_random_mover_in_pocket_mutation() {
    let v = builtin::load("pocket-mutation").unwrap();
    // 24 games each. Under the null hypothesis of equal strength (score 0.5,
    // at most 0.25 variance per game) a score above 0.80 is more than 2.9
    // standard errors away: p < 0.002 one-sided.
    let vs_random = match_score(
        &v,
        12,
        |_| engine(&v, 200),
        |seed| Player::Random(ChaCha8Rng::seed_from_u64(seed)),
    );
    assert!(
        vs_random >= 0.8,
        "200 nodes scored {vs_random} against a random mover"
    );
    let deeper = match_score(&v, 12, |_| engine(&v, 4_000), |_| engine(&v, 200));
    assert!(deeper >= 0.8, "4,000 nodes scored {deeper} against 200");
}

#[test]
fn mate_scores_report_distance() {
    assert_eq!(mate_distance(pocketlab_core::engine::MATE - 3), Some(3));
    assert_eq!(mate_distance(-(pocketlab_core::engine::MATE - 2)), Some(-2));
    assert_eq!(mate_distance(120), None);
    const { assert!(MATE_BOUND < pocketlab_core::engine::MATE) };
}

/// A move back into a position of the game counts as a draw only when it
/// completes threefold repetition: seen once before the search, the game
/// goes on (a lost side cannot save itself by repeating once).
#[test]
fn only_a_third_occurrence_of_a_game_position_draws() {
    let v = builtin::load("chess").unwrap();
    // White, a queen down, to move; Kf2 leads to position `after`.
    let pos = Position::from_fen(&v, "3qk3/8/8/8/8/8/8/4K3 w - - 20 60").unwrap();
    let after = pos.after(notation::parse(&pos, "e1f2").unwrap()).hash();
    // The root's earlier positions, oldest first: `after` (Black to move,
    // as after Kf2) four and eight plies before the position Kf2 reaches.
    let history = |twice: bool| -> Vec<u64> {
        let mut h: Vec<u64> = (1..=8).collect();
        h[5] = after;
        if twice {
            h[1] = after;
        }
        h
    };
    let limits = SearchLimits::nodes(20_000);
    let mut s = Searcher::standard(&v, &EvalParams::default(), SearchOptions::default());
    let twice = s.search(&pos, &history(true), &limits);
    assert_eq!(
        (
            twice.score,
            notation::format(&pos, twice.best_move.unwrap())
        ),
        (0, "e1f2".to_owned()),
        "the third occurrence draws"
    );
    s.new_game();
    let once = s.search(&pos, &history(false), &limits);
    assert!(
        once.score < -500,
        "a second occurrence is no draw: {}",
        once.score
    );
}

#[test]
fn probcut_is_on_without_pockets_only() {
    use pocketlab_core::engine::{SearchRules, StandardRules};
    let params = EvalParams::default();
    for (name, expected) in [
        ("chess", true),
        ("chess-nocastle", true),
        ("fairy-oracle", true),
        ("pocket-mutation", false),
        ("pmc-drops", false),
    ] {
        let v = builtin::load(name).unwrap();
        let rules = StandardRules::new(&v, &params);
        assert_eq!(rules.cuts_by_probcut(), expected, "{name}");
    }
}
