//! Error rates observed on simulated data with a known truth, held against
//! their nominal level.
//!
//! A simulation that says "false equivalence in 6.1% of 1,000 runs" does not
//! show a rate of at most 5%, nor one above it, until the binomial noise of
//! the runs is accounted for. [`ObservedRate::exceeds`] is the one-sided
//! exact binomial test of "the true rate is at most the nominal level": a
//! check built on it fails when the simulation shows the rate above nominal
//! with the stated confidence, and the number of runs sets how small an
//! excess it can see ([`ObservedRate::detectable_excess`]).

use statrs::distribution::{Beta, Binomial, ContinuousCDF, DiscreteCDF};

/// `events` of `runs` simulated runs made the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObservedRate {
    /// Runs that made the error.
    pub events: u64,
    /// Simulated runs in all.
    pub runs: u64,
}

impl ObservedRate {
    /// `events` of `runs`.
    pub fn new(events: u64, runs: u64) -> Self {
        Self { events, runs }
    }

    /// The observed rate (0 without runs).
    pub fn rate(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.events as f64 / self.runs as f64
        }
    }

    /// The one-sided p-value of "the true rate is at most `nominal`":
    /// `P(X ≥ events)` for `X ~ Binomial(runs, nominal)`.
    pub fn p_value_above(&self, nominal: f64) -> f64 {
        if self.events == 0 {
            return 1.0;
        }
        Binomial::new(nominal, self.runs).map_or(0.0, |b| b.sf(self.events - 1))
    }

    /// Whether the runs show the rate above `nominal` with `confidence`
    /// (e.g. 0.99): the p-value of [`Self::p_value_above`] is below
    /// `1 - confidence`.
    pub fn exceeds(&self, nominal: f64, confidence: f64) -> bool {
        self.p_value_above(nominal) < 1.0 - confidence
    }

    /// The Clopper-Pearson one-sided upper bound of the rate at `confidence`.
    pub fn upper_bound(&self, confidence: f64) -> f64 {
        if self.events >= self.runs {
            return 1.0;
        }
        Beta::new(self.events as f64 + 1.0, (self.runs - self.events) as f64)
            .map_or(1.0, |b| b.inverse_cdf(confidence))
    }

    /// The smallest observed rate above `nominal` that [`Self::exceeds`]
    /// flags with these runs: the check's resolution.
    pub fn detectable_excess(runs: u64, nominal: f64, confidence: f64) -> f64 {
        (0..=runs)
            .find(|&k| Self::new(k, runs).exceeds(nominal, confidence))
            .map_or(1.0, |k| k as f64 / runs as f64)
    }

    /// One line for a test's output: "0.0512 (512 of 10000; one-sided 95%
    /// upper bound 0.0548; flagged above 0.05 from 0.0558)".
    pub fn describe(&self, nominal: f64, confidence: f64) -> String {
        format!(
            "{:.4} ({} of {}; one-sided 95% upper bound {:.4}; flagged above {nominal} at {:.0}% from {:.4})",
            self.rate(),
            self.events,
            self.runs,
            self.upper_bound(0.95),
            100.0 * confidence,
            Self::detectable_excess(self.runs, nominal, confidence)
        )
    }

    /// Panics, naming `what`, when the runs show the rate above `nominal`
    /// at 99% confidence; prints the rate either way. The check of every
    /// simulated error rate in the lab's tests.
    #[track_caller]
    pub fn assert_at_most(&self, nominal: f64, what: &str) {
        let line = self.describe(nominal, CONFIDENCE);
        eprintln!("{what}: {line}");
        assert!(
            !self.exceeds(nominal, CONFIDENCE),
            "{what}: the rate is above {nominal} at {:.0}% confidence: {line}",
            100.0 * CONFIDENCE
        );
    }
}

/// The confidence with which a test of an error rate must show it above
/// nominal to fail.
pub const CONFIDENCE: f64 = 0.99;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers() {
        // 5 of 10 at 0.2: P(X ≥ 5) = 0.0328.
        let r = ObservedRate::new(5, 10);
        assert!((r.p_value_above(0.2) - 0.032_793_6).abs() < 1e-6);
        assert!(r.exceeds(0.2, 0.95) && !r.exceeds(0.2, 0.99));
        assert_eq!(ObservedRate::new(0, 10).p_value_above(0.05), 1.0);
        // Clopper-Pearson: 0 of 100, 95% one-sided upper 1 - 0.05^(1/100).
        let u = ObservedRate::new(0, 100).upper_bound(0.95);
        assert!((u - (1.0 - 0.05f64.powf(0.01))).abs() < 1e-9, "{u}");
        assert_eq!(ObservedRate::new(7, 7).upper_bound(0.95), 1.0);
    }

    #[test]
    fn the_check_sees_small_excesses_with_enough_runs() {
        // 10,000 runs at 5%: flagged from about 5.5% on.
        let d = ObservedRate::detectable_excess(10_000, 0.05, CONFIDENCE);
        assert!(d > 0.05 && d < 0.056, "{d}");
        // The old tolerance (α + 2.5 SD at 1,000 runs, 6.7%) is flagged
        // at 10,000 runs.
        assert!(ObservedRate::new(670, 10_000).exceeds(0.05, CONFIDENCE));
        assert!(!ObservedRate::new(500, 10_000).exceeds(0.05, CONFIDENCE));
    }
}
