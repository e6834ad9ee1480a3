//! A value-scale study run by the `pocketlab` binary end to end, on a small
//! variant (chess with three classes) at a few hundred nodes: the same
//! games for one and two threads and for stages split into shards, a
//! finished study that a second run leaves alone, `pocketlab stages` on its log, and the report's value-scale
//! tables and proposed variant file.

mod common;

use std::path::Path;

use pocketlab_selfplay::log::{GameRecord, read_games};

use common::pocketlab;

const VARIANT: &str = r#"
name = "tiny-classes"
inherits = "chess"
classes = ["P", "NB", "RQ"]
"#;

const EXPERIMENT: &str = r#"
name = "scale"
variant = "tiny-classes.toml"
seed = 7
[engine]
nodes = 300
hash_mb = 1
[openings]
random_plies = 4
[adjudication]
max_plies = 60
[stop]
design = "value-scale"
max_pairs = 6
budget_games = 40
warmup_pairs = 2
block_pairs = 2
stage_blocks = 2
[log]
chunk_games = 4
[[generators]]
kind = "value-scale"
"#;

fn run(experiment: &Path, out: &Path, threads: &str) -> (bool, String) {
    pocketlab(&[
        "run",
        experiment.to_str().unwrap(),
        "--threads",
        threads,
        "--out",
        out.to_str().unwrap(),
    ])
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let mut games = read_games(dir).unwrap();
    games.iter_mut().for_each(|g| g.duration_ms = 0);
    games.sort_by_key(|g| g.game_id);
    games
}

#[test]
fn a_value_scale_study_runs_resumes_and_reports() {
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("tiny-classes.toml"), VARIANT).unwrap();
    let experiment = work.path().join("scale.toml");
    std::fs::write(&experiment, EXPERIMENT).unwrap();

    // Its stages: the last line is the most there can be.
    let (ok, said) = pocketlab(&["stages", experiment.to_str().unwrap()]);
    assert!(ok, "{said}");
    assert!(said.contains("stage 1: the warm-up"), "{said}");
    let most: usize = said.lines().last().unwrap().trim().parse().unwrap();

    // One thread and two: the same games, the study played to its end.
    let one = work.path().join("one").join("log");
    let (ok, said) = run(&experiment, &one, "1");
    assert!(ok, "{said}");
    assert!(said.contains("the study is over"), "{said}");
    let two = work.path().join("two").join("log");
    let (ok, said) = run(&experiment, &two, "2");
    assert!(ok, "{said}");
    let reference = games(&one);
    assert_eq!(games(&two), reference, "two threads played other games");
    // 8 matchups (two piece odds, 3 + 2 neighbours, the pawn odds) warmed
    // up with 2 pairs each, then a stage within the 40-game budget.
    assert!(
        reference.len() > 32 && reference.len() <= 40,
        "{}",
        reference.len()
    );

    // Each stage split between two shard processes, one after the other,
    // as a cluster chain runs them: the same games again.
    let sharded = work.path().join("sharded").join("log");
    for stage in ["1", "2", "3"] {
        for shard in ["0/2", "1/2"] {
            let (ok, said) = pocketlab(&[
                "run",
                experiment.to_str().unwrap(),
                "--quiet",
                "--threads",
                "1",
                "--stage",
                stage,
                "--shard",
                shard,
                "--out",
                sharded.to_str().unwrap(),
            ]);
            assert!(ok, "stage {stage}, shard {shard}: {said}");
        }
    }
    assert_eq!(games(&sharded), reference, "the shards played other games");

    // Run again: nothing more is played.
    let (ok, said) = run(&experiment, &one, "2");
    assert!(ok, "{said}");
    assert!(said.contains("0 games played"), "{said}");
    assert_eq!(games(&one), reference);

    // Where the study stands, from its log.
    let (ok, said) = pocketlab(&[
        "stages",
        experiment.to_str().unwrap(),
        "--log",
        one.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(said.contains("the study is over after 2 stages"), "{said}");
    assert!(most >= 2, "{most}");

    // The report: both tables, a row per piece, and the proposed variant.
    let report = work.path().join("report");
    let (ok, said) = pocketlab(&[
        "report",
        one.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    let table = |name: &str| std::fs::read_to_string(report.join("tables").join(name)).unwrap();
    let values = table("piece_values.csv");
    let mut lines = values.lines();
    assert_eq!(
        lines.next(),
        Some("letter,name,class,pawns,pawns_lo95,pawns_hi95,elo,elo_lo95,elo_hi95,pairs")
    );
    let mut letters: Vec<&str> = lines.map(|l| l.split(',').next().unwrap()).collect();
    letters.sort_unstable();
    assert_eq!(letters, ["B", "N", "P", "Q", "R"], "{values}");
    let adjacent = table("adjacent_differences.csv");
    assert_eq!(
        adjacent.lines().next(),
        Some("a,b,pawns,pawns_lo95,pawns_hi95")
    );
    let markdown = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(
        markdown.contains("Every piece on one value scale"),
        "{markdown}"
    );
    assert!(report.join("plots").join("value-scale.png").exists());
    // The scale is the report's answer: its picture comes first, no class
    // verdicts are drawn from substitutions across classes, and the advice
    // names a table.
    let first_image = markdown
        .lines()
        .find(|line| line.contains("](plots/"))
        .unwrap_or_default();
    assert!(first_image.contains("plots/value-scale."), "{first_image}");
    let verdicts = markdown
        .split("\n## ")
        .find(|section| section.starts_with("Verdicts"))
        .unwrap();
    assert!(
        !verdicts.contains("fails")
            && !verdicts.contains("holds")
            && !verdicts.contains("No group of armies to rate"),
        "{verdicts}"
    );
    let changes = markdown
        .split("\n## ")
        .find(|section| section.starts_with("What to change"))
        .expect("a What to change section");
    assert!(changes.contains("table"), "{changes}");
    // The least number of classes a table that holds needs: at least as
    // many as the pieces it names as differing pairwise, and more than the
    // variant's 3 classes exactly when the advice says no such table holds.
    let bound = markdown
        .split("A table that holds needs at least ")
        .nth(1)
        .expect("the least number of classes");
    let needed: usize = bound.split(' ').next().unwrap().parse().unwrap();
    let named = bound
        .split(" alone differ pairwise")
        .next()
        .unwrap()
        .rsplit(" apart (")
        .next()
        .unwrap()
        .split(", ")
        .count();
    assert!((1..=5).contains(&needed) && named <= needed, "{bound}");
    assert_eq!(
        changes.contains("No table with 3 classes, as many as today's, can hold"),
        needed > 3,
        "{changes}"
    );
    // No empty ratings section beside the scale; the games shown are those
    // of the matchups the scale section names as departing most.
    assert!(
        !markdown.contains("## Ratings and head-to-head"),
        "{markdown}"
    );
    let games = markdown
        .split("\n## ")
        .find(|section| section.starts_with("Games to look at"))
        .expect("a Games to look at section");
    let named = games
        .split("depart most from one additive scale (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .expect("the departing matchups named");
    let departing: Vec<&str> = named
        .split(", ")
        .map(|x| x.rsplit_once(' ').unwrap().0)
        .collect();
    assert!(!departing.is_empty() && departing.len() <= 3, "{named}");
    let shown: Vec<&str> = games
        .lines()
        .filter_map(|l| l.strip_prefix("- Game "))
        .map(|l| l.split(": ").nth(1).unwrap().split(',').next().unwrap())
        .collect();
    assert!(!shown.is_empty(), "{games}");
    assert!(
        shown.iter().all(|m| departing.contains(m)),
        "{shown:?} vs {departing:?}"
    );
    // Kaufman's and AlphaZero's orthodox values beside the scale's, each
    // row's agreement the one its numbers give.
    let published: Vec<Vec<&str>> = markdown
        .split("#### Beside published values")
        .nth(1)
        .expect("a table of published values")
        .lines()
        .skip_while(|l| !l.starts_with("| Piece"))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();
    let kaufman: Vec<&str> = published
        .iter()
        .filter(|row| row[1] == "Kaufman (1999), chess")
        .map(|row| row[0])
        .collect();
    assert_eq!(
        kaufman,
        ["N (knight)", "B (bishop)", "R (rook)", "Q (queen)"],
        "{published:?}"
    );
    let number = |s: &str| {
        s.replace('\\', "")
            .parse::<f64>()
            .unwrap_or_else(|_| panic!("not a number: {s:?} in {published:?}"))
    };
    for row in &published {
        let figure = number(row[2]);
        let agreement = row[4];
        if row[3] == "not yet known" {
            assert_eq!(agreement, "no pawn figure yet");
            continue;
        }
        let interval = row[3].split_once('(').unwrap().1.trim_end_matches(')');
        let (lo, hi) = interval.split_once(" to ").unwrap();
        let (lo, hi) = (number(lo), number(hi));
        let expected = if figure < lo {
            "outside: the scale finds more"
        } else if figure > hi {
            "outside: the scale finds less"
        } else {
            "within the interval"
        };
        assert_eq!(agreement, expected, "{row:?}");
    }
    // The proposed table is a variant file with the variant's 3 classes.
    let proposed = report.join("proposed-classes.toml");
    let variant = pocketlab_selfplay::load_variant(proposed.to_str().unwrap()).unwrap();
    assert_eq!(variant.classes.len(), 3);
    // Its confirmation plays the new within-class pairs with the scale's
    // player: its nodes, and the
    // hand-written weights a variant without a shipped evaluation plays
    // (a proposed variant's own name would find none either).
    let text = std::fs::read_to_string(&proposed).unwrap();
    let command = text
        .lines()
        .find_map(|l| {
            l.trim_start_matches('#')
                .trim()
                .strip_prefix("pocketlab study ")
        })
        .unwrap_or_else(|| panic!("no confirmation command in {text}"));
    assert!(
        command.ends_with("proposed-classes.toml --new-pairs --nodes 300 --eval builtin"),
        "{command}"
    );
    let mut on_scale: Vec<char> = variant
        .classes
        .iter()
        .flatten()
        .map(|&t| variant.letter(t))
        .collect();
    on_scale.sort_unstable();
    assert_eq!(on_scale, ['B', 'N', 'P', 'Q', 'R']);

    // Class verdicts are read from a class study's log: a directory that
    // is not one is refused by name, and nothing is written over the
    // report already there.
    let missing = work.path().join("no-such-study");
    let before = std::fs::read_to_string(report.join("report.md")).unwrap();
    let (ok, said) = pocketlab(&[
        "report",
        one.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
        "--verdicts",
        missing.to_str().unwrap(),
    ]);
    assert!(!ok && said.contains("no-such-study"), "{said}");
    assert_eq!(
        std::fs::read_to_string(report.join("report.md")).unwrap(),
        before
    );

    // Two value scales compared piece by piece: the study against its
    // own shards' log, the same games, so every piece's change is 0 and
    // none moved, in Elo or in pawns (the pawn, the unit, untested there);
    // each row's values are the report's own.
    let cmp = work.path().join("cmp");
    let (ok, said) = pocketlab(&[
        "compare",
        one.to_str().unwrap(),
        sharded.to_str().unwrap(),
        "--out",
        cmp.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("5 pieces on both value scales; in pawns (each scale's own unit) ")
            && (said.contains("own unit) none could be tested") || said.contains("own unit) 0 of"))
            && said.contains(", in Elo 0 of 5 moved"),
        "{said}"
    );
    let pieces = std::fs::read_to_string(cmp.join("pieces.csv")).unwrap();
    let mut lines = pieces.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5, "{pieces}");
    let reported: Vec<(String, String)> = values
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_owned(), f[6].to_owned())
        })
        .collect();
    for row in &rows {
        assert_eq!(row[column("shift")], "agree", "{row:?}");
        // Tested in pawns where the scale bounds the value in pawns,
        // except the pawn, 1 in both.
        let bounded = row[column("first_pawns")]
            .parse::<f64>()
            .is_ok_and(f64::is_finite);
        let in_pawns = if bounded && row[column("letter")] != "P" {
            "agree"
        } else {
            "untested"
        };
        assert_eq!(row[column("pawns_shift")], in_pawns, "{row:?}");
        assert_eq!(row[column("elo_change")].parse::<f64>().unwrap(), 0.0);
        let elo: f64 = row[column("first_elo")].parse().unwrap();
        let (_, logged) = reported
            .iter()
            .find(|(letter, _)| letter == row[column("letter")])
            .unwrap();
        assert!(
            (elo - logged.parse::<f64>().unwrap()).abs() < 1e-6,
            "{row:?}"
        );
    }
}
