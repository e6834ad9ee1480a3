//! Running an experiment: pairs in parallel, results logged in chunks.
//!
//! Worker threads (a rayon pool) take pairs from a schedule; the calling
//! thread collects results, applies the SPRT in pair order, writes chunks
//! and reports progress. What is logged depends only on the experiment and
//! its seed: never on the thread count, the timing, or whether the run was
//! interrupted and resumed.
//!
//! A study under an adaptive design (sequential equivalence, value scale)
//! runs in *stages*
//! ([`run_stages`]): a [`StagePlanner`] (the design, which lives in the
//! analysis crate) reads the pair results logged so far and names the next
//! stage's pairs; the stage is played in parallel to its end, and the next
//! is planned from the log again. Since a stage's schedule depends only on
//! logged results of the stages before it, one stage can be split into
//! shards played by separate processes (`--stage K --shard I/N`), and a
//! resumed run plays exactly the missing pairs of the same stage.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use thiserror::Error;

use crate::experiment::{Experiment, ExperimentError};
use crate::files::create_output_dir;
use crate::game::{PlayedGame, play_pair};
use crate::log::{ChunkWriter, GameRecord, LogError, Manifest, SprtAccepted, read_games};
use crate::progress::Progress;
pub use crate::summary::MatchupSummary;
use pocketlab_stats::sprt::SprtDecision;

/// Each matchup's pair results in pair order: `scores[m][p]` is army A's
/// half points (0..=4) over the two games of pair `p`, `None` while the
/// pair is not logged whole.
pub type PairScores = Vec<Vec<Option<u8>>>;

/// The pairs one stage of a study plays: `from..to` of each listed
/// matchup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StagePairs {
    /// 1-based.
    pub number: usize,
    /// The pairs of each matchup the stage plays (matchups it leaves out
    /// play none).
    pub ranges: Vec<StageRange>,
}

/// Pairs `from..to` of one matchup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageRange {
    /// Index into [`Experiment::matchups`].
    pub matchup: usize,
    /// The first pair played (pair indices from 0).
    pub from: u64,
    /// One past the last pair played.
    pub to: u64,
}

impl StagePairs {
    /// The same pairs `from..to` of every matchup listed.
    pub fn uniform(number: usize, from: u64, to: u64, matchups: &[usize]) -> Self {
        StagePairs {
            number,
            ranges: matchups
                .iter()
                .map(|&matchup| StageRange { matchup, from, to })
                .collect(),
        }
    }

    /// Every pair of the stage, as (matchup, pair), pair by pair: the
    /// stage's first pairs of every matchup come first, so a stage split
    /// between shards or cut short by an interruption leaves every matchup
    /// about equally played.
    fn tasks(&self) -> Vec<(usize, u64)> {
        let mut tasks: Vec<(usize, u64)> = self
            .ranges
            .iter()
            .flat_map(|r| (r.from..r.to).map(move |p| (r.matchup, p)))
            .collect();
        tasks.sort_by_key(|&(m, p)| (p, m));
        tasks
    }
}

/// An adaptive design as the runner sees it: from the results logged so
/// far, the stage to play next (the first incomplete one), or `None` when
/// the study is over. It must depend on nothing but the results, so every
/// process asking gets the same answer; an error (the log holds pairs the
/// design would not have played) stops the run.
pub trait StagePlanner: Sync {
    /// The stage to play next given every matchup's pair results so far;
    /// `Ok(None)` when the study is over, `Err` with the reason when the log
    /// holds pairs the design would not have played.
    fn next_stage(&self, scores: &PairScores) -> Result<Option<StagePairs>, String>;
}

/// Which part of the schedule this process plays: pairs with `pair % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u32,
    /// The number of shards the schedule is split into (at least 1).
    pub count: u32,
}

impl Shard {
    /// The whole schedule in one process (`0/1`).
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether this shard plays pair `pair` (of any matchup).
    pub fn owns(self, pair: u64) -> bool {
        pair % u64::from(self.count) == u64::from(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not I/N (e.g. 0/4)"))?;
        let index: u32 = i
            .parse()
            .map_err(|_| format!("'{i}' is not a shard index"))?;
        let count: u32 = n
            .parse()
            .map_err(|_| format!("'{n}' is not a shard count"))?;
        if count == 0 || index >= count {
            return Err(format!(
                "shard {index}/{count}: the index must be below the count"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// How and where a run plays.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The log directory: created if absent, resumed if it holds a log.
    pub out_dir: PathBuf,
    /// Worker threads playing pairs in parallel (0 counts as 1).
    pub threads: usize,
    /// The part of the schedule this process plays.
    pub shard: Shard,
    /// No progress bar or periodic lines.
    pub quiet: bool,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Each matchup's results over the whole log (resumed and played
    /// games), in the experiment's matchup order.
    pub matchups: Vec<MatchupSummary>,
    /// Games found in the log when the run started.
    pub resumed_games: u64,
    /// Games played by this run.
    pub played_games: u64,
    /// Wall-clock time of the run, seconds.
    pub seconds: f64,
    /// Whether the interrupt flag stopped the run before its schedule
    /// ended (running again resumes it).
    pub interrupted: bool,
    /// For a staged study: the stages played and where the study stands.
    pub stages: Option<StageReport>,
}

/// Why a run stopped or did not start.
#[derive(Debug, Error)]
pub enum RunError {
    /// The log could not be opened, read or written, or it belongs to
    /// another run (its manifest differs, another process holds the shard).
    #[error(transparent)]
    Log(#[from] LogError),
    /// An external engine cannot play as the experiment sets it up.
    #[error(transparent)]
    Engine(#[from] ExperimentError),
    /// The worker thread pool could not be built.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// The threads asked for ([`RunOptions::threads`]).
        threads: usize,
        /// Why the pool failed.
        reason: String,
    },
    /// An experiment with an SPRT stop rule was run with more than one shard.
    #[error(
        "the SPRT stop rule needs the whole schedule in one process; run without --shard, or drop [stop.sprt]"
    )]
    SprtWithShards,
    /// [`run`] was given an experiment under an adaptive design, which
    /// [`run_stages`] plays.
    #[error(
        "this experiment uses an adaptive design (sequential-equivalence or value-scale), which \
         runs in stages planned by the analysis: run it with `pocketlab run`"
    )]
    NeedsStages,
    /// [`run_stages`] was given an experiment without an adaptive design.
    #[error(
        "only an experiment with design = \"sequential-equivalence\" or \"value-scale\" runs in \
         stages"
    )]
    NotStaged,
    /// [`run_stages`] was given more than one shard but no stage to play.
    #[error(
        "a sequential design split into shards plays one stage at a time, each planned from the \
         whole log of the stages before it: add --stage K (see configs/cluster/slurm-stages.sh)"
    )]
    ShardsNeedStage,
    /// [`run_stages`] was asked for stage 0.
    #[error("stages are numbered from 1")]
    StageNumber,
    /// The stage asked for cannot start: an earlier stage is not complete
    /// in the log.
    #[error(
        "stage {wanted} cannot start: stage {incomplete} is not complete ({missing} pairs missing \
         from the log). Run stage {incomplete} first, every shard of it (a shard still running, \
         or failed, leaves it incomplete)"
    )]
    StageNotReady {
        /// The stage asked for.
        wanted: usize,
        /// The first stage not complete.
        incomplete: usize,
        /// Pairs of `incomplete` missing from the log, over every shard.
        missing: u64,
    },
    /// The planner refused the log: it holds pairs the design would not have
    /// played (the planner's reason).
    #[error("the log does not follow the design: {0}")]
    Design(String),
    /// The engines' hash tables would exceed the memory budget
    /// ([`check_memory`]).
    #[error(
        "the engines' hash tables would need up to {needed_mb} MiB ({per_game_mb} MiB per game: \
         both players' hash_mb; times {threads} worker threads), more than the memory budget of \
         {budget_mb} MiB. To fit: lower hash_mb in [engine] (and armies' engine tables), use \
         fewer --threads, or raise the budget with --max-memory-mb {needed_mb}"
    )]
    Memory {
        /// MiB the hash tables would take at most, over every worker.
        needed_mb: u64,
        /// MiB of the hungriest matchup's game: both players' hash tables.
        per_game_mb: u64,
        /// Worker threads.
        threads: usize,
        /// The budget, MiB.
        budget_mb: u64,
    },
    /// The log holds a game whose matchup index the experiment does not have,
    /// or has under another name.
    #[error(
        "{file}: game {game} names matchup {matchup}, which experiment '{experiment}' {reason}"
    )]
    ForeignGame {
        /// The log directory.
        file: String,
        /// The game's `game_id`.
        game: u64,
        /// The matchup name the game logs.
        matchup: String,
        /// The experiment's name.
        experiment: String,
        /// How the experiment differs: `does not have` (no matchup at the
        /// game's index) or `has under another name`.
        reason: String,
    },
}

/// The default memory budget for the engines' hash tables (MiB): what the
/// shipped cluster examples give a task.
pub const DEFAULT_MEMORY_BUDGET_MB: u64 = 2048;

/// Refuse a run whose hash tables (both engines of a game, times the
/// worker threads) would exceed `budget_mb`, before anything is allocated.
pub fn check_memory(exp: &Experiment, threads: usize, budget_mb: u64) -> Result<(), RunError> {
    let needed_mb = exp.hash_memory_mb(threads);
    if needed_mb > budget_mb {
        return Err(RunError::Memory {
            needed_mb,
            per_game_mb: exp.hash_memory_mb(1),
            threads,
            budget_mb,
        });
    }
    Ok(())
}

/// Per-matchup state of the coordinator.
struct MatchupState {
    summary: MatchupSummary,
    /// Pairs done (logged or released), for the in-order SPRT.
    next_pair: u64,
    waiting: BTreeMap<u64, [PlayedGame; 2]>,
    stopped: bool,
    /// A's half points per whole pair, by pair index.
    scores: Vec<Option<u8>>,
}

impl MatchupState {
    /// Counts a finished pair (both games) into the matchup's summary.
    fn count(&mut self, pair: u64, games: &[&GameRecord], a_name: &str) {
        for g in games {
            self.summary.add(g, a_name);
        }
        if let Some(half_points) = pair_half_points(games, a_name) {
            // `pair_half_points` gives 0..=4 only.
            let _ = self.summary.pairs.add_half_points(half_points);
            let p = pair as usize;
            if self.scores.len() <= p {
                self.scores.resize(p + 1, None);
            }
            self.scores[p] = Some(half_points);
        }
    }
}

/// One run of the runner over a log directory: the shard's writer (and
/// its lock), what the log held, what has been played since.
struct Session<'a> {
    exp: &'a Experiment,
    opts: &'a RunOptions,
    writer: ChunkWriter,
    states: Vec<MatchupState>,
    /// Pairs with a game in the log (or played by this run).
    done: BTreeSet<(u32, u64)>,
    resumed_games: u64,
    played_games: u64,
    started: Instant,
}

impl<'a> Session<'a> {
    /// Check the manifest (or write it), take the shard's lock, and read
    /// back what the log already holds.
    fn open(exp: &'a Experiment, opts: &'a RunOptions) -> Result<Self, RunError> {
        let started = Instant::now();
        let dir = &opts.out_dir;
        create_output_dir(dir).map_err(|e| LogError::io(dir, &e))?;
        Manifest::for_experiment(exp).write_or_check(dir, &exp.source_text)?;
        // Held until the run ends: no other process writes this shard meanwhile.
        let writer = ChunkWriter::open(dir, opts.shard.index, opts.shard.count)?;
        let existing = read_games(dir)?;
        let mut states: Vec<MatchupState> = exp
            .matchups
            .iter()
            .map(|m| MatchupState {
                summary: MatchupSummary {
                    name: m.name.clone(),
                    ..MatchupSummary::default()
                },
                next_pair: 0,
                waiting: BTreeMap::new(),
                stopped: false,
                scores: Vec::new(),
            })
            .collect();
        let mut done: BTreeSet<(u32, u64)> = BTreeSet::new();
        let mut by_pair: HashMap<(u32, u64), Vec<&GameRecord>> = HashMap::new();
        for g in &existing {
            by_pair
                .entry((g.matchup_index, g.pair_index))
                .or_default()
                .push(g);
        }
        let mut keys: Vec<_> = by_pair.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            let games = &by_pair[&key];
            let (m, pair) = (key.0 as usize, key.1);
            let foreign = |reason: &str| RunError::ForeignGame {
                file: dir.display().to_string(),
                game: games[0].game_id,
                matchup: games[0].matchup.clone(),
                experiment: exp.name.clone(),
                reason: reason.to_owned(),
            };
            let Some(state) = states.get_mut(m) else {
                return Err(foreign("does not have"));
            };
            if games.iter().any(|g| g.matchup != exp.matchups[m].name) {
                return Err(foreign("has under another name"));
            }
            let a = &exp.armies[exp.matchups[m].a].name;
            state.count(pair, games, a);
            state.next_pair = state.next_pair.max(pair + 1);
            if let Some(g) = games.iter().find(|g| g.sprt_decision.is_some()) {
                state.stopped = true;
                state.summary.sprt_decision = g.sprt_decision;
            }
            state.summary.sprt_llr = games
                .iter()
                .find_map(|g| g.sprt_llr)
                .or(state.summary.sprt_llr);
            done.insert(key);
        }
        Ok(Session {
            exp,
            opts,
            writer,
            states,
            done,
            resumed_games: existing.len() as u64,
            played_games: 0,
            started,
        })
    }

    /// Every matchup's pair results so far.
    fn scores(&self) -> PairScores {
        self.states.iter().map(|s| s.scores.clone()).collect()
    }

    /// Play the tasks `task(0)`, `task(1)`, … (until `None`) on the worker
    /// pool, skipping pairs already done and matchups stopped; `games` is
    /// the most this may play (for progress). Chunks are written as they
    /// fill and at the end.
    fn play(
        &mut self,
        task: &(dyn Fn(u64) -> Option<(usize, u64)> + Sync),
        games: u64,
        label: Option<String>,
        interrupt: &Arc<AtomicBool>,
    ) -> Result<(), RunError> {
        let exp = self.exp;
        let threads = self.opts.threads.max(1);
        let stopped_flags: Vec<AtomicBool> = self
            .states
            .iter()
            .map(|s| AtomicBool::new(s.stopped))
            .collect();
        let mut progress = Progress::new(games, self.opts.quiet);
        let staged = label.is_some();
        if let Some(label) = label {
            progress.set_label(label);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("pocketlab-worker-{i}"))
            .build()
            .map_err(|e| RunError::Threads {
                threads: self.opts.threads,
                reason: e.to_string(),
            })?;
        let next_task = AtomicU64::new(0);
        let (sender, receiver) = mpsc::channel::<(usize, u64, [PlayedGame; 2])>();
        let mut pending_games: Vec<PlayedGame> = Vec::new();
        let mut failure: Option<RunError> = None;
        let (states, done, writer) = (&mut self.states, &mut self.done, &mut self.writer);
        let mut played_games = 0u64;
        pool.in_place_scope(|scope| {
            for _ in 0..threads {
                let sender = sender.clone();
                let (done, next_task, stopped_flags) = (&*done, &next_task, &stopped_flags);
                scope.spawn(move |_| {
                    while !interrupt.load(Ordering::Relaxed) {
                        let i = next_task.fetch_add(1, Ordering::Relaxed);
                        let Some((m, pair)) = task(i) else {
                            break;
                        };
                        if stopped_flags[m].load(Ordering::Relaxed)
                            || done.contains(&(m as u32, pair))
                        {
                            continue;
                        }
                        match play_pair(exp, m, pair, interrupt) {
                            Some(games) => {
                                if sender.send((m, pair, games)).is_err() {
                                    break;
                                }
                            }
                            None => break,
                        }
                    }
                });
            }
            drop(sender);
            for (m, pair, games) in receiver.iter() {
                if failure.is_some() {
                    continue;
                }
                let released = release(exp, &mut states[m], m, pair, games, &stopped_flags[m]);
                for _ in &released {
                    progress.game_done(&states[m].summary);
                }
                played_games += released.len() as u64;
                pending_games.extend(released);
                let full = pending_games.len() >= exp.log.chunk_games;
                if let Err(e) = if full {
                    flush(writer, &mut pending_games)
                } else {
                    Ok(())
                } {
                    failure = Some(e.into());
                    interrupt.store(true, Ordering::Relaxed);
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        flush(writer, &mut pending_games)?;
        // Only now are they in the log: a later stage may be planned on them.
        for (m, s) in states.iter().enumerate() {
            for (p, score) in s.scores.iter().enumerate() {
                if score.is_some() {
                    done.insert((m as u32, p as u64));
                }
            }
        }
        self.played_games += played_games;
        if staged {
            progress.clear();
        } else {
            let summaries: Vec<MatchupSummary> =
                self.states.iter().map(|s| s.summary.clone()).collect();
            progress.finish(&summaries);
        }
        Ok(())
    }

    fn finish(self, interrupted: bool, stages: Option<StageReport>) -> RunSummary {
        RunSummary {
            matchups: self.states.into_iter().map(|s| s.summary).collect(),
            resumed_games: self.resumed_games,
            played_games: self.played_games,
            seconds: self.started.elapsed().as_secs_f64(),
            interrupted,
            stages,
        }
    }
}

/// Play the experiment, resuming from what `opts.out_dir` already holds.
/// A study under the sequential-equivalence design runs with
/// [`run_stages`] instead.
pub fn run(
    exp: &Experiment,
    opts: &RunOptions,
    interrupt: &Arc<AtomicBool>,
) -> Result<RunSummary, RunError> {
    if exp.stop.staged() {
        return Err(RunError::NeedsStages);
    }
    if exp.stop.sprt().is_some() && opts.shard.count > 1 {
        return Err(RunError::SprtWithShards);
    }
    // External engines are started and checked before anything is written.
    exp.check_engines()?;
    let mut session = Session::open(exp, opts)?;
    // The schedule: pair by pair, matchup by matchup, this shard's part, not
    // yet done. Computed from the task's index rather than stored, so a
    // large schedule costs no memory.
    let schedule = Schedule {
        matchups: exp.matchups.len() as u64,
        shard: opts.shard,
        pairs: exp.stop.pairs,
    };
    let owned_pairs = schedule.len() / schedule.matchups;
    let remaining: u64 = (0..exp.matchups.len())
        .filter(|&m| !session.states[m].stopped)
        .map(|m| {
            let logged = session
                .done
                .iter()
                .filter(|&&(dm, p)| dm as usize == m && opts.shard.owns(p) && p < exp.stop.pairs)
                .count() as u64;
            owned_pairs - logged
        })
        .sum();
    session.play(&|t| schedule.task(t), remaining * 2, None, interrupt)?;
    Ok(session.finish(interrupt.load(Ordering::Relaxed), None))
}

/// What a staged run did, and where the study stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageReport {
    /// Stages this process played (its shard's part of each).
    pub played: Vec<usize>,
    /// The stage to play next: `None` when the study is over. Equal to the
    /// last played stage when other shards (or an interrupted run) still
    /// owe pairs of it.
    pub next: Option<usize>,
    /// Pairs of `next` still missing from the log, for every shard.
    pub missing_pairs: u64,
}

/// Play a study under an adaptive design, stage by stage, resuming from
/// the log. `stage`: play only that stage (1-based) of this shard, after
/// checking every stage before it is complete in the log; `None`: play
/// every stage to the end of the study (one process: no shards).
pub fn run_stages(
    exp: &Experiment,
    opts: &RunOptions,
    planner: &dyn StagePlanner,
    stage: Option<usize>,
    interrupt: &Arc<AtomicBool>,
) -> Result<RunSummary, RunError> {
    if !exp.stop.staged() {
        return Err(RunError::NotStaged);
    }
    if stage.is_none() && opts.shard.count > 1 {
        return Err(RunError::ShardsNeedStage);
    }
    if stage == Some(0) {
        return Err(RunError::StageNumber);
    }
    let mut session = Session::open(exp, opts)?;
    let mut played = Vec::new();
    loop {
        let scores = session.scores();
        let next = planner.next_stage(&scores).map_err(RunError::Design)?;
        let Some(next) = next else {
            return Ok(session.finish(
                false,
                Some(StageReport {
                    played,
                    next: None,
                    missing_pairs: 0,
                }),
            ));
        };
        let stage_tasks = next.tasks();
        let logged = |scores: &PairScores, (m, p): (usize, u64)| {
            scores
                .get(m)
                .and_then(|s| s.get(p as usize))
                .copied()
                .flatten()
                .is_some()
        };
        let missing = |scores: &PairScores| -> u64 {
            stage_tasks.iter().filter(|&&t| !logged(scores, t)).count() as u64
        };
        let stop_here = match stage {
            Some(want) if next.number > want || played.contains(&want) => true,
            Some(want) if next.number < want => {
                return Err(RunError::StageNotReady {
                    wanted: want,
                    incomplete: next.number,
                    missing: missing(&scores),
                });
            }
            _ => interrupt.load(Ordering::Relaxed) || played.contains(&next.number),
        };
        if stop_here {
            let missing_pairs = missing(&scores);
            return Ok(session.finish(
                interrupt.load(Ordering::Relaxed),
                Some(StageReport {
                    played,
                    next: Some(next.number),
                    missing_pairs,
                }),
            ));
        }
        let shard = opts.shard;
        let tasks: Vec<(usize, u64)> = stage_tasks
            .iter()
            .copied()
            .filter(|&(m, p)| shard.owns(p) && !logged(&scores, (m, p)))
            .collect();
        let label = format!("stage {}", next.number);
        session.play(
            &|t| tasks.get(t as usize).copied(),
            2 * tasks.len() as u64,
            Some(label),
            interrupt,
        )?;
        played.push(next.number);
    }
}

/// The pairs a shard plays, in order: task `t` is matchup `t % M` of the
/// shard's `t / M`-th pair.
struct Schedule {
    matchups: u64,
    shard: Shard,
    pairs: u64,
}

impl Schedule {
    fn len(&self) -> u64 {
        let owned = (self.pairs + u64::from(self.shard.count) - 1 - u64::from(self.shard.index))
            / u64::from(self.shard.count);
        owned * self.matchups
    }

    fn task(&self, t: u64) -> Option<(usize, u64)> {
        if t >= self.len() {
            return None;
        }
        let pair = u64::from(self.shard.index) + (t / self.matchups) * u64::from(self.shard.count);
        Some(((t % self.matchups) as usize, pair))
    }
}

fn flush(writer: &mut ChunkWriter, pending: &mut Vec<PlayedGame>) -> Result<(), LogError> {
    if pending.is_empty() {
        return Ok(());
    }
    let games: Vec<GameRecord> = pending.iter().map(|g| g.record.clone()).collect();
    let moves: Vec<_> = pending
        .iter()
        .flat_map(|g| g.moves.iter().cloned())
        .collect();
    writer.write(&games, &moves)?;
    pending.clear();
    Ok(())
}

/// Each matchup's pair results in a log's games (see [`PairScores`]);
/// games of matchups the experiment does not have are left out.
pub fn pair_scores(exp: &Experiment, games: &[GameRecord]) -> PairScores {
    let mut by_pair: BTreeMap<(u32, u64), Vec<&GameRecord>> = BTreeMap::new();
    for g in games {
        by_pair
            .entry((g.matchup_index, g.pair_index))
            .or_default()
            .push(g);
    }
    let mut scores: PairScores = vec![Vec::new(); exp.matchups.len()];
    for ((m, p), games) in by_pair {
        let Some(matchup) = exp.matchups.get(m as usize) else {
            continue;
        };
        let a = &exp.armies[matchup.a].name;
        if let Some(half_points) = pair_half_points(&games, a) {
            let list = &mut scores[m as usize];
            if list.len() <= p as usize {
                list.resize(p as usize + 1, None);
            }
            list[p as usize] = Some(half_points);
        }
    }
    scores
}

/// A's half points over a whole pair (both games), or `None` for a pair
/// with a game missing.
fn pair_half_points(games: &[&GameRecord], a_name: &str) -> Option<u8> {
    if games.len() != 2 {
        return None;
    }
    let half_points: f64 = games
        .iter()
        .map(|g| {
            if g.white == a_name {
                g.white_score
            } else {
                1.0 - g.white_score
            }
        })
        .sum::<f64>()
        * 2.0;
    Some(half_points.round().clamp(0.0, 4.0) as u8)
}

/// Accept a finished pair; return the games that may be logged now. With an
/// SPRT, pairs are released strictly in pair order and the test is applied
/// after each, so where a matchup stops never depends on timing.
fn release(
    exp: &Experiment,
    state: &mut MatchupState,
    m: usize,
    pair: u64,
    games: [PlayedGame; 2],
    stopped_flag: &AtomicBool,
) -> Vec<PlayedGame> {
    let a_name = exp.armies[exp.matchups[m].a].name.clone();
    let Some(sprt) = exp.stop.sprt() else {
        state.count(pair, &[&games[0].record, &games[1].record], &a_name);
        return games.into();
    };
    if state.stopped {
        return Vec::new();
    }
    state.waiting.insert(pair, games);
    let mut out = Vec::new();
    while let Some(mut games) = state.waiting.remove(&state.next_pair) {
        let next = state.next_pair;
        state.count(next, &[&games[0].record, &games[1].record], &a_name);
        let llr = sprt.llr(&state.summary.pairs);
        let decision = match sprt.decide(llr) {
            SprtDecision::AcceptH0 => Some(SprtAccepted::H0),
            SprtDecision::AcceptH1 => Some(SprtAccepted::H1),
            SprtDecision::Continue => None,
        };
        for g in &mut games {
            g.record.sprt_llr = Some(llr);
            g.record.sprt_decision = decision;
        }
        state.summary.sprt_llr = Some(llr);
        state.next_pair += 1;
        out.extend(games);
        if decision.is_some() {
            state.summary.sprt_decision = decision;
            state.stopped = true;
            stopped_flag.store(true, Ordering::Relaxed);
            state.waiting.clear();
            break;
        }
    }
    out
}
