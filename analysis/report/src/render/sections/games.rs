//! Games to look at: a few real games per matchup, listed with the command
//! that exports each one, and in the HTML drawn on a board to replay.

use super::super::super::model::Report;
use super::super::doc::{Block, Doc};
use super::super::format::signed;
use super::GAMES;
use super::reproduction::shell_quote;

pub(super) fn write(doc: &mut Doc, report: &Report) {
    let shown = &report.shown_games;
    if shown.games.is_empty() && shown.problems.is_empty() && shown.not_drawn.is_none() {
        return;
    }
    doc.heading(2, GAMES);
    let departing = report
        .value_scale
        .as_ref()
        .and_then(|v| v.consistency.as_ref())
        .map(|c| &c.departing)
        .filter(|d| !d.is_empty());
    let which = match departing {
        Some(d) => format!(
            "Real games of the {} matchups that depart most from one additive scale ({}), to see what \
             the values miss",
            d.len(),
            d.iter()
                .map(|x| format!("{} {}", x.name, signed(x.residual, 1)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "Real games of each matchup, to see how the pieces were played".to_owned(),
    };
    doc.paragraph(format!(
        "{which}: the shortest decisive win for each army and a game of median length, chosen from the \
         log by length (ties go to the lower game id). Every move shown was replayed by the lab's rules \
         and checked against the positions the log kept."
    ));
    let items: Vec<String> = shown
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            format!(
                "Game {}: {}, {}. {} (White) vs {} (Black), {} by {} in {} plies; game id {}.",
                i + 1,
                g.matchup,
                g.why,
                g.white,
                g.black,
                g.result,
                g.termination.replace('_', " "),
                g.plies,
                g.game_id
            )
        })
        .collect();
    if !items.is_empty() {
        doc.push(Block::List(items));
    }
    match &shown.not_drawn {
        Some(why) => doc.aside(why.clone()),
        None if !shown.games.is_empty() => {
            doc.aside(
                "Pick a game, then step through it with the buttons or the arrow keys; a move in the list jumps there, and \
                 its link (#game-N-ply-K) opens the report at that position.",
            );
            doc.push(Block::GameViewer(shown.games.clone()));
        }
        None => {}
    }
    if !shown.problems.is_empty() {
        doc.aside("Some chosen games could not be replayed from the log, so they are left out:");
        doc.push(Block::List(shown.problems.clone()));
    }
    if !shown.games.is_empty() {
        doc.paragraph("Each game as PGN:");
        let log = report
            .experiment
            .logs
            .first()
            .map_or_else(|| "LOG".to_owned(), |dir| shell_quote(dir));
        let commands: Vec<String> = shown
            .games
            .iter()
            .map(|g| format!("pocketlab pgn {log} --game {}", g.game_id))
            .collect();
        doc.push(Block::Code(commands.join("\n")));
    }
}
