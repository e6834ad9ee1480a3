//! Progress for people: an indicatif bar on a terminal, plain periodic
//! lines otherwise (indicatif hides its bar when output is not a terminal,
//! and overnight runs usually log to a file).

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::summary::MatchupSummary;

const PLAIN_LINE_EVERY: Duration = Duration::from_secs(30);

pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    total: u64,
    done: u64,
    started: Instant,
    last_line: Instant,
    /// What is being played (`stage 3`), before each line.
    label: Option<String>,
}

impl Progress {
    pub(crate) fn new(total: u64, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{prefix} {elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec}, ETA {eta}  {msg}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        });
        Progress {
            bar,
            plain: !quiet && !terminal,
            total,
            done: 0,
            started: Instant::now(),
            last_line: Instant::now(),
            label: None,
        }
    }

    /// Clears the bar (a stage is over; the study goes on).
    pub(crate) fn clear(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    pub(crate) fn set_label(&mut self, label: String) {
        if let Some(bar) = &self.bar {
            bar.set_prefix(label.clone());
        }
        self.label = Some(label);
    }

    pub(crate) fn game_done(&mut self, matchup: &MatchupSummary) {
        self.done += 1;
        let (score, margin) = matchup.score();
        let msg = format!(
            "{}: +{} ={} -{} score {:.1}% ± {:.1}",
            matchup.name,
            matchup.a_wins,
            matchup.draws,
            matchup.b_wins,
            100.0 * score,
            100.0 * margin
        );
        if let Some(bar) = &self.bar {
            bar.set_message(msg);
            bar.inc(1);
        } else if self.plain && self.last_line.elapsed() >= PLAIN_LINE_EVERY {
            self.last_line = Instant::now();
            let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
            let eta = (self.total.saturating_sub(self.done)) as f64 / rate.max(1e-9);
            eprintln!(
                "{}{}/{} games, {rate:.2} games/s, ETA {:.0} s; {msg}",
                self.label
                    .as_ref()
                    .map(|l| format!("{l}: "))
                    .unwrap_or_default(),
                self.done,
                self.total,
                eta
            );
        }
    }

    /// Clears the bar and prints each matchup's result.
    pub(crate) fn finish(&mut self, matchups: &[MatchupSummary]) {
        self.clear();
        if self.bar.is_some() || self.plain {
            for m in matchups {
                let (score, margin) = m.score();
                eprintln!(
                    "{:<28} {:>5} games  +{} ={} -{}  A score {:.1}% ± {:.1}{}",
                    m.name,
                    m.games(),
                    m.a_wins,
                    m.draws,
                    m.b_wins,
                    100.0 * score,
                    100.0 * margin,
                    m.sprt_decision
                        .map(|d| format!("  SPRT {d}"))
                        .unwrap_or_default()
                );
            }
        }
    }
}
