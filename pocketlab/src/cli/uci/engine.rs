//! The engine thread: it owns a copy of the session's variant, builds the
//! engine of the variant's kind from it, and runs the session's requests in
//! order (searches and new-game resets), so the engine keeps its
//! transposition table between searches and no variant is ever leaked to
//! give it a `'static` life. A variant or option change retires the thread
//! and starts another.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

use pocketlab_core::Variant;
use pocketlab_core::engine::{EvalParams, MATE, SearchLimits, SearchOptions};
use pocketlab_core::kind::{AnyEngine, GameKind};

use super::position::{PositionSpec, info_line, move_text, uci_score};
use super::{Sink, say};

/// Search threads recurse up to `MAX_PLY` deep with positions on the stack.
const SEARCH_STACK_BYTES: usize = 64 << 20;

/// One search, with the handles the session keeps to stop and await it.
pub(super) struct SearchJob {
    pub(super) position: PositionSpec,
    pub(super) limits: SearchLimits,
    pub(super) infinite: bool,
    pub(super) stop: Arc<AtomicBool>,
    /// Set just before `bestmove` is written: joining then cannot block for long.
    pub(super) reported: Arc<AtomicBool>,
    pub(super) out: Sink,
    /// Dropped (or sent on) when `bestmove` is out.
    pub(super) done: Sender<()>,
}

enum Request {
    Search(SearchJob),
    NewGame,
}

/// The engine thread and the channel to it.
#[derive(Debug)]
pub(super) struct EngineWorker {
    requests: Sender<Request>,
    handle: JoinHandle<()>,
}

impl EngineWorker {
    /// Start an engine for `variant` with these settings.
    pub(super) fn spawn(
        variant: Arc<Variant>,
        params: EvalParams,
        options: SearchOptions,
    ) -> std::io::Result<EngineWorker> {
        let (requests, inbox) = mpsc::channel();
        let handle = thread::Builder::new()
            .name("uci-engine".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || serve(&variant, &params, options, &inbox))?;
        Ok(EngineWorker { requests, handle })
    }

    /// Queue a search; the job comes back if the thread is gone.
    pub(super) fn search(&self, job: SearchJob) -> Result<(), Box<SearchJob>> {
        self.requests
            .send(Request::Search(job))
            .map_err(|mpsc::SendError(request)| match request {
                Request::Search(job) => Box::new(job),
                Request::NewGame => unreachable!("a search was sent"),
            })
    }

    /// Forget earlier positions once the queued work is done.
    pub(super) fn new_game(&self) {
        // A thread that is gone has nothing to forget.
        let _ = self.requests.send(Request::NewGame);
    }

    /// Wake the thread if it waits for `stop` after an infinite search.
    pub(super) fn wake(&self) {
        self.handle.thread().unpark();
    }
}

fn serve(
    variant: &Variant,
    params: &EvalParams,
    options: SearchOptions,
    inbox: &Receiver<Request>,
) {
    let kind = GameKind::of(variant);
    let asked = options.hash_megabytes;
    let mut engine = kind.engine(params, options);
    // Said once, before the first search's lines.
    let got = engine.hash_megabytes();
    let mut shortfall = engine.hash_shrunk().then(|| {
        format!(
            "info string Hash {asked} MB does not fit in the memory this process may use: \
                 the table has {got} MB"
        )
    });
    for request in inbox {
        match request {
            Request::NewGame => engine.new_game(),
            Request::Search(job) => {
                if let Some(line) = shortfall.take() {
                    say(&job.out, &line);
                }
                job.run(&kind, &mut engine);
            }
        }
    }
}

impl SearchJob {
    /// Search and answer: `info` lines, a last `info` with the true totals,
    /// and exactly one `bestmove`.
    fn run<'k>(self, kind: &'k GameKind<'_>, engine: &mut AnyEngine<'k>) {
        let (best, score) = match self.position.replay(kind) {
            Ok((pos, history)) => {
                let result = engine.search_with_info(
                    &pos,
                    &history,
                    &self.limits,
                    Some(&mut |info| {
                        // A first iteration cut short by `stop` may carry the
                        // search window's bound (beyond any mate) as its score:
                        // that is not a result, so no `info` line.
                        if info.score.abs() <= MATE {
                            let pv = pos.line_text(&info.pv);
                            let line = info_line(
                                info.depth,
                                info.seldepth,
                                Some(info.score),
                                info.nodes,
                                info.elapsed,
                                &pv,
                            );
                            say(&self.out, &line);
                        }
                    }),
                );
                if result.best_move.is_some() {
                    // The totals of the whole search, the last partial
                    // iteration included, which no iteration line shows.
                    let completed = result.depth > 0 && result.score.abs() <= MATE;
                    let pv = if completed {
                        pos.line_text(&result.pv)
                    } else {
                        Vec::new()
                    };
                    say(
                        &self.out,
                        &info_line(
                            result.depth,
                            result.seldepth,
                            completed.then_some(result.score),
                            result.nodes,
                            result.elapsed,
                            &pv,
                        ),
                    );
                }
                (move_text(&pos, result.best_move), result.score)
            }
            Err(reason) => {
                // The session checked the position; a failure here is ours.
                say(&self.out, &format!("info string error: position: {reason}"));
                ("0000".to_owned(), 0)
            }
        };
        // UCI: in infinite mode `bestmove` waits for `stop`, even after a mate is found.
        while self.infinite && !self.stop.load(Ordering::Acquire) {
            thread::park();
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
        let _ = self.done.send(());
    }
}
