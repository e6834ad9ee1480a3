//! When a search stops: its limits (depth, nodes, time, a stop flag), the
//! budget that tells the search when they are reached, and repetition on
//! the search path.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// When to stop. Unset limits do not apply; with none the search runs to `MAX_PLY`.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration to complete, in plies.
    pub depth: Option<u32>,
    /// Nodes to search at most: exact, so a search under it depends on
    /// nothing but its inputs.
    pub nodes: Option<u64>,
    /// Wall time to search at most.
    pub movetime: Option<Duration>,
    /// Set from another thread to stop the search (UCI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    /// Search `depth` plies deep, with no other limit.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// Search `nodes` nodes, with no other limit: the lab's reproducible
    /// limit.
    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        }
    }
}

/// A search's limits and whether they have been reached. Once exhausted it
/// stays exhausted until [`SearchBudget::start`], so a search unwinds at once.
#[derive(Debug)]
pub(crate) struct SearchBudget {
    limits: SearchLimits,
    started: Instant,
    exhausted: bool,
}

impl Default for SearchBudget {
    fn default() -> SearchBudget {
        SearchBudget {
            limits: SearchLimits::default(),
            started: Instant::now(),
            exhausted: false,
        }
    }
}

impl SearchBudget {
    /// Begin a search under `limits`.
    pub(crate) fn start(&mut self, limits: &SearchLimits) {
        self.limits = limits.clone();
        self.started = Instant::now();
        self.exhausted = false;
    }

    pub(crate) fn started(&self) -> Instant {
        self.started
    }

    /// Whether the search must stop after `nodes` nodes. The node limit is
    /// exact; the clock and the stop flag are read when `nodes` is a
    /// multiple of `every` + 1 (a power of two minus one), since reading
    /// them at every node costs more than the search step.
    pub(crate) fn exhausted(&mut self, nodes: u64, every: u64) -> bool {
        if self.exhausted {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| nodes >= n) {
            self.exhausted = true;
        } else if nodes & every == 0 {
            let timed_out = self
                .limits
                .movetime
                .is_some_and(|t| self.started.elapsed() >= t);
            let stopped = self
                .limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            self.exhausted = timed_out || stopped;
        }
        self.exhausted
    }

    /// Whether the last search stopped on a limit rather than finishing.
    pub(crate) fn was_exhausted(&self) -> bool {
        self.exhausted
    }
}

/// Whether the current position (the last hash of `path`) is a draw by
/// repetition for the search: it occurred before within the reversible part
/// of the game (`halfmove_clock` plies) with the same side to move, either
/// inside the search tree (after the root, at index `root`: the side that
/// repeated can repeat again) or often enough before it that this occurrence
/// is the variant's `occurrences`-th. So under threefold repetition a
/// position seen once in the game's history is not yet a draw: the opponent
/// may go on, and a side that steered into it would have wasted its move.
pub(crate) fn repetition_draw(
    path: &[u64],
    halfmove_clock: u16,
    root: usize,
    occurrences: u8,
) -> bool {
    let n = path.len();
    let window = usize::from(halfmove_clock).min(n.saturating_sub(1));
    let current = path[n - 1];
    let mut earlier = 0;
    for back in (4..=window).step_by(2) {
        let index = n - 1 - back;
        if path[index] != current {
            continue;
        }
        if index > root {
            return true;
        }
        earlier += 1;
        if earlier + 1 >= usize::from(occurrences) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limits_are_exact_and_sticky() {
        let mut budget = SearchBudget::default();
        budget.start(&SearchLimits::nodes(10));
        assert!(!budget.exhausted(9, 1023));
        assert!(budget.exhausted(10, 1023));
        assert!(budget.exhausted(0, 1023), "stays exhausted");
        budget.start(&SearchLimits::default());
        assert!(!budget.exhausted(1_000_000, 1023));
    }

    #[test]
    fn repetitions_need_the_same_side_and_the_reversible_window() {
        // Positions: a b c d a (a repeats 4 plies back), all in the tree.
        assert!(
            !repetition_draw(&[1, 2, 3, 4, 1], 4, 0, 3),
            "the root itself"
        );
        assert!(
            repetition_draw(&[0, 1, 2, 3, 4, 1], 4, 0, 3),
            "inside the tree"
        );
        assert!(
            !repetition_draw(&[0, 1, 2, 3, 4, 1], 3, 0, 3),
            "an irreversible move between"
        );
        assert!(
            !repetition_draw(&[0, 1, 2, 1], 2, 0, 3),
            "2 plies back is not a repetition here"
        );
        assert!(
            !repetition_draw(&[0, 1, 2, 3, 1], 9, 0, 3),
            "the other side to move"
        );
    }

    #[test]
    fn history_before_the_root_must_complete_the_rule() {
        // a b c d a b c d a with the root at index 6 (c): a occurred twice
        // before the root, so this is its third occurrence.
        let path = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        assert!(repetition_draw(&path, 99, 6, 3));
        assert!(!repetition_draw(&path, 99, 6, 4), "fourfold needs one more");
        assert!(
            !repetition_draw(&path[4..], 99, 2, 3),
            "once before the root: play on"
        );
        assert!(
            repetition_draw(&path[4..], 99, 2, 2),
            "unless twofold draws"
        );
        // A return to the root itself counts as history, as in Stockfish.
        assert!(!repetition_draw(&[5, 6, 7, 8, 5], 99, 0, 3));
    }
}
