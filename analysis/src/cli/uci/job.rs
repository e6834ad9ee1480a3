//! One search on the background thread: it owns the engine while it
//! thinks, writes `info` lines and exactly one `bestmove`, and hands the
//! engine back when joined.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pocketlab_core::engine::{MATE, SearchLimits};

use super::board::{
    Board, Engine, info_line, move_text, potential_info_line, potential_move_text, uci_score,
};
use super::{Sink, say};

/// Everything the search thread needs.
pub(super) struct SearchJob {
    pub(super) position: Board,
    pub(super) history: Vec<u64>,
    pub(super) limits: SearchLimits,
    pub(super) infinite: bool,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) reported: Arc<AtomicBool>,
    pub(super) out: Sink,
}

impl SearchJob {
    /// Search with `engine`, which must fit the position (the session
    /// builds it so), and return it.
    pub(super) fn run(self, mut engine: Engine) -> Engine {
        let (best, score) = match (&mut engine, &self.position) {
            (Engine::Ordinary(searcher), Board::Ordinary(pos)) => {
                let result =
                    searcher.search_with_info(pos, &self.history, &self.limits, &mut |info| {
                        // A first iteration cut short by `stop` is still reported by
                        // the searcher, with the search window's bound (beyond any
                        // mate) as its score: that is not a result, so no `info` line.
                        if info.score.abs() <= MATE {
                            say(&self.out, &info_line(pos, info));
                        }
                    });
                (move_text(pos, result.best_move), result.score)
            }
            (Engine::Potential(searcher), Board::Potential(pos)) => {
                let result = searcher.search(pos, &self.history, &self.limits);
                if result.best_move.is_some() && result.score.abs() <= MATE {
                    say(&self.out, &potential_info_line(pos, &result));
                }
                (potential_move_text(pos, result.best_move), result.score)
            }
            _ => unreachable!("the session builds an engine that fits its position"),
        };
        // UCI: in infinite mode `bestmove` waits for `stop`, even after a mate is found.
        while self.infinite && !self.stop.load(Ordering::Acquire) {
            std::thread::park();
        }
        if best == "0000" {
            say(
                &self.out,
                &format!("info depth 0 score {}", uci_score(score)),
            );
        }
        // Before the line goes out: a GUI may send the next `go` as soon as it
        // reads `bestmove`, and that `go` must find this search joinable.
        self.reported.store(true, Ordering::Release);
        say(&self.out, &format!("bestmove {best}"));
        engine
    }
}
