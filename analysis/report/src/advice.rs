//! What to change, per class, from its pairs' verdicts: the piece that
//! stands apart, or the order of the pieces, and the pairs still open, as
//! advice a designer can act on. Every statement rests on a verdict of
//! the class; none is made from the ratings alone.

use super::model::{GroupStatus, PairVerdict, VerdictKind, group_status};
use super::wording::capitalised;

/// Which way a piece stands apart from the rest of its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Apart {
    Stronger,
    Weaker,
}

/// The advice for one group: `short` names it (`Class 3`), `players` are
/// its members and `name` gives a member's plain name; `is_class` when the
/// members are the pieces of one value class.
pub(super) fn group_advice(
    short: &str,
    players: &[String],
    pairs: &[PairVerdict],
    name: &dyn Fn(&str) -> String,
    is_class: bool,
) -> String {
    let open = open_pairs(pairs, name);
    match group_status(pairs) {
        GroupStatus::Holds if is_class => format!("{short} holds: nothing to change."),
        GroupStatus::Holds => format!("{short}: no army is stronger; nothing to change."),
        GroupStatus::NotSettled if pairs.is_empty() => {
            format!("{short} is not settled: no pair has been played yet.")
        }
        GroupStatus::NotSettled => format!(
            "{short} is not settled: still open {open}; settle {} before changing the class.",
            if open_count(pairs) == 1 { "it" } else { "them" }
        ),
        GroupStatus::Fails => {
            let fails = if is_class {
                " fails"
            } else {
                ": not all equal"
            };
            let mut text = format!("{short}{fails}: {}", differences(players, pairs, name));
            if open_count(pairs) > 0 {
                text.push_str(&format!(" Still open: {open}."));
            }
            text
        }
    }
}

/// The undecided pairs with what would settle each: `rook and cardinal
/// (about 120 more pairs)`.
fn open_pairs(pairs: &[PairVerdict], name: &dyn Fn(&str) -> String) -> String {
    let open: Vec<String> = pairs
        .iter()
        .filter(|p| p.kind == VerdictKind::Inconclusive)
        .map(|p| {
            let plan = if p.more_calibration_needed {
                "more pawn-odds pairs, to measure the pawn better".to_owned()
            } else if let Some(n) = p.more_pairs_needed {
                format!("about {n} more pairs")
            } else if let Some(how) = &p.sequential {
                how.clone()
            } else {
                "more games".to_owned()
            };
            format!("{} and {} ({plan})", name(&p.a), name(&p.b))
        })
        .collect();
    open.join("; ")
}

fn open_count(pairs: &[PairVerdict]) -> usize {
    pairs
        .iter()
        .filter(|p| p.kind == VerdictKind::Inconclusive)
        .count()
}

/// A class with pairs shown different: the order of its pieces when every
/// pair is different, else the pieces that stand apart from all others,
/// else the strongest and weakest shown; with what to do about them.
fn differences(players: &[String], pairs: &[PairVerdict], name: &dyn Fn(&str) -> String) -> String {
    // (stronger, weaker) for every pair shown different.
    let shown: Vec<(&str, &str)> = pairs
        .iter()
        .filter(|p| p.kind == VerdictKind::Different)
        .map(|p| {
            if p.elo > 0.0 {
                (p.a.as_str(), p.b.as_str())
            } else {
                (p.b.as_str(), p.a.as_str())
            }
        })
        .collect();
    let wins = |x: &str| shown.iter().filter(|(s, _)| *s == x).count();
    let losses = |x: &str| shown.iter().filter(|(_, w)| *w == x).count();
    let members: Vec<&str> = players
        .iter()
        .map(String::as_str)
        .filter(|p| pairs.iter().any(|v| v.a == *p || v.b == *p))
        .collect();
    let k = members.len();
    let list = |xs: &[&str]| join_names(&xs.iter().map(|x| name(x)).collect::<Vec<_>>());

    if let [(strong, weak)] = shown.as_slice()
        && k == 2
    {
        let (strong, weak) = (name(strong), name(weak));
        return format!(
            "{} is the stronger: move {strong} up a class or {weak} down, or change one of them until \
             they are equivalent.",
            capitalised(&strong)
        );
    }
    // Every pair different and no cycle: the class is a ladder.
    let mut by_wins = members.clone();
    by_wins.sort_by_key(|x| std::cmp::Reverse(wins(x)));
    let ladder = k > 1
        && shown.len() == k * (k - 1) / 2
        && by_wins
            .iter()
            .enumerate()
            .all(|(i, x)| wins(x) == k - 1 - i);
    if ladder {
        return format!(
            "no two of its pieces are worth the same; from the strongest: {}; split the class, or change \
             the pieces until pairs of them are equivalent.",
            by_wins
                .iter()
                .map(|x| name(x))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let apart = |x: &str| {
        let others = k - 1;
        if others == 0 {
            None
        } else if wins(x) == others {
            Some(Apart::Stronger)
        } else if losses(x) == others {
            Some(Apart::Weaker)
        } else {
            None
        }
    };
    let mut out = Vec::new();
    let standing: Vec<(&str, Apart)> = members
        .iter()
        .filter_map(|x| apart(x).map(|a| (*x, a)))
        .collect();
    for (x, way) in &standing {
        let others: Vec<&str> = members.iter().copied().filter(|y| y != x).collect();
        let (word, action) = match way {
            Apart::Stronger => ("stronger", "move it up a class, or weaken it"),
            Apart::Weaker => ("weaker", "move it down a class, or strengthen it"),
        };
        out.push(format!(
            "{} stands apart, {word} than each of the others ({}): {action}.",
            capitalised(&name(x)),
            list(&others)
        ));
    }
    if let [(x, _)] = standing.as_slice() {
        let rest: Vec<&PairVerdict> = pairs.iter().filter(|p| p.a != *x && p.b != *x).collect();
        if !rest.is_empty() && rest.iter().all(|p| p.kind.is_equivalent()) {
            let others: Vec<&str> = members.iter().copied().filter(|y| y != x).collect();
            out.push(format!(
                "{} are equivalent and can stay together.",
                capitalised(&list(&others))
            ));
        }
    }
    if standing.is_empty() {
        let strongest: Vec<&str> = members
            .iter()
            .copied()
            .filter(|x| wins(x) > 0 && losses(x) == 0)
            .collect();
        let weakest: Vec<&str> = members
            .iter()
            .copied()
            .filter(|x| losses(x) > 0 && wins(x) == 0)
            .collect();
        let mut parts = Vec::new();
        if !strongest.is_empty() {
            parts.push(format!(
                "stronger than another and weaker than none: {}",
                list(&strongest)
            ));
        }
        if !weakest.is_empty() {
            parts.push(format!(
                "weaker than another and stronger than none: {}",
                list(&weakest)
            ));
        }
        if parts.is_empty() {
            parts.push("its pieces are not all worth the same".to_owned());
        }
        out.push(format!(
            "{}: move the strongest up or the weakest down, or change them.",
            capitalised(&parts.join("; "))
        ));
    }
    out.join(" ")
}

/// `a`, `a and b`, `a, b and c`.
fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::example_verdict;
    use super::*;

    fn name(x: &str) -> String {
        match x {
            "R" => "rook",
            "I" => "nightrider",
            "X" => "super bishop",
            "Q" => "queen",
            other => other,
        }
        .to_owned()
    }

    fn players(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|x| (*x).to_owned()).collect()
    }

    #[test]
    fn the_piece_different_from_all_others_is_named() {
        use VerdictKind::*;
        let pairs = [
            example_verdict("R", "I", -70.0, Different),
            example_verdict("R", "X", -2.0, Equivalent),
            example_verdict("I", "X", 126.0, Different),
        ];
        let said = group_advice("Class 3", &players(&["R", "I", "X"]), &pairs, &name, true);
        assert_eq!(
            said,
            "Class 3 fails: Nightrider stands apart, stronger than each of the others (rook and super \
             bishop): move it up a class, or weaken it. Rook and super bishop are equivalent and can \
             stay together."
        );
        // The weak one of four, the rest still open between themselves.
        let pairs = [
            example_verdict("Q", "R", 90.0, Different),
            example_verdict("I", "R", 80.0, Different),
            example_verdict("X", "R", 85.0, Different),
            example_verdict("Q", "I", 5.0, Equivalent),
            example_verdict("Q", "X", 3.0, Inconclusive),
            example_verdict("I", "X", -1.0, Equivalent),
        ];
        let said = group_advice(
            "Class 5",
            &players(&["Q", "R", "I", "X"]),
            &pairs,
            &name,
            true,
        );
        assert!(
            said.starts_with(
                "Class 5 fails: Rook stands apart, weaker than each of the others (queen, nightrider \
                 and super bishop): move it down a class, or strengthen it."
            ),
            "{said}"
        );
        assert!(
            said.ends_with("Still open: queen and super bishop (about 400 more pairs)."),
            "{said}"
        );
    }

    #[test]
    fn a_class_of_different_pieces_is_given_in_order() {
        use VerdictKind::Different;
        let pairs = [
            example_verdict("Q", "R", 59.0, Different),
            example_verdict("Q", "I", -168.0, Different),
            example_verdict("Q", "X", -67.0, Different),
            example_verdict("R", "I", -205.0, Different),
            example_verdict("R", "X", -121.0, Different),
            example_verdict("I", "X", 105.0, Different),
        ];
        let said = group_advice(
            "Class 5",
            &players(&["Q", "R", "I", "X"]),
            &pairs,
            &name,
            true,
        );
        assert!(
            said.contains(
                "from the strongest: nightrider, super bishop, queen, rook; split the class"
            ),
            "{said}"
        );
        let two = [example_verdict("R", "I", -61.0, Different)];
        let said = group_advice("Class 4", &players(&["R", "I"]), &two, &name, true);
        assert!(
            said.starts_with("Class 4 fails: Nightrider is the stronger: move nightrider up"),
            "{said}"
        );
    }

    #[test]
    fn a_class_holds_or_waits_for_its_open_pairs() {
        use VerdictKind::*;
        let holds = [example_verdict("R", "I", 3.0, Equivalent)];
        assert_eq!(
            group_advice("Class 2", &players(&["R", "I"]), &holds, &name, true),
            "Class 2 holds: nothing to change."
        );
        let open = [
            example_verdict("R", "I", 3.0, Equivalent),
            PairVerdict {
                more_pairs_needed: None,
                more_calibration_needed: true,
                ..example_verdict("R", "X", 20.0, Inconclusive)
            },
        ];
        assert_eq!(
            group_advice("Class 3", &players(&["R", "I", "X"]), &open, &name, true),
            "Class 3 is not settled: still open rook and super bishop (more pawn-odds pairs, to measure \
             the pawn better); settle it before changing the class."
        );
    }

    #[test]
    fn pairs_of_players_the_group_does_not_list_do_not_break_it() {
        let odd = [example_verdict("R", "I", 90.0, VerdictKind::Different)];
        let said = group_advice("Class 3", &[], &odd, &name, true);
        assert!(said.starts_with("Class 3 fails: "), "{said}");
    }
}
