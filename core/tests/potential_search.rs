//! The Potential Chess engine: tactics (mate in one, the more valuable
//! capture), determinism of node-limited searches, seeded root noise, the
//! no-legal-move contract, and a short self-play game checked move by move.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pocketlab_core::builtin;
use pocketlab_core::engine::{
    EvalParams, MATE, SearchLimits, SearchOptions, SearchResult, Searcher, mate_distance,
};
use pocketlab_core::potential::{Army, PotentialMove, PotentialPosition, PotentialRules};
use pocketlab_core::{Game, GamePosition};
use pocketlab_core::{GameStatus, Square, Termination, Variant};

fn army() -> &'static Army<'static> {
    let variant: &'static Variant = Box::leak(Box::new(builtin::load("potential-chess").unwrap()));
    Box::leak(Box::new(Army::of(variant).unwrap()))
}

fn position(text: &str) -> PotentialPosition<'static> {
    PotentialPosition::from_text(army(), text).unwrap()
}

type PotentialSearcher = Searcher<PotentialRules<'static>>;

fn searcher(options: SearchOptions) -> PotentialSearcher {
    Searcher::new(PotentialRules::new(army(), &EvalParams::default()), options)
}

fn search(pos: &PotentialPosition<'static>, limits: &SearchLimits) -> SearchResult<PotentialMove> {
    searcher(SearchOptions::default()).search(pos, &[], limits)
}

fn square(name: &str) -> Square {
    name.parse().unwrap()
}

/// Positions with some variety: the start, the seed's game after two moves
/// (potentials partly reduced), an endgame with promotions in reach.
const POSITIONS: [&str; 3] = [
    "xxxxxxxx/xxxxxxxx/8/8/8/8/XXXXXXXX/XXXXXXXX[] w - 0 1",
    "(!kn)(!n)(!n)(!n)(!n)(!n)(!n)(!kn)/1(!kn)(!kn)(!kn)(!kn)(!kn)(!kn)1/8/1n4n1/3{QRP}4/8/{!K}{!K}{!K}{!BN}{!K}{!K}{!K}{!K}/XXX1XXXX[] w - 1 3",
    "3(qn)3k/4{RP}3/8/7(qn)/8/7{RP}/8/K7[QBBRNNPPPPPPPbbrrnpppppppp] w - 0 1",
];

#[test]
fn finds_a_mate_in_one() {
    // Two white queen-or-rooks (a2, b7): a2-a8 mates the lone black king
    // on h8 whichever of them is the queen; b7-b8 only checks (h7 is free).
    let pos = position("7k/1{QR}6/8/8/8/8/{QR}7/6K1[BBRNNPPPPPPPPqbbrrnnpppppppp] w - 0 1");
    let mate = pos.parse_move("a2-a8").unwrap();
    assert!(pos.play(mate).unwrap().legal_moves().is_empty());
    for limits in [SearchLimits::depth(3), SearchLimits::nodes(5_000)] {
        let result = search(&pos, &limits);
        assert_eq!(result.best_move, Some(mate), "{limits:?}");
        assert_eq!(mate_distance(result.score), Some(1), "{}", result.score);
        assert_eq!(result.pv, vec![mate]);
    }
}

#[test]
fn takes_the_queen_rather_than_the_pawn() {
    // The rook on d4 can take a queen-only piece on d7 or a pawn-only piece
    // on h4; neither is defended.
    let pos = position("7k/3q4/8/8/3R3p/8/8/4K3[QBBRNNPPPPPPPPbbrrnnppppppp] w - 0 1");
    let queen = army().type_of_letter('Q');
    let pawn = army().type_of_letter('P');
    let moves = pos.legal_moves();
    assert!(
        moves
            .iter()
            .any(|m| m.to == square("h4") && m.captured == pawn)
    );
    for limits in [SearchLimits::depth(1), SearchLimits::depth(4)] {
        let best = search(&pos, &limits).best_move.unwrap();
        assert_eq!(
            (best.from, best.to, best.captured),
            (square("d4"), square("d7"), queen),
            "{limits:?}: {}",
            pos.format_move(best)
        );
    }
}

#[test]
fn node_and_depth_limited_searches_repeat_exactly() {
    let key =
        |r: &SearchResult<PotentialMove>| (r.best_move, r.score, r.depth, r.nodes, r.pv.clone());
    for options in [
        SearchOptions::default(),
        SearchOptions {
            root_noise: 40,
            seed: 7,
            ..SearchOptions::default()
        },
    ] {
        for text in POSITIONS {
            let pos = position(text);
            for limits in [SearchLimits::nodes(1_500), SearchLimits::depth(2)] {
                let mut first = searcher(options.clone());
                let a = first.search(&pos, &[], &limits);
                let b = searcher(options.clone()).search(&pos, &[], &limits);
                assert_eq!(key(&a), key(&b), "{text} {limits:?}");
                if limits.nodes.is_some() {
                    assert_eq!(a.nodes, 1_500, "the node limit is exact");
                } else {
                    assert_eq!(a.depth, 2);
                }
                // A new game forgets the table, history and killers.
                first.new_game();
                let again = first.search(&pos, &[], &limits);
                assert_eq!(key(&again), key(&a), "{text} {limits:?}");
            }
        }
    }
}

#[test]
fn completing_threefold_repetition_with_the_history_is_a_draw() {
    // White (king, knight) is a queen down. Knight shuffles g1-f3-g1 by
    // White and g8-f6-g8 by Black came back to the start position, so
    // g1-f3 now repeats a position of the game: after one shuffle its
    // second occurrence (the game goes on), after two its third (a draw).
    let start = position("k5n1/8/8/3q4/8/8/8/K5N1[QBBRRNPPPPPPPPbbrrnpppppppp] w - 0 1");
    let mut history = Vec::new();
    let mut pos = start.clone();
    let limits = SearchLimits::depth(3);
    let without = search(&pos, &limits);
    assert!(without.score < -500, "{}", without.score);
    for shuffles in 1..=2 {
        for text in ["g1-f3", "g8-f6", "f3-g1", "f6-g8"] {
            history.push(pos.hash());
            pos = pos.play(pos.parse_move(text).unwrap()).unwrap();
        }
        assert_eq!(pos.hash(), start.hash());
        let with = searcher(SearchOptions::default()).search(&pos, &history, &limits);
        if shuffles == 1 {
            assert!(with.score < -500, "a second occurrence: {}", with.score);
        } else {
            assert_eq!(with.score, 0, "a third occurrence draws");
            assert_eq!(with.best_move, Some(pos.parse_move("g1-f3").unwrap()));
        }
    }
}

#[test]
fn root_noise_seeds_vary_the_choice() {
    let mut varied = 0;
    for text in POSITIONS {
        let pos = position(text);
        let mut chosen = Vec::new();
        for seed in 0..6 {
            let options = SearchOptions {
                root_noise: 150,
                seed,
                ..SearchOptions::default()
            };
            let best = searcher(options)
                .search(&pos, &[], &SearchLimits::nodes(3_000))
                .best_move
                .unwrap();
            assert!(pos.legal_moves().contains(&best));
            if !chosen.contains(&best) {
                chosen.push(best);
            }
        }
        if chosen.len() > 1 {
            varied += 1;
        }
    }
    assert!(varied >= 2, "only {varied} positions varied with the seed");
    // Without noise the seed is irrelevant.
    let pos = position(POSITIONS[0]);
    let quiet = |seed| {
        let options = SearchOptions {
            seed,
            ..SearchOptions::default()
        };
        searcher(options).search(&pos, &[], &SearchLimits::nodes(3_000))
    };
    assert_eq!(quiet(1).best_move, quiet(2).best_move);
}

#[test]
fn a_move_exactly_when_there_is_a_legal_move() {
    let mate = position("R6k/1R6/8/8/8/8/8/K7[QBBNNPPPPPPPPqbbrrnnpppppppp] b - 0 1");
    let stalemate = position("7k/R7/8/8/8/8/8/K5R1[QBBNNPPPPPPPPqbbrrnnpppppppp] b - 0 1");
    for (pos, score) in [(mate, -MATE), (stalemate, 0)] {
        let result = search(&pos, &SearchLimits::depth(4));
        assert_eq!(result.best_move, None);
        assert!(result.pv.is_empty());
        assert_eq!(result.score, score);
    }
    let stopped = SearchLimits {
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..SearchLimits::default()
    };
    let instant = SearchLimits {
        movetime: Some(Duration::ZERO),
        ..SearchLimits::default()
    };
    for text in POSITIONS {
        let pos = position(text);
        let legal = pos.legal_moves();
        for limits in [
            SearchLimits::nodes(1),
            SearchLimits::depth(1),
            stopped.clone(),
            instant.clone(),
        ] {
            let best = search(&pos, &limits).best_move;
            assert!(legal.contains(&best.unwrap()), "{text} {limits:?}");
        }
    }
}

#[test]
fn self_play_from_the_start_stays_legal() {
    let army = army();
    let mut game = Game::new(army.start_position());
    let mut white = searcher(SearchOptions::default());
    let mut black = searcher(SearchOptions::default());
    // Hashes of the positions before the current one.
    let mut history: Vec<u64> = Vec::new();
    let limits = SearchLimits::nodes(300);
    for ply in 0..40 {
        let pos = game.position().clone();
        let player = if ply % 2 == 0 { &mut white } else { &mut black };
        let result = player.search(&pos, &history, &limits);
        let legal = pos.legal_moves();
        match game.status() {
            GameStatus::Ongoing => {}
            GameStatus::Over {
                termination: Termination::Checkmate | Termination::Stalemate,
                ..
            } => {
                assert!(legal.is_empty());
                assert_eq!(result.best_move, None);
                return;
            }
            GameStatus::Over { .. } => return,
        }
        let mv = result.best_move.expect("a move in an ongoing game");
        assert!(legal.contains(&mv), "ply {ply}: {}", pos.format_move(mv));
        assert_eq!(result.pv.first(), Some(&mv));
        // The principal variation is playable move by move.
        let mut line = pos.clone();
        for &m in &result.pv {
            line = line.play(m).unwrap();
        }
        history.push(pos.hash());
        game.play(mv).unwrap();
    }
    assert_eq!(game.moves().len(), 40);
    assert_eq!(game.status(), GameStatus::Ongoing);
}

/// Nodes per second (20 000 nodes, or `POTENTIAL_SEARCH_NODES`) from each
/// of [`POSITIONS`]:
/// `cargo test --release -p pocketlab-core --test potential_search -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_nodes_per_second() {
    let nodes = std::env::var("POTENTIAL_SEARCH_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    for text in POSITIONS {
        let pos = position(text);
        let result = search(&pos, &SearchLimits::nodes(nodes));
        let seconds = result.elapsed.as_secs_f64();
        println!(
            "{text}\n  {} nodes, depth {}, {:.2?}, {:.0} nodes/s, best {} score {}",
            result.nodes,
            result.depth,
            result.elapsed,
            result.nodes as f64 / seconds,
            pos.format_move(result.best_move.unwrap()),
            result.score
        );
    }
}

/// ProbCut is measured for kinds of fixed identity only: Potential Chess
/// keeps its search without it (and its games).
#[test]
fn potential_chess_searches_without_probcut() {
    use pocketlab_core::engine::SearchRules;
    assert!(!PotentialRules::new(army(), &EvalParams::default()).cuts_by_probcut());
}
