//! The report as a designer reads it, from a synthetic log of three
//! classes with known answers: the verdicts first, one sentence each and
//! each said once; what to change right after them, naming the piece that
//! stands apart and the order of a class of different pieces; and, first
//! of all the pictures, every piece on one axis with the verdicts marked.

use std::collections::BTreeMap;
use std::path::Path;

use pocketlab_report::build::{ReportOptions, build_report};
use pocketlab_report::model::Report;
use pocketlab_report::render::{RenderedReport, write_report};
use pocketlab_report::synthetic::{SyntheticModel, write_synthetic_log};
use pocketlab_selfplay::Experiment;

/// Class 2 (two equal pieces), class 3 on the rooks' squares (the rook
/// stronger than the other two, which are equal) and class 5 on the
/// queen's square (four pieces 150 Elo apart each), with a pawn-odds
/// calibration, a fixed number of pairs.
const EXPERIMENT: &str = r#"
name = "three-classes"
variant = "pocket-mutation"
seed = 7

[rules]
pocket = { mutation = false }

[stop]
pairs = 40

[[generators]]
kind = "class-equivalence"
class = 2

[[generators]]
kind = "class-equivalence"
class = 3
slots = "R"

[[generators]]
kind = "class-equivalence"
class = 5
slots = "Q"

[[generators]]
kind = "pawn-odds"
square = "f2"
"#;

/// The report of a synthetic log of `experiment` (true Elo per army,
/// `pairs` pairs a matchup), rendered into `dir/report`.
fn sample(
    dir: &Path,
    experiment: &str,
    elo: &[(&str, f64)],
    pairs: u64,
) -> (Report, RenderedReport) {
    let exp = Experiment::parse("sample.toml", experiment, Path::new(".")).unwrap();
    let model = SyntheticModel {
        elo: elo.iter().map(|(n, e)| ((*n).to_owned(), *e)).collect(),
        draw_rate: 0.3,
        white_edge_elo: 20.0,
        opening_bias_elo: 60.0,
        pairs,
        matchup_pairs: Vec::new(),
        seed: 11,
        chunk_games: 5000,
    };
    let log = dir.join("log");
    write_synthetic_log(&exp, &model, &log).unwrap();
    let report = build_report(&[log], &ReportOptions::default()).unwrap();
    let rendered = write_report(&report, &dir.join("report")).unwrap();
    (report, rendered)
}

fn three_classes(dir: &Path) -> (Report, RenderedReport) {
    let elo = [
        ("R", 140.0),
        ("D", 300.0),
        ("F", 150.0),
        ("H", -150.0),
        ("pawn-odds-f2", -100.0),
    ];
    sample(dir, EXPERIMENT, &elo, 800)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The sentences of a Markdown text, table cells included, markup and
/// escapes taken off; short fragments (numbers, names), table headers and
/// code blocks (the experiment file) are left out.
fn sentences(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut in_code = false;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        let header = lines
            .get(i + 1)
            .is_some_and(|next| next.starts_with("|---"));
        if in_code || header {
            continue;
        }
        for chunk in line.split(" | ") {
            let plain: String = chunk
                .replace('\\', "")
                .trim_matches(|c: char| "|*>-≈≠? #".contains(c))
                .to_owned();
            for sentence in plain.split_inclusive(". ") {
                let sentence = sentence.trim();
                if sentence.len() >= 25 {
                    out.push(sentence.trim_end_matches('.').to_owned());
                }
            }
        }
    }
    out
}

/// No sentence appears twice on the page.
fn assert_no_sentence_twice(md: &str) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for sentence in sentences(md) {
        *seen.entry(sentence).or_default() += 1;
    }
    let repeated: Vec<(&String, &usize)> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(repeated.is_empty(), "repeated: {repeated:#?}");
}

#[test]
fn the_designers_report_says_each_thing_once_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (report, rendered) = three_classes(dir.path());
    let md = read(&rendered.markdown);
    let html = read(&rendered.html);

    // The verdicts: one short sentence per pair, pieces by their names.
    let class = |c: u8| report.groups.iter().find(|g| g.class == Some(c)).unwrap();
    for group in &report.groups {
        for pair in &group.pairs {
            let noise = ["R (", "I (", "X (", "Q (", "%", "look"];
            assert!(
                !noise.iter().any(|n| pair.text.contains(n)),
                "noise: {}",
                pair.text
            );
            assert!(md.contains(&format!(" {}\n", pair.text)), "{}", pair.text);
        }
    }
    assert!(
        class(2)
            .summary
            .ends_with(": holds (the one pair is equivalent)."),
        "{}",
        class(2).summary
    );
    assert!(
        class(5)
            .summary
            .ends_with(": fails (all 6 pairs are different)."),
        "{}",
        class(5).summary
    );

    // What to change comes right after the verdicts, and names names.
    let sections: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    let at = sections.iter().position(|s| *s == "## Verdicts").unwrap();
    assert_eq!(sections[at + 1], "## What to change", "{sections:?}");
    assert_eq!(class(2).advice, "Class 2 holds: nothing to change.");
    assert!(
        class(3).advice.starts_with(
            "Class 3 fails: Rook stands apart, stronger than each of the others (nightrider and super \
             bishop): move it up a class"
        ),
        "{}",
        class(3).advice
    );
    assert!(
        class(5).advice.contains(
            "from the strongest: cardinal rider, super cardinal, queen, chancellor; split"
        ),
        "{}",
        class(5).advice
    );
    for group in &report.groups {
        assert!(md.contains(&group.advice), "{}", group.advice);
    }

    assert_no_sentence_twice(&md);

    // The first picture in both formats: every piece on one axis.
    let first_md = md.find("![").unwrap();
    assert!(
        md[first_md..].starts_with("![Every piece and every verdict: 9 rated pieces"),
        "{}",
        &md[first_md..first_md + 80]
    );
    assert!(
        md[first_md..]
            .lines()
            .next()
            .unwrap()
            .ends_with("(plots/overview.png)")
    );
    let first_html = html.find("<img").unwrap();
    assert!(
        html[first_html..].contains("alt=\"Every piece and every verdict: 9 rated pieces")
            && html[first_html..].find("alt=").unwrap() < html[first_html..].find('>').unwrap(),
        "{}",
        &html[first_html..first_html + 120]
    );
    assert!(dir.path().join("report/plots/overview.svg").exists());
    // Pawns per piece where the unit resolves them.
    let svg = read(&dir.path().join("report/plots/overview.svg"));
    // Verdicts marked: green brackets for equivalent pairs, red for different.
    for colour in ["#1B7A35", "#B42318"] {
        assert!(svg.contains(colour), "no bracket in {colour}");
    }
    assert!(
        svg.contains("pawns per piece relative to the class average"),
        "axis in pawns"
    );
}

/// The default experiment's sequential design after two looks of equal
/// pieces (nothing decided yet): the class is not settled, What to change
/// names every open pair with where the design stands, and the design's
/// one-line account is said once.
#[test]
fn an_open_sequential_study_says_what_is_still_open_once() {
    let dir = tempfile::tempdir().unwrap();
    let default = include_str!("../../../configs/experiments/default.toml");
    let (report, rendered) = sample(dir.path(), default, &[("pawn-odds-f2", -100.0)], 20);
    let md = read(&rendered.markdown);
    let adaptive = report.adaptive.as_ref().expect("the design's account");
    assert_eq!(md.matches(&adaptive.text).count(), 1, "{}", adaptive.text);
    let group = &report.groups[0];
    assert!(
        group
            .summary
            .ends_with(": not settled (all 3 pairs are undecided)."),
        "{}",
        group.summary
    );
    assert!(
        group
            .advice
            .starts_with("Class 3 is not settled: still open rook and nightrider ("),
        "{}",
        group.advice
    );
    for pair in &group.pairs {
        assert!(
            pair.text.ends_with(": not decided after 40 games."),
            "{}",
            pair.text
        );
        assert_eq!(pair.look, Some(2));
    }
    assert_no_sentence_twice(&md);
}
