//! Iterative-deepening principal-variation search.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::eval::Evaluator;
use super::ordering::{self, History, pick, score_move};
use super::params::EvalParams;
use super::see::see;
use super::tt::{Bound, TranspositionTable};
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY, SearchBudget, repeats_in_path};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::variant::{DeadPosition, Variant};

/// When to stop. Unset limits do not apply; with none the search runs to `MAX_PLY`.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Set from another thread to stop the search (UCI `stop`).
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        }
    }
}

/// Settings of a searcher that hold across searches.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub hash_megabytes: usize,
    /// Seeded root randomness for opening diversity: each root move gets a
    /// fixed pseudo-random bonus in `0..=root_noise` centipawns, drawn from
    /// `seed`, the position and the move. 0 turns it off.
    pub root_noise: i32,
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
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the position has no legal move.
    pub best_move: Option<Move>,
    /// Centipawns from the side to move's view; mates as `±(MATE - plies)`.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

/// A searcher for one variant. Keep one per player across a game so the
/// transposition table and history carry over; call
/// [`Searcher::new_game`] between games for reproducible results.
#[derive(Debug)]
pub struct Searcher<'v> {
    variant: &'v Variant,
    eval: Evaluator,
    options: SearchOptions,
    tt: TranspositionTable,
    history: History,
    killers: Vec<[Option<Move>; 2]>,
    /// Hashes of the game so far and of the current search path.
    path: Vec<u64>,
    nodes: u64,
    seldepth: u32,
    budget: SearchBudget,
    lmr: Vec<[i32; 64]>,
    move_buffers: Vec<MoveList>,
}

impl<'v> Searcher<'v> {
    pub fn new(variant: &'v Variant, params: &EvalParams, options: SearchOptions) -> Searcher<'v> {
        let lmr = (0..64)
            .map(|depth| {
                let mut row = [0; 64];
                for (moves, r) in row.iter_mut().enumerate() {
                    if depth > 0 && moves > 0 {
                        *r = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32;
                    }
                }
                row
            })
            .collect();
        Searcher {
            variant,
            eval: Evaluator::new(variant, params),
            tt: TranspositionTable::new(options.hash_megabytes),
            options,
            history: History::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            nodes: 0,
            seldepth: 0,
            budget: SearchBudget::default(),
            lmr,
            move_buffers: (0..=MAX_PLY)
                .map(|_| MoveList::with_capacity(256))
                .collect(),
        }
    }

    pub fn variant(&self) -> &'v Variant {
        self.variant
    }

    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Forget everything learned from earlier positions.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// Search `pos`, reached through positions with `history` hashes (oldest
    /// first, `pos` itself excluded), within `limits`.
    pub fn search(
        &mut self,
        pos: &Position<'v>,
        history: &[u64],
        limits: &SearchLimits,
    ) -> SearchResult {
        self.search_with_info(pos, history, limits, &mut |_| {})
    }

    pub fn search_with_info(
        &mut self,
        pos: &Position<'v>,
        history: &[u64],
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.budget.start(limits);
        self.nodes = 0;
        self.tt.new_search();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.path.push(pos.hash());

        let mut root_moves = pos.legal_moves();
        let mut result = SearchResult {
            best_move: root_moves.first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: root_moves.first().copied().into_iter().collect(),
        };
        if root_moves.is_empty() {
            result.score = if pos.is_check() { -MATE } else { 0 };
            return result;
        }
        let noise_of: Vec<(Move, i32)> = root_moves
            .iter()
            .map(|&mv| (mv, self.root_noise(pos, mv)))
            .collect();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut previous = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let (score, best) =
                self.aspiration(pos, depth as i32, previous, &mut root_moves, &noise_of);
            if self.budget.was_exhausted() {
                // A partial iteration searched the previous best first, so its
                // best move is at least as good; it is not reported as complete.
                if let Some(best) = best {
                    result.best_move = Some(best);
                }
                break;
            }
            previous = score;
            result.best_move = best.or(result.best_move);
            result.score = score;
            result.depth = depth;
            result.pv = self.principal_variation(pos, best, depth as usize);
            let info = SearchInfo {
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.nodes,
                elapsed: self.budget.started().elapsed(),
                pv: result.pv.clone(),
            };
            on_iteration(&info);
            if self.budget.was_exhausted()
                || score.abs() >= MATE_BOUND && depth as i32 > (MATE - score.abs()) + 2
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.budget.started().elapsed();
        result
    }

    fn root_noise(&self, pos: &Position<'_>, mv: Move) -> i32 {
        if self.options.root_noise <= 0 {
            return 0;
        }
        let key = crate::notation::format(pos, mv).bytes().fold(
            pos.hash() ^ self.options.seed,
            |h, b| {
                (h ^ u64::from(b))
                    .wrapping_mul(0x0100_0000_01b3)
                    .rotate_left(17)
            },
        );
        let mixed = splitmix(key);
        (mixed % (self.options.root_noise as u64 + 1)) as i32
    }

    fn aspiration(
        &mut self,
        pos: &Position<'v>,
        depth: i32,
        previous: i32,
        root_moves: &mut MoveList,
        noise: &[(Move, i32)],
    ) -> (i32, Option<Move>) {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 4 {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let (score, best) = self.root(pos, depth, alpha, beta, root_moves, noise);
            if self.budget.was_exhausted() {
                return (score, best);
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return (score, best);
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn root(
        &mut self,
        pos: &Position<'v>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        root_moves: &mut MoveList,
        noise: &[(Move, i32)],
    ) -> (i32, Option<Move>) {
        let hash_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        let mut scores: Vec<i32> = root_moves
            .iter()
            .map(|&mv| {
                score_move(
                    pos,
                    &self.eval,
                    &self.history,
                    &self.killers[0],
                    hash_move,
                    mv,
                )
            })
            .collect();
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let original_alpha = alpha;
        for i in 0..root_moves.len() {
            let mv = pick(root_moves, &mut scores, i);
            let bonus = noise.iter().find(|(m, _)| *m == mv).map_or(0, |&(_, b)| b);
            let child = pos.after(mv);
            self.path.push(child.hash());
            let score = if i == 0 {
                -self.negamax(
                    &child,
                    depth - 1,
                    -(beta - bonus),
                    -(alpha - bonus),
                    1,
                    true,
                ) + bonus
            } else {
                let mut s = -self.negamax(
                    &child,
                    depth - 1,
                    -(alpha - bonus) - 1,
                    -(alpha - bonus),
                    1,
                    false,
                ) + bonus;
                if s > alpha && s < beta && !self.budget.was_exhausted() {
                    s = -self.negamax(
                        &child,
                        depth - 1,
                        -(beta - bonus),
                        -(alpha - bonus),
                        1,
                        true,
                    ) + bonus;
                }
                s
            };
            self.path.pop();
            if self.budget.was_exhausted() {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                // Keep the best move first for the next iteration.
                root_moves[..=i].rotate_right(1);
                scores[..=i].rotate_right(1);
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        if !self.budget.was_exhausted() && best_move.is_some() {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(pos.hash(), best_move, best_score, 0, depth, bound);
        }
        (best_score, best_move)
    }

    fn out_of_budget(&mut self) -> bool {
        self.budget.exhausted(self.nodes, 1023)
    }

    /// Repetition within the reversible part of the path counts as a draw.
    fn is_repetition(&self, pos: &Position<'_>) -> bool {
        repeats_in_path(&self.path, pos.halfmove_clock())
    }

    fn is_rule_draw(&self, pos: &Position<'_>) -> bool {
        let rules = &self.variant.rules;
        (rules.n_move_rule > 0 && pos.halfmove_clock() >= rules.n_move_rule)
            || (rules.repetition > 0 && self.is_repetition(pos))
            || (rules.dead_position == DeadPosition::KingsOnly && pos.is_bare_kings())
    }

    fn has_non_pawn_material(&self, pos: &Position<'_>) -> bool {
        let us = pos.side_to_move();
        let v = self.variant;
        pos.pocket_size(us) > 0
            || v.piece_types()
                .any(|t| t != v.royal && !v.is_pawn(t) && pos.pieces(us, t).any())
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position<'v>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        let in_check = pos.is_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
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
        let hash_move = entry.and_then(|e| e.mv);
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
        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.eval.evaluate(pos), |e| i32::from(e.eval))
        };

        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at low depth.
            if depth <= 6 && static_eval - 90 * depth >= beta {
                return static_eval;
            }
            // Null move, unless zugzwang is likely (no pieces beyond pawns and the king).
            if depth >= 3 && static_eval >= beta && self.has_non_pawn_material(pos) {
                let reduction = 3 + depth / 4;
                let null = pos.null_move();
                self.path.push(null.hash());
                let score = -self.negamax(
                    &null,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                );
                self.path.pop();
                if self.budget.was_exhausted() {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        moves.clear();
        pos.append_legal_moves(&mut moves);
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let killers = self.killers[ply];
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&mv| score_move(pos, &self.eval, &self.history, &killers, hash_move, mv))
            .collect();

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: Vec<Move> = Vec::new();
        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            let tactical = ordering::is_tactical(pos, &self.eval, mv);
            let is_killer = killers.contains(&Some(mv));
            let quiet = !tactical && !is_killer && Some(mv) != hash_move;
            // Late-move pruning at shallow depth for quiet moves.
            if !pv_node && !in_check && quiet && best_score > -MATE_BOUND {
                let late = 3 + depth * depth * 2;
                if depth <= 4 && i as i32 >= late {
                    continue;
                }
                if depth <= 3 && static_eval + 100 + 120 * depth <= alpha {
                    continue;
                }
            }
            let losing_capture =
                || ordering::is_capture(pos, mv) && see(pos, &self.eval, mv) < -80 * depth;
            if !pv_node
                && !in_check
                && tactical
                && depth <= 4
                && best_score > -MATE_BOUND
                && losing_capture()
            {
                continue;
            }
            let child = pos.after(mv);
            self.path.push(child.hash());
            let gives_check = child.is_check();
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                let mut reduction = 0;
                if depth >= 3 && quiet && !in_check && !gives_check {
                    reduction = self.lmr[depth.min(63) as usize][i.min(63)];
                    if pv_node {
                        reduction -= 1;
                    }
                    if matches!(mv, Move::PocketIn { .. }) {
                        reduction += 1;
                    }
                    reduction -= self.history.get(pos, mv) / 8192;
                    reduction = reduction.clamp(0, depth - 2);
                }
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
                self.move_buffers[ply] = moves;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    if !tactical {
                        let bonus = (depth * depth * 16).min(1200);
                        self.history.update(pos, mv, bonus);
                        for &q in &quiets_tried {
                            self.history.update(pos, q, -bonus);
                        }
                        if self.killers[ply][0] != Some(mv) {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = Some(mv);
                        }
                    }
                    break;
                }
            }
            if !tactical {
                quiets_tried.push(mv);
            }
        }
        self.move_buffers[ply] = moves;
        if best_move.is_none() {
            // Every move was pruned: fail low with the static evaluation.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { static_eval };
        self.tt.store(
            pos.hash(),
            best_move,
            score_to_tt(best_score, ply),
            stored_eval,
            depth,
            bound,
        );
        best_score
    }

    fn quiescence(
        &mut self,
        pos: &Position<'v>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.is_rule_draw(pos) {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 || (qdepth > 8 && !in_check) {
            return self.eval.evaluate(pos);
        }
        let stand_pat = if in_check {
            -INFINITY
        } else {
            self.eval.evaluate(pos)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        moves.clear();
        pos.tactical_moves(&mut moves);
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            return if in_check {
                -MATE + ply as i32
            } else {
                stand_pat
            };
        }
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&mv| score_move(pos, &self.eval, &self.history, &[None; 2], None, mv))
            .collect();
        let mut best = stand_pat;
        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            if !in_check {
                let gain = ordering::promotion_gain(pos, &self.eval, mv).unwrap_or(0);
                let victim = mv
                    .to()
                    .and_then(|t| pos.piece_at(t))
                    .map_or(100, |p| self.eval.value(p.kind));
                // Delta pruning: even winning the victim cannot reach alpha.
                if stand_pat + victim + gain + 150 < alpha {
                    continue;
                }
                if ordering::is_capture(pos, mv) && see(pos, &self.eval, mv) < 0 {
                    continue;
                }
            }
            let child = pos.after(mv);
            self.path.push(child.hash());
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1);
            self.path.pop();
            if self.budget.was_exhausted() {
                self.move_buffers[ply] = moves;
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
        self.move_buffers[ply] = moves;
        best
    }

    /// The principal variation from the transposition table, checked move by move.
    fn principal_variation(
        &self,
        pos: &Position<'v>,
        first: Option<Move>,
        max_len: usize,
    ) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut cur = pos.clone();
        let mut next = first;
        let mut seen = vec![cur.hash()];
        while let Some(mv) = next {
            if pv.len() >= max_len.max(1) || !cur.is_legal(mv) {
                break;
            }
            pv.push(mv);
            cur = cur.after(mv);
            if seen.contains(&cur.hash()) {
                break;
            }
            seen.push(cur.hash());
            next = self.tt.probe(cur.hash()).and_then(|e| e.mv);
        }
        pv
    }
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

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
