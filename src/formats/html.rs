//! One self-contained HTML page that steps through a game: the board (inline SVG, one per state),
//! buttons and arrow keys to move through it, the move list beside the board with each move's value
//! when known. No URL, no external file, no network: the page works offline, opened from disk.
//!
//! The page is also well-formed XML (every element closed, the script in a CDATA section), so a
//! strict parser can check it.

use std::fmt::Write as _;

use crate::formats::replay::Replay;
use crate::formats::svg::{self, SvgOptions};

/// Escapes text for HTML content and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fafaf7; }
h1 { font-size: 1.3em; margin: 0 0 0.6em 0; }
main { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
#board svg { display: block; max-width: 90vw; height: auto; border: 2px solid #333; }
#caption { min-height: 1.4em; margin: 0.5em 0; }
nav { display: flex; gap: 0.4em; align-items: center; }
nav button { font-size: 1.1em; min-width: 2.6em; padding: 0.2em 0.5em; cursor: pointer; }
#counter { min-width: 5em; text-align: center; font-variant-numeric: tabular-nums; }
aside { max-height: 540px; overflow-y: auto; min-width: 16em; border: 1px solid #ccc; background: #fff; }
#moves { list-style: none; margin: 0; padding: 0; }
#moves li { padding: 0.25em 0.7em; cursor: pointer; display: flex; justify-content: space-between; gap: 1em; }
#moves li:hover { background: #eef; }
#moves li.current { background: #1e6cd6; color: #fff; }
.mv { font-family: ui-monospace, monospace; white-space: pre; }
.val { font-size: 0.85em; opacity: 0.8; }
.help { font-size: 0.85em; color: #666; }
";

const SCRIPT: &str = "
(function () {
  var states = document.querySelectorAll('.state');
  var items = document.querySelectorAll('#moves li');
  var caption = document.getElementById('caption');
  var counter = document.getElementById('counter');
  var k = 0;
  function show(n) {
    k = Math.max(0, Math.min(states.length - 1, n));
    states.forEach(function (s, i) { s.hidden = i !== k; });
    items.forEach(function (li) {
      var on = Number(li.dataset.k) === k;
      li.classList.toggle('current', on);
      if (on) { li.scrollIntoView({ block: 'nearest' }); }
    });
    caption.textContent = states[k].dataset.caption;
    counter.textContent = (k + 1) + ' / ' + states.length;
  }
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(k - 1); });
  document.getElementById('next').addEventListener('click', function () { show(k + 1); });
  document.getElementById('last').addEventListener('click', function () { show(states.length - 1); });
  items.forEach(function (li) {
    li.addEventListener('click', function () { show(Number(li.dataset.k)); });
  });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(k + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(k - 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(states.length - 1); e.preventDefault(); }
  });
  // #N in the address opens state N (from 1), e.g. for a screenshot.
  var start = parseInt(window.location.hash.slice(1), 10);
  show(isNaN(start) ? 0 : start - 1);
})();
";

/// The page for `replay`, boards drawn with `options`.
#[must_use]
pub fn page(replay: &Replay, options: &SvgOptions) -> String {
    let title = escape(&replay.title);
    let mut out = String::with_capacity(16_384 * replay.states.len().max(1));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <main>\n<section id=\"board\">\n"
    );
    for (k, pos) in replay.states.iter().enumerate() {
        let last = k
            .checked_sub(1)
            .and_then(|i| replay.paths.get(i))
            .map(Vec::as_slice);
        let hidden = if k == 0 { "" } else { " hidden=\"hidden\"" };
        let _ = writeln!(
            out,
            "<div class=\"state\" data-caption=\"{}\"{hidden}>{}</div>",
            escape(&replay.caption(k)),
            svg::svg_element(pos, last, options, Some(&format!("s{k}")))
        );
    }
    let _ = write!(
        out,
        "<p id=\"caption\">{}</p>\n<nav>\
         <button id=\"first\" type=\"button\" title=\"First (Home)\">&#xAB;</button>\
         <button id=\"prev\" type=\"button\" title=\"Previous (left arrow)\">&#x25C0;</button>\
         <span id=\"counter\">1 / {}</span>\
         <button id=\"next\" type=\"button\" title=\"Next (right arrow)\">&#x25B6;</button>\
         <button id=\"last\" type=\"button\" title=\"Last (End)\">&#xBB;</button></nav>\n\
         <p class=\"help\">Arrow keys step through the game; click a move to jump to it.</p>\n\
         </section>\n<aside>\n<ol id=\"moves\">\n",
        escape(&replay.caption(0)),
        replay.states.len()
    );
    let _ = writeln!(
        out,
        "<li data-k=\"0\"><span class=\"mv\">start</span><span class=\"val\">{}</span></li>",
        escape(replay.start_value.as_deref().unwrap_or(""))
    );
    for i in 0..replay.moves.len() {
        let value = replay.values.get(i).cloned().flatten().unwrap_or_default();
        let _ = writeln!(
            out,
            "<li data-k=\"{}\"><span class=\"mv\">{}</span><span class=\"val\">{}</span></li>",
            i + 1,
            escape(&replay.label(i)),
            escape(&value)
        );
    }
    let _ = write!(
        out,
        "</ol>\n</aside>\n</main>\n<script>\n//<![CDATA[{SCRIPT}//]]>\n</script>\n</body>\n</html>\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::fen;
    use crate::rules::movegen::legal_moves;

    #[test]
    fn a_page_holds_every_state_and_move_and_no_url() {
        let start = fen::parse("W:W22,K30:B1,K5").unwrap();
        let mut states = vec![start];
        for _ in 0..3 {
            let pos = states[states.len() - 1];
            states.push(pos.play(legal_moves(&pos)[0]));
        }
        let values = vec![Some("red <wins>".to_string()), None, None];
        let replay = Replay::from_states(&states, &values, "a & b").unwrap();
        let html = page(&replay, &SvgOptions::default());
        assert_eq!(html.matches("class=\"state\"").count(), 4);
        assert_eq!(html.matches("<li data-k=").count(), 4);
        assert!(html.contains("<title>a &amp; b</title>"));
        assert!(html.contains("red &lt;wins&gt;"));
        assert!(!html.contains("http"));
        assert!(!html.contains("src="));
    }
}
