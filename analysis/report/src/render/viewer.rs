//! The HTML game viewer: the games as JSON data (positions computed in
//! Rust by replaying the moves through the lab's rules), and a small plain
//! script that only draws them: an SVG board of the game's size, pieces by
//! letter, the pockets beside it, the move list, buttons and arrow keys,
//! and `#game-N-ply-K` links.

use std::fmt::Write as _;

use super::super::model::ShownGame;

const STYLE: &str = r#"
.viewer { border: 1px solid #dfe3e9; border-radius: 6px; padding: 12px 14px; margin: 12px 0 18px; }
.vw-pick { font: inherit; font-size: 14px; padding: 3px 6px; max-width: 100%; }
.vw-title { font-weight: 600; margin: 4px 0 10px; }
.vw-main { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.vw-board { width: 400px; max-width: 100%; height: auto; }
.vw-board .light { fill: #f0d9b5; } .vw-board .dark { fill: #b58863; }
.vw-board .moved { fill: #e8d56a; } .vw-board .dark.moved { fill: #c9b245; }
.vw-board .pw { fill: #fff; stroke: #1d2330; stroke-width: 1.5; }
.vw-board .pb { fill: #1d2330; stroke: #1d2330; stroke-width: 1.5; }
.vw-board text { font-weight: 700; text-anchor: middle; dominant-baseline: central;
  font-family: "DejaVu Sans", Arial, sans-serif; }
.vw-board .tw { fill: #1d2330; } .vw-board .tb { fill: #fff; } .vw-board .coord { fill: #566075; font-weight: 400; }
.vw-side { display: flex; flex-direction: column; justify-content: space-between; min-height: 200px; width: 150px; }
.vw-pocket { font-size: 14px; } .vw-pocket b { display: block; color: #566075; font-weight: 600; }
.pc { display: inline-block; min-width: 22px; height: 22px; line-height: 22px; border-radius: 11px;
  text-align: center; font-weight: 700; margin: 2px; border: 1.5px solid #1d2330; font-size: 13px; }
.pc.w { background: #fff; color: #1d2330; } .pc.b { background: #1d2330; color: #fff; }
.vw-moves { max-height: 400px; width: 230px; overflow-y: auto; position: relative; margin: 0;
  padding: 6px 8px; font-size: 14px; background: #f7f8fa; border-radius: 6px; line-height: 1.7; }
.vw-moves span { white-space: nowrap; margin-right: 6px; }
.vw-moves a { color: #1d2330; text-decoration: none; padding: 1px 4px; border-radius: 4px; white-space: nowrap; }
.vw-moves a.now { background: #1f5fa8; color: #fff; }
.vw-controls { margin-top: 10px; display: flex; gap: 6px; align-items: center; }
.viewer button { font: inherit; font-size: 14px; padding: 3px 10px; border: 1px solid #b8c0cc; border-radius: 4px;
  background: #fff; cursor: pointer; }
.vw-ply { color: #566075; font-size: 14px; margin-left: 8px; }
"#;

/// Draws `data` (the games) into the page; reads `#game-N-ply-K`.
const SCRIPT: &str = r#"
(function () {
  var games = JSON.parse(document.getElementById('game-data').textContent);
  var root = document.getElementById('game-viewer');
  var q = function (c) { return root.querySelector(c); };
  var board = q('.vw-board'), list = q('.vw-moves'), playing = null, g = 0, ply = 0;
  var NS = 'http://www.w3.org/2000/svg', SQ = 50, EDGE = 18;
  function svg(name, attrs, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function isWhite(letter) { return letter === letter.toUpperCase(); }
  function pocket(el, side, letters) {
    var counts = {}, order = [];
    for (var i = 0; i < letters.length; i++) {
      var c = letters[i];
      if (!counts[c]) { counts[c] = 0; order.push(c); }
      counts[c]++;
    }
    el.innerHTML = '';
    var title = document.createElement('b');
    title.textContent = side + "'s pocket" + (order.length ? '' : ': empty');
    el.appendChild(title);
    order.forEach(function (c) {
      var s = document.createElement('span');
      s.className = 'pc ' + (isWhite(c) ? 'w' : 'b');
      s.textContent = c.toUpperCase();
      el.appendChild(s);
      if (counts[c] > 1) el.appendChild(document.createTextNode('\u00d7' + counts[c] + ' '));
    });
  }
  function draw(keep) {
    var game = games[g], pos = game.positions[ply], before = game.positions[Math.max(ply - 1, 0)];
    var F = game.files, R = game.ranks;
    board.setAttribute('viewBox', '0 0 ' + (F * SQ + EDGE) + ' ' + (R * SQ + EDGE));
    while (board.firstChild) board.removeChild(board.firstChild);
    for (var r = 0; r < R; r++) {
      board.appendChild(svg('text', { x: EDGE / 2, y: r * SQ + SQ / 2, 'class': 'coord', 'font-size': 12 }, String(R - r)));
      for (var f = 0; f < F; f++) {
        var x = EDGE + f * SQ, y = r * SQ, letter = pos.rows[r][f];
        var cls = (r + f) % 2 ? 'dark' : 'light';
        if (ply > 0 && before.rows[r][f] !== letter) cls += ' moved';
        board.appendChild(svg('rect', { x: x, y: y, width: SQ, height: SQ, 'class': cls }));
        if (letter !== '.') {
          var white = isWhite(letter);
          board.appendChild(svg('circle', { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.4, 'class': white ? 'pw' : 'pb' }));
          board.appendChild(svg('text', { x: x + SQ / 2, y: y + SQ / 2, 'class': white ? 'tw' : 'tb', 'font-size': 24 }, letter.toUpperCase()));
        }
      }
    }
    for (var f2 = 0; f2 < F; f2++) {
      board.appendChild(svg('text', { x: EDGE + f2 * SQ + SQ / 2, y: R * SQ + EDGE / 2, 'class': 'coord', 'font-size': 12 }, String.fromCharCode(97 + f2)));
    }
    pocket(q('.vw-pocket.black'), 'Black', pos.pockets[1]);
    pocket(q('.vw-pocket.white'), 'White', pos.pockets[0]);
    var links = list.querySelectorAll('a');
    for (var i = 0; i < links.length; i++) links[i].className = i === ply - 1 ? 'now' : '';
    if (ply > 0) list.scrollTop = links[ply - 1].offsetTop - list.clientHeight / 2;
    else list.scrollTop = 0;
    q('.vw-ply').textContent = 'ply ' + ply + ' of ' + game.moves.length;
    if (!keep) history.replaceState(null, '', '#game-' + (g + 1) + '-ply-' + ply);
  }
  function open(index) {
    g = index;
    var game = games[g];
    q('.vw-title').textContent = 'Game ' + (g + 1) + ': ' + game.matchup + ', ' + game.why + '. ' + game.white +
      ' (White) vs ' + game.black + ' (Black), ' + game.result + ' by ' + game.termination.replace(/_/g, ' ') +
      ' in ' + game.plies + ' plies.';
    list.innerHTML = '';
    var pair = null;
    game.move_texts.forEach(function (text, i) {
      // A numbered move starts a pair that wraps as one.
      if (!pair || /^\d/.test(text)) {
        pair = document.createElement('span');
        list.appendChild(pair);
        list.appendChild(document.createTextNode(' '));
      }
      var a = document.createElement('a');
      a.href = '#game-' + (g + 1) + '-ply-' + (i + 1);
      a.textContent = text;
      pair.appendChild(a);
    });
    pick.value = g;
  }
  function go(to) { ply = Math.max(0, Math.min(games[g].moves.length, to)); draw(); }
  function stop() { if (playing) { clearInterval(playing); playing = null; q('[data-go=play]').textContent = 'play'; } }
  function play() {
    if (playing) return stop();
    if (ply >= games[g].moves.length) ply = 0;
    q('[data-go=play]').textContent = 'pause';
    playing = setInterval(function () { if (ply >= games[g].moves.length) stop(); else go(ply + 1); }, 700);
  }
  var pick = q('.vw-pick');
  games.forEach(function (game, i) {
    var option = document.createElement('option');
    option.value = i;
    option.textContent = 'Game ' + (i + 1) + ': ' + game.matchup + ', ' + game.why;
    pick.appendChild(option);
  });
  pick.onchange = function () { stop(); open(+pick.value); go(0); };
  root.querySelectorAll('[data-go]').forEach(function (b) {
    b.onclick = function () {
      var to = b.getAttribute('data-go');
      if (to === 'play') return play();
      stop();
      go({ first: 0, back: ply - 1, forward: ply + 1, last: Infinity }[to]);
    };
  });
  function fromHash(scroll) {
    var m = /^#game-(\d+)-ply-(\d+)$/.exec(location.hash);
    if (!m || m[1] < 1 || m[1] > games.length) return false;
    stop();
    if (m[1] - 1 !== g || !list.firstChild) open(m[1] - 1);
    ply = Math.min(games[g].moves.length, +m[2]);
    draw(true);
    if (scroll) root.scrollIntoView();
    return true;
  }
  window.addEventListener('hashchange', function () { fromHash(false); });
  document.addEventListener('keydown', function (e) {
    var box = root.getBoundingClientRect();
    if (box.bottom < 0 || box.top > innerHeight || e.altKey || e.ctrlKey || e.metaKey) return;
    var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    stop();
    go(to);
  });
  if (!fromHash(true)) { open(0); draw(true); }
})();
"#;

/// The viewer with `games` embedded as JSON.
pub(super) fn write(out: &mut String, games: &[ShownGame]) {
    // `<` escaped inside strings so no text can close the script element;
    // JSON reads `\u003c` back as `<`.
    let data = match serde_json::to_string(games) {
        Ok(json) => json.replace('<', "\\u003c"),
        Err(e) => {
            let _ = writeln!(
                out,
                "<p class=\"aside\">The games could not be embedded: {}</p>",
                super::escape::escape(&e.to_string())
            );
            return;
        }
    };
    let _ = write!(
        out,
        "<style>{STYLE}</style>\n\
         <div class=\"viewer\" id=\"game-viewer\">\n\
         <select class=\"vw-pick\" aria-label=\"game\"></select><div class=\"vw-title\"></div>\n\
         <div class=\"vw-main\"><svg class=\"vw-board\" role=\"img\" aria-label=\"board\"></svg>\n\
         <div class=\"vw-side\"><div class=\"vw-pocket black\"></div><div class=\"vw-pocket white\"></div></div>\n\
         <div class=\"vw-moves\"></div></div>\n\
         <div class=\"vw-controls\"><button data-go=\"first\">first</button><button data-go=\"back\">back</button>\
         <button data-go=\"play\">play</button><button data-go=\"forward\">forward</button>\
         <button data-go=\"last\">last</button><span class=\"vw-ply\"></span></div>\n\
         </div>\n\
         <script type=\"application/json\" id=\"game-data\">{data}</script>\n\
         <script>{SCRIPT}</script>\n"
    );
}
