//! Iterative-deepening principal-variation search for Potential Chess.
//!
//! The shape follows the orthodox [`crate::engine::Searcher`]: the same
//! [`SearchLimits`] and [`SearchOptions`] (seeded root noise included), the
//! same mate conventions ([`MATE`], [`crate::engine::mate_distance`]), and the
//! same determinism: with a node or depth limit the result depends only on
//! the position, the history, the options and the seed. What differs comes
//! from the cost of a legal move here:
//!
//! * Playing a move copies the position, builds an attack map and runs the
//!   consistency reduction (a bipartite matching) for both sides. So a node
//!   generates the cheap pseudo-legal moves, orders them, and plays them one
//!   at a time ([`PotentialPosition::play_pseudo_legal`]): a cut node plays
//!   only the moves up to the cutoff. A move that turns out illegal is
//!   skipped; a node where every move is illegal is mate or stalemate
//!   (rule 6: mate when every king candidate is attackable).
//! * The transposition table holds the move packed in 64 bits
//!   ([`PackedMove`]) and matches it against the generated moves on a probe,
//!   so a stale or colliding entry can never bring in a foreign move.
//! * A capture comes once per name the capturer may give the victim.
//!   Ordering (MVV-LVA over expected values) tries the most valuable name
//!   first; quiescence searches only the first legal name of each capture:
//!   naming the victim removes that type from the enemy army (see
//!   [`super::eval`]), so the most valuable legal name is nearly always best.
//! * Pruning is modest: reverse futility at depth 3 and below, late-move
//!   reductions of quiet moves, delta pruning in quiescence. There is no null
//!   move (the position has no null-move operation, and positions where
//!   every move gives something away are common).

use std::num::NonZeroU64;
use std::time::Duration;

use super::eval::{PotentialEvaluator, TypeWeights};
use super::{Army, PotentialMove, PotentialPosition, splitmix};
use crate::engine::tt::{Bound, TranspositionTable};
use crate::engine::{
    EvalParams, INFINITY, MATE, MATE_BOUND, MAX_PLY, SearchBudget, SearchLimits, SearchOptions,
    repeats_in_path,
};
use crate::types::{Bitboard, Color, Square};

/// The outcome of [`PotentialSearcher::search`].
#[derive(Clone, Debug)]
pub struct PotentialSearchResult {
    /// `None` only when the position has no legal move.
    pub best_move: Option<PotentialMove>,
    /// Centipawns from the side to move's view; mates as `±(MATE - plies)`.
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, `best_move` first.
    pub pv: Vec<PotentialMove>,
}

// Move-ordering scores: hash move, captures (MVV-LVA), promotions, killers,
// then quiet moves by history.
const HASH_MOVE: i32 = 2_000_000;
const CAPTURE: i32 = 1_000_000;
const PROMOTION: i32 = 900_000;
const KILLER: i32 = 800_000;
const HISTORY_MAX: i32 = 16_384;

/// Quiescence stops looking for captures this many plies in (unless in check).
const MAX_QUIESCENCE_DEPTH: u32 = 8;
/// From this many captures deep, quiescence searches only recaptures on the
/// square of the last capture: with every piece able to capture as several
/// types, exchanges on different squares otherwise multiply without end.
const RECAPTURES_FROM: u32 = 1;
/// Quiescence skips a capture onto a square the enemy attacks when the mover
/// is worth this much more than the victim (a cheap stand-in for exchange
/// evaluation).
const LOSING_MARGIN: i32 = 50;
/// Delta pruning: a capture that cannot bring the score within this of alpha
/// is skipped.
const DELTA_MARGIN: i32 = 200;
/// Reverse futility: margin per ply of remaining depth.
const FUTILITY_MARGIN: i32 = 120;

/// A move packed for the transposition table: from and to squares (6 bits
/// each), promotion and captured name (army type + 1, 0 for none, 6 bits
/// each), the en passant flag, and the mover's potential in the high 32
/// bits. Never 0, as a potential is never empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct PackedMove(NonZeroU64);

impl PackedMove {
    fn new(mv: PotentialMove) -> PackedMove {
        let kind = |t: Option<u8>| t.map_or(0, |t| u64::from(t) + 1);
        let bits = mv.from.index() as u64
            | (mv.to.index() as u64) << 6
            | kind(mv.promotion) << 12
            | kind(mv.captured) << 18
            | u64::from(mv.en_passant) << 24
            | u64::from(mv.reduced.0) << 32;
        PackedMove(NonZeroU64::new(bits).expect("a potential is never empty"))
    }
}

/// A legal root move with the position it leads to and its noise bonus.
#[derive(Clone, Debug)]
struct RootMove<'a> {
    mv: PotentialMove,
    child: PotentialPosition<'a>,
    noise: i32,
}

/// A searcher for one army. Keep one per player across a game so the
/// transposition table and history carry over; call
/// [`PotentialSearcher::new_game`] between games for reproducible results.
#[derive(Debug)]
pub struct PotentialSearcher<'a> {
    army: &'a Army<'a>,
    eval: PotentialEvaluator,
    options: SearchOptions,
    tt: TranspositionTable<PackedMove>,
    /// Quiet-move history by side, from square and to square.
    history: Vec<i32>,
    killers: Vec<[Option<PotentialMove>; 2]>,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    nodes: u64,
    budget: SearchBudget,
}

impl<'a> PotentialSearcher<'a> {
    /// A searcher for positions of `army`, evaluating with `params`.
    pub fn new(
        army: &'a Army<'a>,
        params: &EvalParams,
        options: SearchOptions,
    ) -> PotentialSearcher<'a> {
        PotentialSearcher {
            army,
            eval: PotentialEvaluator::new(army, params),
            tt: TranspositionTable::new(options.hash_megabytes),
            options,
            history: vec![0; 2 * 64 * 64],
            killers: vec![[None; 2]; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            nodes: 0,
            budget: SearchBudget::default(),
        }
    }

    /// The evaluator the search uses.
    pub fn evaluator(&self) -> &PotentialEvaluator {
        &self.eval
    }

    /// Forget everything learned from earlier positions.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Search `pos`, reached through positions with `history` hashes (oldest
    /// first, `pos` itself excluded), within `limits`.
    pub fn search(
        &mut self,
        pos: &PotentialPosition<'a>,
        history: &[u64],
        limits: &SearchLimits,
    ) -> PotentialSearchResult {
        self.budget.start(limits);
        self.nodes = 0;
        self.tt.new_search();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.path.push(pos.hash());

        let mut root = self.root_moves(pos);
        let mut result = PotentialSearchResult {
            best_move: root.first().map(|r| r.mv),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: root.first().map(|r| r.mv).into_iter().collect(),
        };
        if root.is_empty() {
            result.score = if pos.is_check() { -MATE } else { 0 };
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            let best = self.root(&root, depth as i32);
            if self.budget.was_exhausted() {
                // The previous best move was searched first, so a move that
                // finished with a better score is at least as good; the
                // partial iteration is not reported as complete.
                if let Some((_, i)) = best.filter(|&(_, i)| i > 0) {
                    root[..=i].rotate_right(1);
                    result.best_move = Some(root[0].mv);
                    result.pv = self.principal_variation(&root[0], depth as usize);
                }
                break;
            }
            let Some((score, i)) = best else { break };
            // Keep the best move first for the next iteration.
            root[..=i].rotate_right(1);
            result.best_move = Some(root[0].mv);
            result.score = score;
            result.depth = depth;
            result.pv = self.principal_variation(&root[0], depth as usize);
            if score.abs() >= MATE_BOUND && depth as i32 > (MATE - score.abs()) + 2 {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.budget.started().elapsed();
        result
    }

    /// The legal root moves with their successors, in move-ordering order
    /// (a stable sort, so ties keep generation order).
    fn root_moves(&self, pos: &PotentialPosition<'a>) -> Vec<RootMove<'a>> {
        let hash_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        let weights = self.eval.weights(pos, pos.side_to_move());
        let mut scored: Vec<(i32, RootMove<'a>)> = pos
            .legal_successors()
            .into_iter()
            .map(|(mv, child)| {
                let order = self.move_score(pos, mv, &weights, hash_move, &[None; 2]);
                let noise = self.root_noise(pos, mv);
                (order, RootMove { mv, child, noise })
            })
            .collect();
        scored.sort_by_key(|(order, _)| std::cmp::Reverse(*order));
        scored.into_iter().map(|(_, r)| r).collect()
    }

    /// A fixed pseudo-random bonus in `0..=root_noise` from the seed, the
    /// position and the move.
    fn root_noise(&self, pos: &PotentialPosition<'_>, mv: PotentialMove) -> i32 {
        if self.options.root_noise <= 0 {
            return 0;
        }
        let key = splitmix(pos.hash() ^ self.options.seed) ^ PackedMove::new(mv).0.get();
        (splitmix(key) % (self.options.root_noise as u64 + 1)) as i32
    }

    /// One iteration over the root moves (full window, PVS); the best score
    /// and its index among the moves searched to the end.
    fn root(&mut self, root: &[RootMove<'a>], depth: i32) -> Option<(i32, usize)> {
        let mut alpha = -INFINITY;
        let mut best: Option<(i32, usize)> = None;
        for (i, r) in root.iter().enumerate() {
            // The child is searched for `score - noise`, so shift the window.
            let (a, b) = (alpha - r.noise, INFINITY - r.noise);
            self.path.push(r.child.hash());
            let mut score = if i == 0 {
                -self.negamax(&r.child, depth - 1, -b, -a, 1, true)
            } else {
                -self.negamax(&r.child, depth - 1, -a - 1, -a, 1, false)
            };
            if i > 0 && score > a && !self.budget.was_exhausted() {
                score = -self.negamax(&r.child, depth - 1, -b, -a, 1, true);
            }
            self.path.pop();
            if self.budget.was_exhausted() {
                break;
            }
            // Mate scores stay exact: noise only separates ordinary scores.
            let score = if score.abs() < MATE_BOUND {
                score + r.noise
            } else {
                score
            };
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, i));
            }
            alpha = alpha.max(score);
        }
        best
    }

    fn out_of_budget(&mut self) -> bool {
        self.budget.exhausted(self.nodes, 255)
    }

    /// Repetition within the reversible part of the path counts as a draw.
    fn is_repetition(&self, pos: &PotentialPosition<'_>) -> bool {
        repeats_in_path(&self.path, pos.halfmove_clock())
    }

    /// The n-move rule, repetition, or one piece per side (rule 6).
    fn is_rule_draw(&self, pos: &PotentialPosition<'_>) -> bool {
        let rules = &self.army.variant().rules;
        (rules.n_move_rule > 0 && pos.halfmove_clock() >= rules.n_move_rule)
            || (rules.repetition > 0 && self.is_repetition(pos))
            || (pos.pieces_of(Color::White).count() == 1
                && pos.pieces_of(Color::Black).count() == 1)
    }

    fn negamax(
        &mut self,
        pos: &PotentialPosition<'a>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        let enemy_attacks = pos.attacked_by(!pos.side_to_move());
        let in_check = is_check(pos, enemy_attacks);
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply, 0, None);
        }
        self.nodes += 1;
        if self.is_rule_draw(pos) {
            return 0;
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let entry = self.tt.probe(pos.hash());
        if let Some(e) = entry.filter(|e| !pv_node && i32::from(e.depth) >= depth) {
            let score = score_from_tt(i32::from(e.score), ply);
            let cutoff = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cutoff {
                return score;
            }
        }
        // Reverse futility: far above beta with little depth left.
        if !pv_node && !in_check && depth <= 3 && beta.abs() < MATE_BOUND {
            let static_eval = self.eval.evaluate_with(pos, enemy_attacks);
            if static_eval - FUTILITY_MARGIN * depth >= beta {
                return static_eval;
            }
        }

        let hash_move = entry.and_then(|e| e.mv);
        let killers = self.killers[ply];
        let weights = self.eval.weights(pos, pos.side_to_move());
        let mut moves =
            self.ordered_moves(pos, pos.pseudo_legal_moves(), &weights, hash_move, &killers);
        let original_alpha = alpha;
        let mut best: Option<(i32, PotentialMove)> = None;
        let mut quiets_tried: Vec<PotentialMove> = Vec::new();
        let mut legal = 0;
        for i in 0..moves.len() {
            let mv = pick(&mut moves, i);
            let Some(child) = pos.play_pseudo_legal(mv) else {
                continue;
            };
            legal += 1;
            let quiet = mv.captured.is_none() && mv.promotion.is_none();
            let reduction = if quiet && !in_check && depth >= 3 && legal > 3 {
                let late = depth >= 6 && legal > 8;
                (1 + i32::from(late) - i32::from(pv_node)).clamp(0, depth - 2)
            } else {
                0
            };
            self.path.push(child.hash());
            let score = if legal == 1 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if reduction > 0 && s > alpha && !self.budget.was_exhausted() {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if pv_node && s > alpha && s < beta && !self.budget.was_exhausted() {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.path.pop();
            if self.budget.was_exhausted() {
                return 0;
            }
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, mv));
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    if quiet {
                        self.reward_quiet(pos.side_to_move(), ply, depth, mv, &quiets_tried);
                    }
                    break;
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        let Some((best_score, best_move)) = best else {
            // No legal move: checkmate or stalemate (rule 6).
            return if in_check { -MATE + ply as i32 } else { 0 };
        };
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            pos.hash(),
            Some(PackedMove::new(best_move)),
            score_to_tt(best_score, ply),
            0, // no static evaluation is kept
            depth,
            bound,
        );
        best_score
    }

    /// Captures only (every move when in check), over a stand-pat
    /// evaluation. Each capture is searched with its first legal name in
    /// ordering order; captures that lose material on a defended square are
    /// skipped; from [`RECAPTURES_FROM`] captures deep only recaptures on
    /// `last_to` are searched.
    fn quiescence(
        &mut self,
        pos: &PotentialPosition<'a>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        last_to: Option<Square>,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        if self.is_rule_draw(pos) {
            return 0;
        }
        let us = pos.side_to_move();
        let enemy_attacks = pos.attacked_by(!us);
        let in_check = is_check(pos, enemy_attacks);
        if ply >= MAX_PLY - 1 || (qdepth > MAX_QUIESCENCE_DEPTH && !in_check) {
            return self.eval.evaluate_with(pos, enemy_attacks);
        }
        let stand_pat = if in_check {
            -INFINITY
        } else {
            self.eval.evaluate_with(pos, enemy_attacks)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let weights = self.eval.weights(pos, us);
        let mut pseudo = pos.pseudo_legal_moves();
        if !in_check {
            let recapture_only = qdepth >= RECAPTURES_FROM;
            pseudo.retain(|&mv| {
                mv.captured.is_some()
                    && (!recapture_only || Some(mv.to) == last_to)
                    && !(enemy_attacks.contains(mv.to)
                        && self.attacker_value(pos, mv, &weights)
                            > self.victim_value(pos, mv) + LOSING_MARGIN)
            });
        }
        let mut moves = self.ordered_moves(pos, pseudo, &weights, None, &[None; 2]);
        let mut best = stand_pat;
        let mut any_legal = false;
        // Captures already searched (or pruned), by (from, to).
        let mut done: Vec<(Square, Square)> = Vec::new();
        for i in 0..moves.len() {
            let mv = pick(&mut moves, i);
            let squares = (mv.from, mv.to);
            if !in_check {
                if done.contains(&squares) {
                    continue;
                }
                let gain =
                    self.victim_value(pos, mv) + mv.promotion.map_or(0, |t| self.promotion_gain(t));
                if stand_pat + gain + DELTA_MARGIN < alpha {
                    // Later names of this capture are worth no more.
                    done.push(squares);
                    continue;
                }
            }
            let Some(child) = pos.play_pseudo_legal(mv) else {
                continue;
            };
            any_legal = true;
            done.push(squares);
            self.path.push(child.hash());
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1, Some(mv.to));
            self.path.pop();
            if self.budget.was_exhausted() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any_legal {
            return -MATE + ply as i32;
        }
        best
    }

    /// Killer and history updates for a quiet move that caused a cutoff.
    fn reward_quiet(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        mv: PotentialMove,
        tried: &[PotentialMove],
    ) {
        let bonus = (depth * depth * 16).min(1200);
        self.update_history(side, mv, bonus);
        for &q in tried {
            self.update_history(side, q, -bonus);
        }
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
    }

    fn history_index(side: Color, mv: PotentialMove) -> usize {
        (side.index() * 64 + mv.from.index()) * 64 + mv.to.index()
    }

    /// Gravity update: the bonus shrinks as the entry nears its bound.
    fn update_history(&mut self, side: Color, mv: PotentialMove, bonus: i32) {
        let e = &mut self.history[Self::history_index(side, mv)];
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }

    /// `moves` with their ordering scores.
    fn ordered_moves(
        &self,
        pos: &PotentialPosition<'_>,
        moves: Vec<PotentialMove>,
        weights: &TypeWeights,
        hash_move: Option<PackedMove>,
        killers: &[Option<PotentialMove>; 2],
    ) -> Vec<(PotentialMove, i32)> {
        moves
            .into_iter()
            .map(|mv| (mv, self.move_score(pos, mv, weights, hash_move, killers)))
            .collect()
    }

    fn move_score(
        &self,
        pos: &PotentialPosition<'_>,
        mv: PotentialMove,
        weights: &TypeWeights,
        hash_move: Option<PackedMove>,
        killers: &[Option<PotentialMove>; 2],
    ) -> i32 {
        if hash_move == Some(PackedMove::new(mv)) {
            return HASH_MOVE;
        }
        let promotion = mv.promotion.map_or(0, |t| self.promotion_gain(t));
        if mv.captured.is_some() {
            let attacker = self.attacker_value(pos, mv, weights);
            return CAPTURE + 64 * (self.victim_value(pos, mv) + promotion) - attacker;
        }
        if mv.promotion.is_some() {
            return PROMOTION + promotion;
        }
        if let Some(k) = killers.iter().position(|&k| k == Some(mv)) {
            return KILLER - k as i32;
        }
        self.history[Self::history_index(pos.side_to_move(), mv)]
    }

    /// What the mover risks: the expected value of the types that could make
    /// the move (a promoted piece as its promoted type).
    fn attacker_value(
        &self,
        pos: &PotentialPosition<'_>,
        mv: PotentialMove,
        weights: &TypeWeights,
    ) -> i32 {
        match pos.piece_at(mv.from).and_then(|p| p.promoted) {
            Some(t) => self.eval.value(t),
            None => self.eval.expected_value(mv.reduced, weights),
        }
    }

    /// What the capture takes from the enemy: the named type's value (a
    /// promoted piece, named a pawn, as its promoted type).
    fn victim_value(&self, pos: &PotentialPosition<'_>, mv: PotentialMove) -> i32 {
        let Some(name) = mv.captured else {
            return 0;
        };
        let promoted = (!mv.en_passant)
            .then(|| pos.piece_at(mv.to).and_then(|p| p.promoted))
            .flatten();
        self.eval.value(promoted.unwrap_or(name))
    }

    fn promotion_gain(&self, into: u8) -> i32 {
        let pawn = self.army.pawn().map_or(0, |p| self.eval.value(p));
        self.eval.value(into) - pawn
    }

    /// The principal variation: the root move, then the table's moves,
    /// each matched against the generated moves and played.
    fn principal_variation(&self, first: &RootMove<'a>, max_len: usize) -> Vec<PotentialMove> {
        let mut pv = vec![first.mv];
        let mut pos = first.child.clone();
        let mut seen = vec![pos.hash()];
        while pv.len() < max_len {
            let Some(packed) = self.tt.probe(pos.hash()).and_then(|e| e.mv) else {
                break;
            };
            let Some(mv) = pos
                .pseudo_legal_moves()
                .into_iter()
                .find(|&m| PackedMove::new(m) == packed)
            else {
                break;
            };
            let Some(next) = pos.play_pseudo_legal(mv) else {
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

/// [`PotentialPosition::is_check`] with the enemy's attack map at hand.
fn is_check(pos: &PotentialPosition<'_>, enemy_attacks: Bitboard) -> bool {
    (pos.king_candidates(pos.side_to_move()) & !enemy_attacks).is_empty()
}

/// Swap the best-scored move from `i` on into place `i` and return it.
fn pick(moves: &mut [(PotentialMove, i32)], i: usize) -> PotentialMove {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].1 > moves[best].1 {
            best = j;
        }
    }
    moves.swap(i, best);
    moves[i].0
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn packed_moves_are_distinct_per_generated_move() {
        let variant = builtin::load("potential-chess").unwrap();
        let army = Army::of(&variant).unwrap();
        let pos = PotentialPosition::from_text(
            &army,
            "3(qn)3k/4{RP}3/8/7(qn)/8/7{RP}/8/K7[QBBRNNPPPPPPPbbrrnpppppppp] w - 0 1",
        )
        .unwrap();
        let moves = pos.pseudo_legal_moves();
        let mut packed: Vec<u64> = moves.iter().map(|&m| PackedMove::new(m).0.get()).collect();
        packed.sort_unstable();
        packed.dedup();
        assert_eq!(packed.len(), moves.len());
    }

    #[test]
    fn table_entries_are_found_again() {
        assert!(size_of::<Option<crate::engine::tt::Entry<PackedMove>>>() <= 24);
        let mut tt = TranspositionTable::new(1);
        let mv = PackedMove(NonZeroU64::new(7).unwrap());
        tt.store(0xdead_beef_0000_0001, Some(mv), 42, 0, 5, Bound::Exact);
        let e = tt.probe(0xdead_beef_0000_0001).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.mv),
            (42, 5, Bound::Exact, Some(mv))
        );
        assert!(tt.probe(0x1234_5678_0000_0001).is_none());
    }
}
