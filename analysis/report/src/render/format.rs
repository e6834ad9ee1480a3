//! Number and text formatting shared by the HTML, Markdown and plots, so a
//! number reads the same everywhere. Every function accepts any `f64`:
//! NaN and infinities become "n/a" rather than "NaN" or "inf", which a
//! reader would take for a bug.

pub(super) use crate::wording::level_percent;

/// What a number that does not exist reads as.
pub(super) const NA: &str = "n/a";

/// `0.31` with a fixed number of decimals.
pub(super) fn fixed(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{:.*}", decimals, zero_if_rounds_to_zero(x, decimals))
    } else {
        NA.to_owned()
    }
}

/// `+0.31` / `-0.31`: differences always carry their sign.
pub(super) fn signed(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{:+.*}", decimals, zero_if_rounds_to_zero(x, decimals))
    } else {
        NA.to_owned()
    }
}

/// `+0.31 (0.12 to 0.50)`: a signed estimate with its 95% interval.
pub(super) fn estimate(x: f64, interval: (f64, f64), decimals: usize) -> String {
    if !x.is_finite() {
        return NA.to_owned();
    }
    format!("{} ({})", signed(x, decimals), range(interval, decimals))
}

/// `+0.02 (-0.23 to 0.25, 90%)`: an estimate with its interval and the
/// interval's confidence level; `not yet known` where there is none (a
/// size in pawns the pawn unit does not yet resolve).
pub(super) fn estimate_at(x: f64, interval: (f64, f64), decimals: usize, level: f64) -> String {
    if !x.is_finite() {
        return "not yet known".to_owned();
    }
    format!(
        "{} ({}, {})",
        signed(x, decimals),
        range(interval, decimals),
        level_percent(level)
    )
}

/// `3.25 (3.10 to 3.40)`: an unsigned value (a piece value) with its
/// 95% interval.
pub(super) fn value_interval(x: f64, interval: (f64, f64), decimals: usize) -> String {
    if !x.is_finite() {
        return NA.to_owned();
    }
    format!("{} ({})", fixed(x, decimals), range(interval, decimals))
}

/// `0.12 to 0.50`, or "n/a" when either end is missing.
pub(super) fn range((lo, hi): (f64, f64), decimals: usize) -> String {
    if lo.is_finite() && hi.is_finite() {
        format!("{} to {}", fixed(lo, decimals), fixed(hi, decimals))
    } else {
        NA.to_owned()
    }
}

/// A share in 0..=1 as `52.3%`.
pub(super) fn percent(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{}%", fixed(x * 100.0, decimals))
    } else {
        NA.to_owned()
    }
}

/// `52.3% (51.0% to 53.6%)`.
pub(super) fn percent_estimate(x: f64, (lo, hi): (f64, f64)) -> String {
    if !x.is_finite() {
        return NA.to_owned();
    }
    if lo.is_finite() && hi.is_finite() {
        format!(
            "{} ({} to {})",
            percent(x, 1),
            percent(lo, 1),
            percent(hi, 1)
        )
    } else {
        percent(x, 1)
    }
}

/// Whole counts with thousands separators: `12,345`.
pub(super) fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 game` / `2 games`.
pub(super) fn games(n: u64) -> String {
    counted(n, "game", "games")
}

/// A count and its noun in the number that agrees with it: `1 matchup`,
/// `1,200 matchups`.
pub(super) fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", count(n))
    }
}

/// The Elo difference a score stands for (logistic model).
pub(super) fn score_to_elo(score: f64) -> f64 {
    if score > 0.0 && score < 1.0 {
        -400.0 * (1.0 / score - 1.0).log10()
    } else {
        f64::NAN
    }
}

/// Shortens `text` to at most `max_chars` characters, marking the cut with
/// an ellipsis: for names that must leave room for a suffix after them.
pub(super) fn truncate(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    out = out.trim_end().to_owned();
    out.push('…');
    out
}

/// `-0.001` printed with two decimals would read "-0.00": show it as zero.
fn zero_if_rounds_to_zero(x: f64, decimals: usize) -> f64 {
    let half_unit = 0.5 * 10f64.powi(-(decimals.min(15) as i32));
    if x.abs() < half_unit { 0.0 } else { x }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_intended() {
        assert_eq!(estimate(0.31, (0.12, 0.5), 2), "+0.31 (0.12 to 0.50)");
        assert_eq!(estimate(-0.004, (-0.2, 0.1), 2), "+0.00 (-0.20 to 0.10)");
        assert_eq!(estimate(f64::NAN, (0.0, 1.0), 2), "n/a");
        assert_eq!(estimate(1.0, (f64::NEG_INFINITY, 1.0), 1), "+1.0 (n/a)");
        assert_eq!(percent(0.5234, 1), "52.3%");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(count(12), "12");
        assert_eq!(counted(1, "matchup", "matchups"), "1 matchup");
        assert_eq!(counted(0, "matchup", "matchups"), "0 matchups");
        assert_eq!(games(1_200), "1,200 games");
        assert_eq!(truncate("abc def", 5), "abc…");
        assert_eq!(truncate("abc", 5), "abc");
        assert!((score_to_elo(0.75) - 190.85).abs() < 0.01);
    }
}
