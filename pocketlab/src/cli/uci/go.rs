//! The arguments of `go` and the time each move gets.

use std::time::Duration;

use pocketlab_core::Color;
use pocketlab_core::engine::SearchLimits;

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct GoRequest {
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) movetime: Option<u64>,
    /// Remaining time and increment in ms, by colour (white, black).
    pub(super) time: [Option<u64>; 2],
    pub(super) inc: [Option<u64>; 2],
    pub(super) movestogo: Option<u32>,
    pub(super) infinite: bool,
}

impl GoRequest {
    /// Parse what can be parsed; the errors name what was ignored.
    pub(super) fn parse(args: &[&str]) -> (GoRequest, Vec<String>) {
        let mut request = GoRequest::default();
        let mut errors = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let value = args.get(i + 1).copied();
            let takes_value = GO_VALUE_KEYWORDS.contains(&key);
            if !takes_value {
                match key {
                    "infinite" => request.infinite = true,
                    "ponder" => errors.push("'ponder' is not supported; ignored".into()),
                    "searchmoves" => {
                        errors.push("'searchmoves' is not supported; ignored".into());
                        // Skip the move list up to the next keyword.
                        while args.get(i + 1).is_some_and(|t| !is_go_keyword(t)) {
                            i += 1;
                        }
                    }
                    _ => errors.push(format!("unknown argument '{key}' ignored")),
                }
                i += 1;
                continue;
            }
            let Some(value) = value else {
                errors.push(format!("'{key}' needs a value"));
                break;
            };
            if let Err(e) = request.set(key, value) {
                errors.push(format!("{key}: {e}; ignored"));
            }
            i += 2;
        }
        (request, errors)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        // Clocks may be negative when a GUI lets time run out: treat as 0.
        let millis = || {
            value
                .parse::<i64>()
                .map(|v| v.max(0) as u64)
                .map_err(|_| format!("'{value}' is not a number of milliseconds"))
        };
        let count = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("'{value}' is not a whole number"))
        };
        let small =
            || count().and_then(|n| u32::try_from(n).map_err(|_| format!("{n} is too large")));
        match key {
            "depth" => self.depth = Some(small()?),
            "nodes" => self.nodes = Some(count()?),
            "movetime" => self.movetime = Some(millis()?),
            "wtime" => self.time[0] = Some(millis()?),
            "btime" => self.time[1] = Some(millis()?),
            "winc" => self.inc[0] = Some(millis()?),
            "binc" => self.inc[1] = Some(millis()?),
            "movestogo" => self.movestogo = Some(small()?),
            "mate" => return Err("mate search is not supported".into()),
            _ => unreachable!("not a go keyword: {key}"),
        }
        Ok(())
    }

    /// `go infinite`, or a bare `go` with no limit: search until `stop`.
    pub(super) fn is_infinite(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.time.iter().all(Option::is_none))
    }

    /// Limits for the side to move (without the stop flag).
    pub(super) fn limits(&self, side: Color) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: self.depth,
            nodes: self.nodes,
            ..SearchLimits::default()
        };
        if self.infinite {
            return limits;
        }
        let index = usize::from(side == Color::Black);
        let clock =
            self.time[index].map(|t| clock_budget(t, self.inc[index].unwrap_or(0), self.movestogo));
        let fixed = self.movetime.map(Duration::from_millis);
        limits.movetime = match (clock, fixed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        limits
    }
}

/// `go` arguments followed by a value.
const GO_VALUE_KEYWORDS: [&str; 9] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
];

pub(super) fn is_go_keyword(token: &str) -> bool {
    GO_VALUE_KEYWORDS.contains(&token) || matches!(token, "infinite" | "ponder" | "searchmoves")
}

/// Time for one move: `remaining / movestogo (30 if unknown) + 0.8 · inc`,
/// capped at half the remaining time so one move never loses on time, and
/// at least 1 ms.
pub(super) fn clock_budget(remaining_ms: u64, inc_ms: u64, movestogo: Option<u32>) -> Duration {
    let moves = u64::from(movestogo.filter(|&m| m > 0).unwrap_or(30));
    let budget = remaining_ms / moves + inc_ms * 4 / 5;
    Duration::from_millis(budget.min(remaining_ms / 2).max(1))
}
