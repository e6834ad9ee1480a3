//! Iterative-deepening principal-variation search: one implementation for
//! every game kind, monomorphised over the kind's [`SearchRules`].
//!
//! The search: aspiration windows around the last iteration's score; PVS
//! with a transposition table (static evaluations kept); check extension;
//! mate-distance pruning; reverse futility pruning, null-move pruning
//! (where the kind has a pass), ProbCut (where the kind has measured it:
//! [`SearchRules::cuts_by_probcut`]) and internal iterative reduction; move
//! ordering by table move, captures by MVV-LVA checked with SEE plus a
//! capture history, killers, a counter move and quiet history with
//! gravity; late-move reductions from a log-log table adjusted by history,
//! improvement and node type; late-move, futility and SEE pruning at
//! shallow depth; quiescence over captures and promotions (evasions when in
//! check) with SEE and delta pruning. Pocket-ins are ordered after other
//! quiet moves and reduced more; drops are ordered by history and pruned
//! by SEE like any quiet move, which is what keeps Pocket Mutation Chess's
//! hundreds of drops affordable.
//!
//! With node or depth limits a search depends only on the position, the
//! history, the settings and the seed: nothing reads a clock but the time
//! limit, and no table is shared between searchers.

use std::time::Duration;

use super::budget::{SearchBudget, SearchLimits, repetition_draw};
use super::params::EvalParams;
use super::rules::{MoveOf, MoveTraits, SearchRules, StandardRules};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::game::GamePosition;
use crate::types::splitmix;
use crate::variant::Variant;

/// Settings of a searcher that hold across searches.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Size of the transposition table, in megabytes.
    pub hash_megabytes: usize,
    /// Seeded root randomness for opening diversity: each root move gets a
    /// fixed pseudo-random bonus in `0..=root_noise` centipawns, drawn from
    /// `seed`, the position and the move. 0 turns it off.
    pub root_noise: i32,
    /// Seed of the root noise.
    pub seed: u64,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            hash_megabytes: 16,
            root_noise: 0,
            seed: 0,
        }
    }
}

/// Progress after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// The iteration just completed.
    pub depth: u32,
    /// The deepest ply reached so far.
    pub seldepth: u32,
    /// Its score, in centipawns from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Its principal variation.
    pub pv: Vec<M>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the position has no legal move.
    pub best_move: Option<M>,
    /// Centipawns from the side to move's view; mates as `±(MATE - plies)`.
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes of the whole search, the last partial iteration included.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The principal variation, `best_move` first.
    pub pv: Vec<M>,
}

// Move-ordering scores.
const HASH_MOVE: i32 = 30_000_000;
const GOOD_TACTICAL: i32 = 20_000_000;
const KILLER: i32 = 15_000_000;
const COUNTER_MOVE: i32 = 14_000_000;
const BAD_CAPTURE: i32 = -20_000_000;
/// Pocket-ins that do not promote spend a tempo and rarely refute: late.
const POCKET_IN: i32 = -100_000;
/// History scores stay within this bound (gravity).
const HISTORY_MAX: i32 = 16_384;

/// ProbCut: from this depth, a capture searched [`PROBCUT_REDUCTION`] plies
/// shallower against beta raised by [`PROBCUT_MARGIN`] (less
/// [`PROBCUT_IMPROVING`] when the side's evaluation is improving).
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_REDUCTION: i32 = 4;
const PROBCUT_MARGIN: i32 = 190;
const PROBCUT_IMPROVING: i32 = 50;

/// Static evaluations by position hash. Quiescence stands pat in most
/// positions without leaving a table entry, and every iteration of the
/// deepening reaches them again.
#[derive(Debug)]
struct EvalCache {
    /// Per slot: the full hash, and the evaluation.
    slots: Vec<(u64, i32)>,
}

impl EvalCache {
    const SLOTS: usize = 1 << 14;

    fn new() -> EvalCache {
        EvalCache {
            slots: vec![(0, 0); Self::SLOTS],
        }
    }

    fn clear(&mut self) {
        self.slots.fill((0, 0));
    }

    fn slot(hash: u64) -> usize {
        hash as usize & (Self::SLOTS - 1)
    }

    fn get(&self, hash: u64) -> Option<i32> {
        let (key, eval) = self.slots[Self::slot(hash)];
        (key == hash && hash != 0).then_some(eval)
    }

    fn put(&mut self, hash: u64, eval: i32) {
        self.slots[Self::slot(hash)] = (hash, eval);
    }
}

/// Indices into a node's candidates of the quiet and the tactical moves it
/// searched without a cutoff: they lose history when a later move cuts.
#[derive(Clone, Debug, Default)]
struct Tried {
    quiets: Vec<usize>,
    captures: Vec<usize>,
}

/// Per-ply state of the current search path.
#[derive(Clone, Copy, Debug)]
struct Frame<M> {
    static_eval: i32,
    /// The move made from this ply, if any (`None` for a null move).
    played: Option<M>,
    /// Its history key.
    played_key: Option<usize>,
}

/// A node of the main search once the table is probed and the position
/// evaluated: what its pruning and its move loop go by.
#[derive(Clone, Copy, Debug)]
struct Node<S> {
    ply: usize,
    /// Plies left: with the check extension, and for the move loop less
    /// any internal iterative reduction.
    depth: i32,
    beta: i32,
    pv_node: bool,
    /// Expected to fail high.
    cut_node: bool,
    in_check: bool,
    hash: u64,
    /// The table's entry for the position, if any.
    entry: Option<Entry<S>>,
    /// `-INFINITY` in check.
    static_eval: i32,
    /// The static evaluation, or the table's score where its bound makes
    /// that the better guess.
    eval: i32,
    /// Whether the static evaluation rose since the side's previous move.
    improving: bool,
}

impl<S: Copy> Node<S> {
    /// The table's move, tried first.
    fn hash_move(&self) -> Option<S> {
        self.entry.and_then(|e| e.mv)
    }

    /// Legal moves after which late-move pruning drops the quiet ones.
    /// Mild on purpose: with pockets a position has many quiet moves
    /// (drops, pocket-ins) and a sharper limit lost 157 Elo at equal nodes
    /// in Pocket Mutation Chess.
    fn late_move_limit(&self) -> i32 {
        if self.improving {
            6 + 3 * self.depth * self.depth
        } else {
            3 + 2 * self.depth * self.depth
        }
    }
}

/// What a node's move loop found.
#[derive(Debug)]
struct MoveLoop<M> {
    best_score: i32,
    best_move: Option<M>,
    /// Legal moves searched.
    legal: usize,
    /// Whether late-move or futility pruning dropped the later quiet moves.
    skipped_quiets: bool,
    /// Alpha as the searched moves raised it.
    alpha: i32,
}

/// What shallow pruning does with a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prune {
    Keep,
    /// Skip this move.
    Move,
    /// Skip this move and the later quiet ones (spared checks and the
    /// table move aside).
    LaterQuiets,
}

/// The quiet moves that give check at a node, which shallow pruning
/// spares: with drops a checking move is often the threat that decides.
/// Found when first asked, since most nodes end before.
#[derive(Debug)]
struct QuietChecks<M> {
    moves: Vec<M>,
    found: bool,
    /// Whether the node spares checks at all (shallow non-PV nodes not in
    /// check).
    spare: bool,
}

impl<M: Copy + PartialEq> QuietChecks<M> {
    /// `buffer` is reused for the moves.
    fn new(mut buffer: Vec<M>, spare: bool) -> QuietChecks<M> {
        buffer.clear();
        QuietChecks {
            moves: buffer,
            found: false,
            spare,
        }
    }

    /// Whether `mv` is a quiet check that this node spares.
    fn spares<R>(&mut self, rules: &R, pos: &R::Position, mv: M) -> bool
    where
        R: SearchRules,
        R::Position: GamePosition<Move = M>,
    {
        if !self.spare {
            return false;
        }
        if !self.found {
            rules.quiet_checks(pos, &mut self.moves);
            self.found = true;
        }
        self.moves.contains(&mv)
    }
}

/// One candidate move of a node with its traits.
#[derive(Clone, Copy, Debug)]
struct Candidate<M> {
    mv: M,
    traits: MoveTraits,
    /// Whether the move's exchange does not lose (SEE >= 0), when ordering
    /// had to find out; quiescence asks the same question.
    exchange_holds: Option<bool>,
}

/// A node's candidates and their ordering scores. Each score is kept in a
/// dense array as a key with the candidate's place in its low half, so the
/// next move to try is one vector maximum away.
#[derive(Debug)]
struct Candidates<M> {
    moves: Vec<Candidate<M>>,
    /// Per place: the score in the high 32 bits, `u32::MAX - place` in the
    /// low ones (equal scores: the earlier place is the larger key).
    keys: Vec<i64>,
}

fn order_key(score: i32, place: usize) -> i64 {
    i64::from(score) << 32 | i64::from(u32::MAX - place as u32)
}

fn place_of(key: i64) -> usize {
    (u32::MAX - key as u32) as usize
}

impl<M: Copy> Candidates<M> {
    fn with_capacity(capacity: usize) -> Candidates<M> {
        Candidates {
            moves: Vec::with_capacity(capacity),
            keys: Vec::with_capacity(capacity),
        }
    }

    fn clear(&mut self) {
        self.moves.clear();
        self.keys.clear();
    }

    fn push(&mut self, candidate: Candidate<M>, score: i32) {
        self.keys.push(order_key(score, self.moves.len()));
        self.moves.push(candidate);
    }

    fn len(&self) -> usize {
        self.moves.len()
    }

    /// Swap the best-scored candidate from `i` on into place `i` and return
    /// it (the earliest of equal scores, so ties keep generation order).
    fn pick(&mut self, i: usize) -> Candidate<M> {
        let max = self.keys[i..]
            .iter()
            .copied()
            .max()
            .expect("a candidate is left");
        let best = place_of(max);
        // The candidate at `i` moves to `best`: its key follows with its new
        // place. Places up to `i` are not scanned again, so `i`'s key is left.
        self.keys[best] = order_key((self.keys[i] >> 32) as i32, best);
        self.moves.swap(i, best);
        self.moves[i]
    }
}

impl<M> Default for Candidates<M> {
    fn default() -> Candidates<M> {
        Candidates {
            moves: Vec::new(),
            keys: Vec::new(),
        }
    }
}

/// A searcher for one game kind. Keep one per player across a game so the
/// transposition table and histories carry over; call
/// [`Searcher::new_game`] between games for reproducible results.
///
/// Under a node limit the result depends only on the position, the
/// history, the options and the seed, so a node-limited game replays
/// exactly:
///
/// ```rust
/// use pocketlab_core::engine::{EvalParams, SearchLimits, SearchOptions, Searcher};
/// use pocketlab_core::{GamePosition, Position, builtin};
///
/// let chess = builtin::load("chess").unwrap();
/// let start = Position::start(&chess);
/// let search = || {
///     let mut searcher = Searcher::standard(&chess, &EvalParams::default(), SearchOptions::default());
///     searcher.search(&start, &[], &SearchLimits::nodes(20_000))
/// };
/// let (first, again) = (search(), search());
/// assert_eq!(first.nodes, 20_000);
/// assert_eq!(first.best_move, again.best_move);
/// let reply = start.play(first.best_move.unwrap()).unwrap();
/// assert_eq!(reply.side_to_move(), pocketlab_core::Color::Black);
/// ```
#[derive(Debug)]
pub struct Searcher<R: SearchRules> {
    rules: R,
    options: SearchOptions,
    tt: TranspositionTable<R::StoredMove>,
    history: Vec<i32>,
    capture_history: Vec<i32>,
    counter_moves: Vec<Option<MoveOf<R>>>,
    killers: Vec<[Option<MoveOf<R>>; 2]>,
    stack: Vec<Frame<MoveOf<R>>>,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    /// Where the root is in `path` (the game's earlier positions come first).
    root_index: usize,
    nodes: u64,
    seldepth: u32,
    budget: SearchBudget,
    /// Late-move reductions by depth and move number, in plies.
    lmr: Vec<[i32; 64]>,
    buffers: Vec<Candidates<MoveOf<R>>>,
    scratch: Vec<Vec<MoveOf<R>>>,
    /// Per ply, the moves a node tried without a cutoff (reused: no
    /// allocation per node).
    tried: Vec<Tried>,
    evals: EvalCache,
    /// The kind's [`SearchRules::cuts_by_probcut`], asked once.
    probcut: bool,
}

impl<R: SearchRules> Searcher<R> {
    /// A searcher for the kind `rules` describe, with empty tables.
    pub fn new(rules: R, options: SearchOptions) -> Searcher<R> {
        let lmr = (0..64)
            .map(|depth| {
                let mut row = [0; 64];
                for (moves, r) in row.iter_mut().enumerate() {
                    if depth > 0 && moves > 0 {
                        *r = (0.8 + (depth as f64).ln() * (moves as f64).ln() / 2.2) as i32;
                    }
                }
                row
            })
            .collect();
        let size = rules.history_size();
        Searcher {
            tt: TranspositionTable::new(options.hash_megabytes),
            options,
            history: vec![0; size],
            capture_history: vec![0; size],
            counter_moves: vec![None; size],
            killers: vec![[None; 2]; MAX_PLY + 2],
            stack: vec![
                Frame {
                    static_eval: 0,
                    played: None,
                    played_key: None,
                };
                MAX_PLY + 2
            ],
            path: Vec::with_capacity(1024),
            root_index: 0,
            nodes: 0,
            seldepth: 0,
            budget: SearchBudget::default(),
            lmr,
            buffers: (0..=MAX_PLY)
                .map(|_| Candidates::with_capacity(256))
                .collect(),
            scratch: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            tried: (0..=MAX_PLY).map(|_| Tried::default()).collect(),
            evals: EvalCache::new(),
            probcut: rules.cuts_by_probcut(),
            rules,
        }
    }

    /// The kind's rules (evaluation and move knowledge).
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The transposition table's size in MiB: the size asked for
    /// ([`SearchOptions::hash_megabytes`], rounded down to a power of two
    /// of buckets), or less when the process could not allocate that much.
    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Whether the transposition table is smaller than asked because the
    /// process could not allocate that much (the search then runs with
    /// the largest table it could get, instead of aborting).
    pub fn hash_shrunk(&self) -> bool {
        self.tt.shrunk()
    }

    /// Forget everything learned from earlier positions.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.evals.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.capture_history.iter_mut().for_each(|h| *h = 0);
        self.counter_moves.iter_mut().for_each(|m| *m = None);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Search `pos`, reached through positions with `history` hashes (oldest
    /// first, `pos` itself excluded), within `limits`.
    pub fn search(
        &mut self,
        pos: &R::Position,
        history: &[u64],
        limits: &SearchLimits,
    ) -> SearchResult<MoveOf<R>> {
        self.search_with_info(pos, history, limits, &mut |_| {})
    }

    /// [`Self::search`], telling `on_iteration` of each completed iteration.
    pub fn search_with_info(
        &mut self,
        pos: &R::Position,
        history: &[u64],
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&SearchInfo<MoveOf<R>>),
    ) -> SearchResult<MoveOf<R>> {
        self.budget.start(limits);
        self.nodes = 0;
        self.seldepth = 0;
        self.tt.new_search();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.root_index = self.path.len();
        self.path.push(pos.hash());
        // Killers of the previous move's plies are two plies off: forget them.
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);

        let mut root = self.root_moves(pos);
        let first = root.first().map(|r| r.0);
        let mut result = SearchResult {
            best_move: first,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: first.into_iter().collect(),
        };
        if root.is_empty() {
            result.score = if pos.is_check() { -MATE } else { 0 };
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut previous = 0;
        for depth in 1..=max_depth {
            let (score, best) = self.aspiration(depth as i32, previous, &mut root);
            if self.budget.was_exhausted() {
                // A partial iteration searched the previous best first, so a
                // move that finished ahead of it is at least as good; it is
                // not reported as complete.
                if let Some(best) = best {
                    result.best_move = Some(root[best].0);
                    result.pv = self.principal_variation(&root[best], depth as usize);
                }
                break;
            }
            let best = best.expect("a completed iteration has a best move");
            previous = score;
            result.best_move = Some(root[best].0);
            result.score = score;
            result.depth = depth;
            result.pv = self.principal_variation(&root[best], depth as usize);
            // Keep the best move first for the next iteration.
            root[..=best].rotate_right(1);
            on_iteration(&SearchInfo {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes,
                elapsed: self.budget.started().elapsed(),
                pv: result.pv.clone(),
            });
            if score.abs() >= MATE_BOUND && depth as i32 > (MATE - score.abs()) + 2 {
                break;
            }
        }
        result.seldepth = self.seldepth;
        result.nodes = self.nodes;
        result.elapsed = self.budget.started().elapsed();
        result
    }

    /// The legal root moves with the positions they lead to and their
    /// noise bonus, in ordering order.
    fn root_moves(&mut self, pos: &R::Position) -> Vec<RootMove<R>> {
        let hash_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut scored: Vec<(i32, RootMove<R>)> = moves
            .into_iter()
            .filter_map(|mv| {
                let child = pos.successor(mv)?;
                let traits = self.rules.traits(pos, mv);
                let (order, _) = self.order_score(pos, mv, &traits, hash_move, 0, None);
                let noise = self.root_noise(pos, mv);
                Some((order, (mv, child, noise, traits)))
            })
            .collect();
        // Stable: ties keep generation order.
        scored.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
        scored.into_iter().map(|(_, r)| r).collect()
    }

    fn root_noise(&self, pos: &R::Position, mv: MoveOf<R>) -> i32 {
        if self.options.root_noise <= 0 {
            return 0;
        }
        let key = splitmix(pos.hash() ^ self.options.seed) ^ self.rules.noise_key(pos, mv);
        (splitmix(key) % (self.options.root_noise as u64 + 1)) as i32
    }

    /// One iteration in a window around `previous` that widens until the
    /// score falls inside it; the score and the index of the best root move.
    fn aspiration(
        &mut self,
        depth: i32,
        previous: i32,
        root: &mut [RootMove<R>],
    ) -> (i32, Option<usize>) {
        let mut delta = 25;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let (score, best) = self.root(depth, alpha, beta, root);
            if self.budget.was_exhausted() {
                return (score, best);
            }
            // Scores lie strictly inside ±INFINITY, so once the window is
            // full every score falls in it and the loop ends.
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, best);
            }
            delta += delta / 2;
            if delta > 1_000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    fn root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        root: &mut [RootMove<R>],
    ) -> (i32, Option<usize>) {
        let original_alpha = alpha;
        let mut choice = RootChoice::default();
        for (i, (mv, child, noise, traits)) in root.iter().enumerate() {
            let (mv, noise, traits) = (*mv, *noise, *traits);
            self.stack[0].played = Some(mv);
            self.stack[0].played_key = Some(traits.history_key);
            self.path.push(child.hash());
            // The child is searched for `score - noise`: shift the window.
            let (a, b) = (alpha - noise, beta - noise);
            let gives_check = child.is_check();
            let mut score = if i == 0 {
                -self.negamax(child, depth - 1, -b, -a, 1, false, gives_check)
            } else {
                let mut s = -self.negamax(child, depth - 1, -a - 1, -a, 1, true, gives_check);
                if s > a && s < b && !self.budget.was_exhausted() {
                    s = -self.negamax(child, depth - 1, -b, -a, 1, false, gives_check);
                }
                s
            };
            self.path.pop();
            if self.budget.was_exhausted() {
                break;
            }
            // Mate scores stay exact: noise only separates ordinary scores.
            if score.abs() < MATE_BOUND {
                score += noise;
            }
            choice.offer(i, score, alpha);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        let RootChoice {
            score: best_score,
            index: Some(index),
        } = choice
        else {
            return (-INFINITY, None);
        };
        if !self.budget.was_exhausted() {
            let bound = bound_of(best_score, original_alpha, beta);
            let stored = self.rules.store(root[index].0);
            let hash = self.path[self.path.len() - 1];
            self.tt
                .store(hash, Some(stored), best_score, 0, depth, bound);
        }
        (best_score, Some(index))
    }

    /// The static evaluation, from the cache when this position was
    /// evaluated before (the evaluation depends on the position alone).
    fn evaluate(&mut self, pos: &R::Position, hash: u64) -> i32 {
        if let Some(eval) = self.evals.get(hash) {
            return eval;
        }
        let eval = self.rules.evaluate(pos);
        self.evals.put(hash, eval);
        eval
    }

    fn out_of_budget(&mut self) -> bool {
        self.budget.exhausted(self.nodes, 1023)
    }

    /// A draw by rule: repetition (see [`repetition_draw`]), the n-move
    /// rule, a dead position.
    fn is_draw(&self, pos: &R::Position) -> bool {
        let occurrences = self.rules.repetition_rule();
        (occurrences > 0
            && repetition_draw(
                &self.path,
                pos.halfmove_clock(),
                self.root_index,
                occurrences,
            ))
            || self.rules.is_rule_draw(pos)
    }

    fn history_score(&self, traits: &MoveTraits) -> i32 {
        self.history[traits.history_key]
    }

    /// The ordering score of a move at `ply`.
    fn order_score(
        &self,
        pos: &R::Position,
        mv: MoveOf<R>,
        traits: &MoveTraits,
        hash_move: Option<R::StoredMove>,
        ply: usize,
        counter: Option<MoveOf<R>>,
    ) -> (i32, Option<bool>) {
        if hash_move.is_some_and(|h| h == self.rules.store(mv)) {
            return (HASH_MOVE, None);
        }
        if traits.is_tactical() {
            let mvv_lva = traits.victim * 16 - traits.attacker / 16 + traits.promotion;
            let history = self.capture_history[traits.history_key] / 32;
            // A capture of a piece worth at least the mover cannot lose.
            let exchange_holds = (traits.is_capture && traits.attacker > traits.victim)
                .then(|| self.rules.see_at_least(pos, mv, 0));
            let score = if exchange_holds.unwrap_or(true) {
                GOOD_TACTICAL + mvv_lva + history
            } else {
                BAD_CAPTURE + mvv_lva + history
            };
            return (score, exchange_holds);
        }
        let killers = &self.killers[ply];
        let score = if killers[0] == Some(mv) {
            KILLER + 1
        } else if killers[1] == Some(mv) {
            KILLER
        } else if counter == Some(mv) {
            COUNTER_MOVE
        } else {
            let h = self.history_score(traits);
            if traits.pocket_in { POCKET_IN + h } else { h }
        };
        (score, None)
    }

    /// Gravity update: the bonus shrinks as the entry nears its bound.
    fn update(table: &mut [i32], key: usize, bonus: i32) {
        let e = &mut table[key];
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }

    fn history_bonus(depth: i32) -> i32 {
        (depth * depth * 16 + 32 * depth).min(1600)
    }

    /// The score of `pos` searched `depth` plies deep at `ply` plies from
    /// the root, in the window (`alpha`, `beta`). A `cut_node` is expected
    /// to fail high; `in_check` tells whether the side to move is in check.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &R::Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
        in_check: bool,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        // Check extension, bounded so a perpetual check cannot run to MAX_PLY.
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply, None, in_check);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.is_draw(pos) {
            return 0;
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let hash = pos.hash();
        let entry = self.tt.probe(hash);
        if !pv_node && let Some(score) = table_cutoff(entry, depth, alpha, beta, ply) {
            return score;
        }
        let (static_eval, eval) = self.node_evaluations(pos, hash, entry, ply, in_check);
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != -INFINITY
            && static_eval > self.stack[ply - 2].static_eval;
        let mut node = Node {
            ply,
            depth,
            beta,
            pv_node,
            cut_node,
            in_check,
            hash,
            entry,
            static_eval,
            eval,
            improving,
        };
        if let Some(score) = self.prune_node(pos, &node) {
            return score;
        }
        // Internal iterative reduction: no table move to try first here.
        if node.hash_move().is_none() && depth >= 4 && (pv_node || cut_node) {
            node.depth -= 1;
        }
        self.search_moves(pos, &node, alpha)
    }

    /// The node's static evaluation (`-INFINITY` in check), and the
    /// evaluation its pruning goes by: the table's score where the entry's
    /// bound makes it a better guess than the static one.
    #[inline]
    fn node_evaluations(
        &mut self,
        pos: &R::Position,
        hash: u64,
        entry: Option<Entry<R::StoredMove>>,
        ply: usize,
        in_check: bool,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let static_eval = entry.map_or_else(|| self.evaluate(pos, hash), |e| i32::from(e.eval));
        let Some(e) = entry else {
            return (static_eval, static_eval);
        };
        let score = score_from_tt(i32::from(e.score), ply);
        let better = match e.bound {
            Bound::Exact => true,
            Bound::Lower => score > static_eval,
            Bound::Upper => score < static_eval,
        };
        if better && score.abs() < MATE_BOUND {
            (static_eval, score)
        } else {
            (static_eval, static_eval)
        }
    }

    /// Cuts before the node's moves are tried: reverse futility and null
    /// move, then ProbCut. `Some` is the node's score (0 when the budget
    /// ran out).
    #[inline]
    fn prune_node(&mut self, pos: &R::Position, node: &Node<R::StoredMove>) -> Option<i32> {
        if !node.pv_node && !node.in_check && node.beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left.
            let margin = 80 * (node.depth - i32::from(node.improving));
            if node.depth <= 8 && node.eval - margin >= node.beta {
                return Some((node.eval + node.beta) / 2);
            }
            if let Some(score) = self.try_null_move(pos, node) {
                return Some(score);
            }
        }
        if self.probcut
            && !node.pv_node
            && !node.in_check
            && node.depth >= PROBCUT_DEPTH
            && node.beta.abs() < MATE_BOUND
        {
            return self.try_probcut(pos, node);
        }
        None
    }

    /// Null move: if passing still holds beta, a real move will too. Not
    /// twice in a row, and only where the kind has a pass.
    #[inline]
    fn try_null_move(&mut self, pos: &R::Position, node: &Node<R::StoredMove>) -> Option<i32> {
        let Node {
            ply,
            depth,
            beta,
            eval,
            ..
        } = *node;
        let after_null = ply > 0 && self.stack[ply - 1].played.is_none();
        if depth < 3 || eval < beta || node.static_eval < beta || after_null {
            return None;
        }
        let null = self.rules.null_move(pos)?;
        let reduction = 4 + depth / 4 + ((eval - beta) / 200).min(3);
        self.stack[ply].played = None;
        self.stack[ply].played_key = None;
        self.path.push(null.hash());
        let score = -self.negamax(
            &null,
            depth - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            !node.cut_node,
            null.is_check(),
        );
        self.path.pop();
        if self.budget.was_exhausted() {
            return Some(0);
        }
        (score >= beta).then_some(if score >= MATE_BOUND { beta } else { score })
    }

    /// ProbCut at a non-PV node: the first capture or promotion whose
    /// exchange alone reaches beta raised by [`PROBCUT_MARGIN`] and that
    /// holds it in quiescence and then at the node's depth less
    /// [`PROBCUT_REDUCTION`] gives the node's score, stored as a lower
    /// bound one ply deeper than the search that proved it. `None` if
    /// none does; 0 when the budget ran out.
    #[inline]
    fn try_probcut(&mut self, pos: &R::Position, node: &Node<R::StoredMove>) -> Option<i32> {
        let Node {
            ply, depth, beta, ..
        } = *node;
        let raised = beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * i32::from(node.improving);
        // A table entry nearly as deep that stays below beta plus the
        // margin says the shallow searches would not get there either.
        let hopeless = node.entry.is_some_and(|e| {
            i32::from(e.depth) >= depth - (PROBCUT_REDUCTION - 1)
                && score_from_tt(i32::from(e.score), ply) < beta + PROBCUT_MARGIN
        });
        if hopeless {
            return None;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        // Passing the move that led here keeps quiescence's first-ply
        // quiet checks out: only material-changing moves are wanted.
        let previous = ply.checked_sub(1).and_then(|p| self.stack[p].played);
        self.fill_candidates(pos, &mut moves, node.hash_move(), ply, None, true, previous);
        let mut cut = None;
        for i in 0..moves.len() {
            let Candidate { mv, traits, .. } = moves.pick(i);
            let gain_needed = raised - node.static_eval;
            if !traits.is_tactical() || !self.rules.see_at_least(pos, mv, gain_needed) {
                continue;
            }
            let Some(child) = pos.successor(mv) else {
                continue;
            };
            self.stack[ply].played = Some(mv);
            self.stack[ply].played_key = Some(traits.history_key);
            self.path.push(child.hash());
            let gives_check = child.is_check();
            let (a, b) = (-raised, -raised + 1);
            let mut score = -self.quiescence(&child, a, b, ply + 1, Some(mv), gives_check);
            if score >= raised && !self.budget.was_exhausted() {
                let shallow = depth - PROBCUT_REDUCTION;
                score = -self.negamax(&child, shallow, a, b, ply + 1, !node.cut_node, gives_check);
            }
            self.path.pop();
            if self.budget.was_exhausted() {
                break;
            }
            if score >= raised {
                cut = Some((mv, score));
                break;
            }
        }
        self.buffers[ply] = moves;
        if self.budget.was_exhausted() {
            return Some(0);
        }
        let (mv, score) = cut?;
        self.tt.store(
            node.hash,
            Some(self.rules.store(mv)),
            score_to_tt(score, ply),
            node.static_eval,
            depth - (PROBCUT_REDUCTION - 1),
            Bound::Lower,
        );
        Some(score)
    }

    /// The node's moves, best ordered first, until one reaches beta; the
    /// best is stored in the table. `alpha` is the node's, after mate
    /// distance pruning.
    #[inline]
    fn search_moves(&mut self, pos: &R::Position, node: &Node<R::StoredMove>, alpha: i32) -> i32 {
        let ply = node.ply;
        let counter = ply
            .checked_sub(1)
            .and_then(|p| self.stack[p].played_key)
            .and_then(|k| self.counter_moves[k]);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        self.fill_candidates(pos, &mut moves, node.hash_move(), ply, counter, false, None);
        let mut tried = std::mem::take(&mut self.tried[ply]);
        tried.quiets.clear();
        tried.captures.clear();
        let spare_checks = !node.pv_node && !node.in_check && node.depth <= 7;
        let mut checks = QuietChecks::new(std::mem::take(&mut self.scratch[ply]), spare_checks);
        let outcome = self.try_moves(pos, node, alpha, &mut moves, &mut tried, &mut checks);
        self.buffers[ply] = moves;
        self.scratch[ply] = checks.moves;
        self.tried[ply] = tried;
        match outcome {
            Some(outcome) => self.finish_node(node, alpha, &outcome),
            None => 0,
        }
    }

    /// Tries the candidates in order, pruning at shallow depth, until one
    /// reaches beta (it is rewarded, the tried ones lose history). `None`
    /// when the budget ran out.
    #[inline]
    fn try_moves(
        &mut self,
        pos: &R::Position,
        node: &Node<R::StoredMove>,
        mut alpha: i32,
        moves: &mut Candidates<MoveOf<R>>,
        tried: &mut Tried,
        checks: &mut QuietChecks<MoveOf<R>>,
    ) -> Option<MoveLoop<MoveOf<R>>> {
        let ply = node.ply;
        let mut result = MoveLoop {
            best_score: -INFINITY,
            best_move: None,
            legal: 0,
            skipped_quiets: false,
            alpha,
        };
        for i in 0..moves.len() {
            let candidate = moves.pick(i);
            let Candidate { mv, traits, .. } = candidate;
            let quiet = !traits.is_tactical();
            let is_hash = node.hash_move().is_some_and(|h| h == self.rules.store(mv));
            if quiet && result.skipped_quiets && !is_hash && !checks.spares(&self.rules, pos, mv) {
                continue;
            }
            // Shallow pruning, once some line avoids being mated.
            if result.best_score > -MATE_BOUND && ply > 0 {
                match self.shallow_pruning(pos, node, &candidate, result.legal, alpha, checks) {
                    Prune::Keep => {}
                    Prune::Move => continue,
                    Prune::LaterQuiets => {
                        result.skipped_quiets = true;
                        continue;
                    }
                }
            }
            let Some(child) = pos.successor(mv) else {
                continue;
            };
            result.legal += 1;
            self.stack[ply].played = Some(mv);
            self.stack[ply].played_key = Some(traits.history_key);
            self.path.push(child.hash());
            let score = self.search_child(&child, node, alpha, result.legal, &traits);
            self.path.pop();
            if self.budget.was_exhausted() {
                return None;
            }
            if score > result.best_score {
                result.best_score = score;
                result.best_move = Some(mv);
            }
            if score > alpha {
                alpha = score;
                if score >= node.beta {
                    self.reward_cutoff(ply, node.depth, mv, &traits, &moves.moves, tried);
                    break;
                }
            }
            if quiet {
                tried.quiets.push(i);
            } else {
                tried.captures.push(i);
            }
        }
        result.alpha = alpha;
        Some(result)
    }

    /// Late-move, futility and SEE pruning of a candidate after `legal`
    /// legal moves. Quiet checks are spared late-move and futility pruning.
    #[inline]
    fn shallow_pruning(
        &self,
        pos: &R::Position,
        node: &Node<R::StoredMove>,
        candidate: &Candidate<MoveOf<R>>,
        legal: usize,
        alpha: i32,
        checks: &mut QuietChecks<MoveOf<R>>,
    ) -> Prune {
        let Node { depth, eval, .. } = *node;
        let (mv, quiet) = (candidate.mv, !candidate.traits.is_tactical());
        let reduction = if quiet {
            self.lmr[depth.min(63) as usize][legal.min(63)]
        } else {
            0
        };
        let lmr_depth = (depth - 1 - reduction).max(0);
        if quiet && !node.in_check && !node.pv_node {
            if legal as i32 >= node.late_move_limit()
                && depth <= 6
                && !checks.spares(&self.rules, pos, mv)
            {
                return Prune::LaterQuiets;
            }
            if lmr_depth <= 6
                && eval + 120 + 110 * lmr_depth <= alpha
                && !checks.spares(&self.rules, pos, mv)
            {
                return Prune::LaterQuiets;
            }
            if lmr_depth <= 6
                && !self
                    .rules
                    .see_at_least(pos, mv, -25 * lmr_depth * lmr_depth)
            {
                return Prune::Move;
            }
        } else if depth <= 6 && !self.rules.see_at_least(pos, mv, -90 * depth) {
            return Prune::Move;
        }
        Prune::Keep
    }

    /// The score of the node's `legal`-th legal move, leading to `child`:
    /// the first in the full window, any later one in a null window at a
    /// depth cut by late-move reduction, searched again at full depth and
    /// then in the full window while it beats alpha.
    #[inline]
    fn search_child(
        &mut self,
        child: &R::Position,
        node: &Node<R::StoredMove>,
        alpha: i32,
        legal: usize,
        traits: &MoveTraits,
    ) -> i32 {
        let Node {
            ply,
            beta,
            pv_node,
            cut_node,
            ..
        } = *node;
        let gives_check = child.is_check();
        let new_depth = node.depth - 1;
        if legal == 1 {
            let child_cut = !pv_node && !cut_node;
            return -self.negamax(
                child,
                new_depth,
                -beta,
                -alpha,
                ply + 1,
                child_cut,
                gives_check,
            );
        }
        let reduction = if node.depth >= 3 && legal > 1 + usize::from(pv_node) {
            self.late_move_reduction(node, legal, traits, gives_check)
        } else {
            0
        };
        let (a, b) = (-alpha - 1, -alpha);
        let reduced = new_depth - reduction;
        let mut score = -self.negamax(child, reduced, a, b, ply + 1, true, gives_check);
        if reduction > 0 && score > alpha && !self.budget.was_exhausted() {
            score = -self.negamax(child, new_depth, a, b, ply + 1, !cut_node, gives_check);
        }
        if pv_node && score > alpha && score < beta && !self.budget.was_exhausted() {
            score = -self.negamax(child, new_depth, -beta, -alpha, ply + 1, false, gives_check);
        }
        score
    }

    /// Plies to take off a late move's search: from the log-log table,
    /// halved for captures and promotions, adjusted by a quiet move's
    /// history and pocketing, and by the node's type, improvement and
    /// checks; never down to nothing.
    #[inline]
    fn late_move_reduction(
        &self,
        node: &Node<R::StoredMove>,
        legal: usize,
        traits: &MoveTraits,
        gives_check: bool,
    ) -> i32 {
        let mut reduction = self.lmr[node.depth.min(63) as usize][legal.min(63)];
        if traits.is_tactical() {
            reduction /= 2;
        } else {
            reduction -= self.history_score(traits) / 6000;
            if traits.pocket_in {
                reduction += 1;
            }
        }
        reduction += i32::from(!node.pv_node) + i32::from(node.cut_node);
        reduction -= i32::from(node.improving) + i32::from(gives_check) + i32::from(node.in_check);
        let new_depth = node.depth - 1;
        reduction.clamp(0, new_depth - 1)
    }

    /// The node's score once its moves are tried, stored in the table:
    /// mate or stalemate with no legal move (none pruned), `alpha` when
    /// every move was pruned.
    #[inline]
    fn finish_node(
        &mut self,
        node: &Node<R::StoredMove>,
        original_alpha: i32,
        result: &MoveLoop<MoveOf<R>>,
    ) -> i32 {
        let Some(best_move) = result.best_move else {
            if result.legal == 0 && !result.skipped_quiets {
                // No legal move (none was pruned): mate or stalemate.
                return if node.in_check {
                    -MATE + node.ply as i32
                } else {
                    0
                };
            }
            // Every move was pruned: fail low.
            return result.alpha;
        };
        let bound = bound_of(result.best_score, original_alpha, node.beta);
        let stored_eval = if node.in_check { 0 } else { node.static_eval };
        self.tt.store(
            node.hash,
            Some(self.rules.store(best_move)),
            score_to_tt(result.best_score, node.ply),
            stored_eval,
            node.depth,
            bound,
        );
        result.best_score
    }

    /// Killers, counter move and histories after a cutoff by `mv` (the
    /// `i`-th candidate); the moves tried before it lose what it gains.
    fn reward_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        mv: MoveOf<R>,
        traits: &MoveTraits,
        moves: &[Candidate<MoveOf<R>>],
        tried: &Tried,
    ) {
        let bonus = Self::history_bonus(depth);
        if traits.is_tactical() {
            Self::update(&mut self.capture_history, traits.history_key, bonus);
        } else {
            Self::update(&mut self.history, traits.history_key, bonus);
            for &q in &tried.quiets {
                Self::update(&mut self.history, moves[q].traits.history_key, -bonus);
            }
            if self.killers[ply][0] != Some(mv) {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = Some(mv);
            }
            if let Some(previous) = ply.checked_sub(1).and_then(|p| self.stack[p].played_key) {
                self.counter_moves[previous] = Some(mv);
            }
        }
        for &c in &tried.captures {
            Self::update(
                &mut self.capture_history,
                moves[c].traits.history_key,
                -bonus,
            );
        }
    }

    /// The node's moves with traits and ordering scores: every generated
    /// move, or for quiescence the tactical ones.
    #[allow(clippy::too_many_arguments)]
    fn fill_candidates(
        &mut self,
        pos: &R::Position,
        out: &mut Candidates<MoveOf<R>>,
        hash_move: Option<R::StoredMove>,
        ply: usize,
        counter: Option<MoveOf<R>>,
        tactical_only: bool,
        previous: Option<MoveOf<R>>,
    ) {
        let mut generated = std::mem::take(&mut self.scratch[ply]);
        generated.clear();
        if tactical_only {
            self.rules.tactical_moves(pos, previous, &mut generated);
        } else {
            pos.generate_moves(&mut generated);
        }
        out.clear();
        for &mv in &generated {
            let traits = self.rules.traits(pos, mv);
            let (score, exchange_holds) =
                self.order_score(pos, mv, &traits, hash_move, ply, counter);
            out.push(
                Candidate {
                    mv,
                    traits,
                    exchange_holds,
                },
                score,
            );
        }
        self.scratch[ply] = generated;
    }

    fn quiescence(
        &mut self,
        pos: &R::Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        previous: Option<MoveOf<R>>,
        in_check: bool,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.rules.is_rule_draw(pos) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.rules.evaluate(pos)
            };
        }
        let hash = pos.hash();
        let entry = self.tt.probe(hash);
        if let Some(e) = entry {
            let score = score_from_tt(i32::from(e.score), ply);
            if fits_bound(e.bound, score, alpha, beta) && e.depth >= 0 {
                return score;
            }
        }
        let stand_pat = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.evaluate(pos, hash), |e| i32::from(e.eval))
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let hash_move = entry.and_then(|e| e.mv);
        self.fill_candidates(pos, &mut moves, hash_move, ply, None, !in_check, previous);
        let mut best = stand_pat;
        let mut best_move = None;
        let mut legal = 0;
        for i in 0..moves.len() {
            let Candidate {
                mv,
                traits,
                exchange_holds,
            } = moves.pick(i);
            if !in_check {
                // Delta pruning: even winning the victim cannot reach alpha.
                if stand_pat + traits.victim + traits.promotion + 200 < alpha {
                    continue;
                }
                // Losing captures, and quiet checks that lose the piece.
                if (traits.is_capture || !traits.is_tactical())
                    && !exchange_holds.unwrap_or_else(|| self.rules.see_at_least(pos, mv, 0))
                {
                    continue;
                }
            }
            let Some(child) = pos.successor(mv) else {
                continue;
            };
            legal += 1;
            self.path.push(child.hash());
            let gives_check = child.is_check();
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, Some(mv), gives_check);
            self.path.pop();
            if self.budget.was_exhausted() {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = bound_of(best, original_alpha, beta);
        self.tt.store(
            hash,
            best_move.map(|m| self.rules.store(m)),
            score_to_tt(best, ply),
            if in_check { 0 } else { stand_pat },
            0,
            bound,
        );
        best
    }

    /// The principal variation: the root move, then the table's moves,
    /// each matched against the generated moves and played.
    fn principal_variation(&self, first: &RootMove<R>, max_len: usize) -> Vec<MoveOf<R>> {
        let mut pv = vec![first.0];
        let mut pos = first.1.clone();
        let mut seen = vec![pos.hash()];
        let mut moves = Vec::new();
        while pv.len() < max_len.max(1) {
            let Some(stored) = self.tt.probe(pos.hash()).and_then(|e| e.mv) else {
                break;
            };
            moves.clear();
            pos.generate_moves(&mut moves);
            let Some(mv) = moves
                .iter()
                .copied()
                .find(|&m| self.rules.store(m) == stored)
            else {
                break;
            };
            let Some(next) = pos.successor(mv) else {
                break;
            };
            pv.push(mv);
            pos = next;
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
        }
        pv
    }
}

/// A legal root move: the move, the position after it, its noise bonus,
/// its traits.
type RootMove<R> = (MoveOf<R>, <R as SearchRules>::Position, i32, MoveTraits);

/// The root's answer so far in one iteration. The fail-soft score is the
/// best of all moves searched, but the move stays the first (the previous
/// iteration's best) unless another is proven better by beating alpha:
/// moves that fail low return only upper bounds, and the highest of those
/// says nothing about which move is best. It decides the move played when
/// the budget runs out during an iteration whose first move failed low.
#[derive(Debug)]
struct RootChoice {
    score: i32,
    index: Option<usize>,
}

impl Default for RootChoice {
    fn default() -> RootChoice {
        RootChoice {
            score: -INFINITY,
            index: None,
        }
    }
}

impl RootChoice {
    /// The `i`-th root move scored `score` against the window's `alpha`
    /// before this move.
    fn offer(&mut self, i: usize, score: i32, alpha: i32) {
        self.score = self.score.max(score);
        if self.index.is_none() || score > alpha {
            self.index = Some(i);
        }
    }
}

fn bound_of(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The table's score where the entry is at least `depth` deep and its
/// bound settles the window.
fn table_cutoff<S>(
    entry: Option<Entry<S>>,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    let e = entry.filter(|e| i32::from(e.depth) >= depth)?;
    let score = score_from_tt(i32::from(e.score), ply);
    fits_bound(e.bound, score, alpha, beta).then_some(score)
}

fn fits_bound(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Mate scores in the table count from the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The searcher of pieces of fixed identity.
pub type StandardSearcher<'v> = Searcher<StandardRules<'v>>;

impl<'v> StandardSearcher<'v> {
    /// A searcher for pieces of fixed identity, evaluating with `params`.
    pub fn standard(
        variant: &'v Variant,
        params: &EvalParams,
        options: SearchOptions,
    ) -> StandardSearcher<'v> {
        Searcher::new(StandardRules::new(variant, params), options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_eval_cache_answers_only_for_the_hash_it_holds() {
        let mut cache = EvalCache::new();
        assert_eq!(
            cache.get(0),
            None,
            "an empty slot is no evaluation of hash 0"
        );
        let hash = 0x1234_5678_9abc_def0;
        cache.put(hash, -37);
        assert_eq!(cache.get(hash), Some(-37));
        // Same slot, another position: not its evaluation, and it replaces.
        let rival = hash ^ (1 << 40);
        assert_eq!(cache.get(rival), None);
        cache.put(rival, 5);
        assert_eq!((cache.get(rival), cache.get(hash)), (Some(5), None));
        cache.clear();
        assert_eq!(cache.get(rival), None);
    }

    #[test]
    fn the_root_keeps_its_first_move_until_another_beats_alpha() {
        let mut choice = RootChoice::default();
        // Window (0, 50): the first move fails low, a later one fails
        // lower, another fails low by less: all upper bounds.
        choice.offer(0, -80, 0);
        choice.offer(1, -200, 0);
        choice.offer(2, -10, 0);
        assert_eq!((choice.score, choice.index), (-10, Some(0)));
        // A move that beats alpha is proven better than the first.
        choice.offer(3, 20, 0);
        assert_eq!((choice.score, choice.index), (20, Some(3)));
        // Later moves must beat the raised alpha.
        choice.offer(4, 20, 20);
        assert_eq!(choice.index, Some(3));
        choice.offer(5, 30, 20);
        assert_eq!((choice.score, choice.index), (30, Some(5)));
    }

    proptest! {
        /// Picking agrees with a plain selection sort that swaps the first
        /// of the highest scores into place, ties included.
        #[test]
        fn picking_is_the_swapping_selection_sort(scores in prop::collection::vec(-3i32..3, 0..80)) {
            let mut candidates = Candidates::with_capacity(scores.len());
            for (place, &score) in scores.iter().enumerate() {
                let candidate = Candidate {
                    mv: place,
                    traits: MoveTraits::default(),
                    exchange_holds: None,
                };
                candidates.push(candidate, score);
            }
            let mut naive: Vec<(usize, i32)> = scores.iter().copied().enumerate().collect();
            for i in 0..naive.len() {
                let mut best = i;
                for j in i + 1..naive.len() {
                    if naive[j].1 > naive[best].1 {
                        best = j;
                    }
                }
                naive.swap(i, best);
                prop_assert_eq!(candidates.pick(i).mv, naive[i].0);
            }
        }
    }
}
