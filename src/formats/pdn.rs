//! PDN, the Portable Draughts Notation: games as tag pairs and moves in standard notation.
//!
//! ```text
//! [Event "p03"]
//! [Result "1-0"]
//! [SetUp "1"]
//! [FEN "W:W17,K24,26:B6,14,16,K30"]
//!
//! 1. 24-20 {red wins in 7} 6-10 2. 17x6 ... 1-0
//! ```
//!
//! [`write_game`] writes the tags of a [`Game`], then `SetUp` and `FEN` when the game does not
//! start from the standard position, then the moves with every landing square of a capture
//! (`15x22x31`), a `{comment}` after any move that has one, and the result. [`parse_games`] reads
//! one or several games back: tags, moves (each replayed and identified by its path against the
//! move generator, so an illegal or ambiguous move is an error at its line and column), comments
//! and results. Variations `( ... )`, `;` line comments, `%` escape lines and `$n` annotations
//! are skipped; `!` and `?` after a move are ignored.

use thiserror::Error;

use crate::formats::fen::{self, found_at, line_column, FenErrorKind, NotStandard};
use crate::formats::notation::{move_from_path, move_text, parse_path, PathError};
use crate::rules::movegen::legal_moves;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::Position;

/// How a game ended, as PDN writes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// `1-0`: red (White) won.
    RedWins,
    /// `0-1`: black won.
    BlackWins,
    /// `1/2-1/2`: a draw.
    Draw,
    /// `*`: unknown or unfinished.
    Unknown,
}

impl GameResult {
    /// The PDN spelling: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result token, also in the two-point scoring some programs use (`2-0`, `1-1`).
    #[must_use]
    pub fn parse(token: &str) -> Option<GameResult> {
        Some(match token {
            "1-0" | "2-0" => GameResult::RedWins,
            "0-1" | "0-2" => GameResult::BlackWins,
            "1/2-1/2" | "1-1" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }

    /// The result for a win of `color`.
    #[must_use]
    pub const fn win(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// One game: its tags, its start, its moves with their comments, and its result.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    /// Tag pairs in order, such as `("Event", "p03")`. `SetUp`, `FEN` and `Result` are not kept
    /// here: they are [`Game::start`] and [`Game::result`].
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves, each legal in the position it is played from.
    pub moves: Vec<Move>,
    /// `comments[i]` follows `moves[i]`; as long as `moves`.
    pub comments: Vec<Option<String>>,
    /// How the game ended.
    pub result: GameResult,
}

/// The tags every written game carries, with PDN's "unknown" values, in the standard order, and
/// the game type: 21 is English checkers, which readers of several variants need to be told.
const DEFAULT_TAGS: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Date", "????.??.??"),
    ("Round", "-"),
    ("White", "?"),
    ("Black", "?"),
    ("GameType", "21"),
];

/// Tags held elsewhere in a [`Game`].
const DERIVED_TAGS: [&str; 3] = ["SetUp", "FEN", "Result"];

/// Two consecutive states of a sequence that no legal move connects.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[error("state {index} does not follow from state {} by a legal move", index - 1)]
pub struct NotAGame {
    /// The state (from 1) that does not follow from the one before it.
    pub index: usize,
}

impl Game {
    /// A game from `start` without moves, with the standard tags set to "unknown".
    #[must_use]
    pub fn new(start: Position) -> Game {
        Game {
            tags: DEFAULT_TAGS
                .iter()
                .map(|&(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            result: GameResult::Unknown,
        }
    }

    /// The game through a sequence of states (a solution), recovering each move from the
    /// generator; no comments, result unknown.
    pub fn from_states(states: &[Position]) -> Result<Game, NotAGame> {
        let Some(&start) = states.first() else {
            return Err(NotAGame { index: 1 });
        };
        let mut game = Game::new(start);
        for (i, pair) in states.windows(2).enumerate() {
            let mv = legal_moves(&pair[0])
                .into_iter()
                .find(|&m| pair[0].play(m) == pair[1])
                .ok_or(NotAGame { index: i + 2 })?;
            game.push(mv, None);
        }
        Ok(game)
    }

    /// Appends a move (assumed legal where it is played) with an optional comment.
    pub fn push(&mut self, mv: Move, comment: Option<String>) {
        self.moves.push(mv);
        self.comments.push(comment);
    }

    /// The value of tag `name`, if set.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing its value or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Every position of the game: the start, then the one after each move.
    #[must_use]
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &mv in &self.moves {
            pos = pos.play(mv);
            out.push(pos);
        }
        out
    }

    /// The position after the last move.
    #[must_use]
    pub fn end(&self) -> Position {
        self.moves.iter().fold(self.start, |pos, &mv| pos.play(mv))
    }
}

/// A tag value with `\` and `"` escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment fit for braces: no `}`, whitespace runs as single spaces.
fn clean_comment(text: &str) -> String {
    text.replace('}', ")")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Longest movetext line written; a token longer than this stands on its own line.
const LINE_WIDTH: usize = 79;

/// The PDN text of one game, ending with a newline.
///
/// Fails only when the start has a piece on a light cell, which no FEN can hold.
pub fn write_game(game: &Game) -> Result<String, NotStandard> {
    let mut out = String::new();
    for (name, value) in &game.tags {
        if !DERIVED_TAGS.contains(&name.as_str()) {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
    }
    out.push_str(&format!("[Result \"{}\"]\n", game.result.as_str()));
    if game.start != Position::start() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", fen::write(&game.start)?));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut pos = game.start;
    let mut number = 1;
    for (i, &mv) in game.moves.iter().enumerate() {
        match pos.side_to_move() {
            Color::Red => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(move_text(&pos, mv));
        if let Some(comment) = game.comments.get(i).and_then(Option::as_deref) {
            tokens.push(format!("{{{}}}", clean_comment(comment)));
        }
        if pos.side_to_move() == Color::Black {
            number += 1;
        }
        pos = pos.play(mv);
    }
    tokens.push(game.result.as_str().to_string());

    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// Several games, one empty line between two.
pub fn write_games(games: &[Game]) -> Result<String, NotStandard> {
    let texts: Result<Vec<String>, NotStandard> = games.iter().map(write_game).collect();
    Ok(texts?.join("\n"))
}

/// What is wrong at a place in a PDN file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PdnErrorKind {
    /// No game at all in the text.
    #[error("no game found; expected tags such as [FEN \"W:W21,22:B1,2\"] or moves")]
    NoGames,
    /// A tag pair that does not read `[Name "value"]`.
    #[error("found {found}; expected a tag pair like [Name \"value\"]")]
    BadTag {
        /// What was found.
        found: String,
    },
    /// A tag value or a comment that never ends.
    #[error("this {what} is never closed")]
    Unclosed {
        /// "tag value", "comment" or "variation".
        what: &'static str,
    },
    /// The FEN tag's value is not a FEN.
    #[error("in the FEN tag: {0}")]
    Fen(FenErrorKind),
    /// A GameType tag naming another game than English checkers (21).
    #[error("GameType {found:?} is not English checkers; expected 21")]
    GameType {
        /// The value found.
        found: String,
    },
    /// A word of the movetext that is neither a move number, a move nor a result.
    #[error("found {found}; expected a move such as 22-18 or 15x22x31, a move number or a result")]
    BadToken {
        /// What was found.
        found: String,
    },
    /// A move the rules do not allow where it is played.
    #[error("move {text}: {reason}")]
    BadMove {
        /// The move as written.
        text: String,
        /// Why it is not the move of a legal game.
        reason: PathError,
    },
}

/// An error at a line and column of a PDN text (both from 1).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{line}:{column}: {kind}")]
pub struct PdnError {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1, counted in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: PdnErrorKind,
}

/// A game being read, with where its parts were found (for messages about it later).
#[derive(Clone, Debug)]
pub struct ReadGame {
    /// The game.
    pub game: Game,
    /// Line and column where the game's first tag or move starts.
    pub at: (usize, usize),
}

/// The reader's state: the text, the byte offset, the games so far and the one in progress.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    games: Vec<ReadGame>,
    current: Option<ReadGame>,
    /// The current game has ended with a result; what follows belongs to a new game.
    finished: bool,
    /// The current game has moves, so a tag starts a new game.
    has_moves: bool,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<char> {
        self.text.get(self.at..).and_then(|s| s.chars().next())
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.at += c.len_utf8();
        }
    }

    fn error_at(&self, offset: usize, kind: PdnErrorKind) -> PdnError {
        let (line, column) = line_column(self.text, offset);
        PdnError { line, column, kind }
    }

    /// The game moves and tags go to, starting a new one where needed.
    fn game(&mut self, starting_with_tag: bool, offset: usize) -> &mut Game {
        let new_needed =
            self.current.is_none() || self.finished || (starting_with_tag && self.has_moves);
        if new_needed {
            if let Some(done) = self.current.take() {
                self.games.push(done);
            }
            self.finished = false;
            self.has_moves = false;
        }
        let at = line_column(self.text, offset);
        let read = self.current.get_or_insert_with(|| ReadGame {
            game: Game {
                tags: Vec::new(),
                ..Game::new(Position::start())
            },
            at,
        });
        &mut read.game
    }

    /// Reads `[Name "value"]` starting at `[`.
    fn tag(&mut self) -> Result<(), PdnError> {
        let start = self.at;
        self.bump();
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        let name_start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let name = self.text[name_start..self.at].to_string();
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        if name.is_empty() || self.peek() != Some('"') {
            return Err(self.error_at(
                if name.is_empty() { name_start } else { self.at },
                PdnErrorKind::BadTag {
                    found: found_at(self.text, start),
                },
            ));
        }
        self.bump();
        let value_start = self.at;
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    return Err(self.error_at(
                        value_start - 1,
                        PdnErrorKind::Unclosed { what: "tag value" },
                    ))
                }
                Some('\\') => {
                    self.bump();
                    if let Some(c) = self.peek() {
                        value.push(c);
                        self.bump();
                    }
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(self.error_at(
                self.at,
                PdnErrorKind::BadTag {
                    found: found_at(self.text, self.at),
                },
            ));
        }
        self.bump();
        self.apply_tag(&name, value, start, value_start)
    }

    /// Records a tag in the current game; `FEN` sets the start, `Result` the result.
    fn apply_tag(
        &mut self,
        name: &str,
        value: String,
        start: usize,
        value_start: usize,
    ) -> Result<(), PdnError> {
        match name {
            "FEN" => {
                let pos = fen::parse(&value).map_err(|e| {
                    // Line 1 of the value is on the tag's line, from its first character.
                    let (line, column) = line_column(self.text, value_start);
                    PdnError {
                        line: line + e.line - 1,
                        column: if e.line == 1 {
                            column + e.column - 1
                        } else {
                            e.column
                        },
                        kind: PdnErrorKind::Fen(e.kind),
                    }
                })?;
                self.game(true, start).start = pos;
            }
            "Result" => {
                let result = GameResult::parse(value.trim()).unwrap_or(GameResult::Unknown);
                self.game(true, start).result = result;
            }
            "SetUp" => {
                self.game(true, start);
            }
            "GameType" => {
                let kind = value.split(',').next().unwrap_or("").trim();
                if !kind.is_empty() && kind != "21" {
                    return Err(self.error_at(
                        value_start,
                        PdnErrorKind::GameType {
                            found: value.clone(),
                        },
                    ));
                }
                self.game(true, start).set_tag(name, &value);
            }
            _ => self.game(true, start).set_tag(name, &value),
        }
        Ok(())
    }

    /// Reads a `{comment}` and attaches it to the last move of the current game.
    fn comment(&mut self) -> Result<(), PdnError> {
        let start = self.at;
        self.bump();
        let body_start = self.at;
        let Some(len) = self.text[body_start..].find('}') else {
            return Err(self.error_at(start, PdnErrorKind::Unclosed { what: "comment" }));
        };
        let body = clean_comment(&self.text[body_start..body_start + len]);
        self.at = body_start + len + 1;
        if let Some(read) = &mut self.current {
            if !self.finished {
                if let Some(slot) = read.game.comments.last_mut() {
                    *slot = Some(match slot.take() {
                        Some(before) => format!("{before} {body}"),
                        None => body,
                    });
                }
            }
        }
        Ok(())
    }

    /// Skips a `( ... )` variation, which may nest and hold comments.
    fn variation(&mut self) -> Result<(), PdnError> {
        let start = self.at;
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            self.bump();
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' => {
                    let Some(len) = self.text[self.at..].find('}') else {
                        break;
                    };
                    self.at += len + 1;
                }
                _ => {}
            }
        }
        Err(self.error_at(start, PdnErrorKind::Unclosed { what: "variation" }))
    }

    /// Reads one word of movetext: a move number, a move, a result or an annotation.
    fn word(&mut self) -> Result<(), PdnError> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !"{}()[];".contains(c))
        {
            self.bump();
        }
        let word = &self.text[start..self.at];
        if word.is_empty() {
            // A stray closing bracket or brace.
            return Err(self.error_at(
                start,
                PdnErrorKind::BadToken {
                    found: found_at(self.text, start),
                },
            ));
        }
        if let Some(result) = GameResult::parse(word) {
            self.game(false, start).result = result;
            self.finished = true;
            return Ok(());
        }
        if word.starts_with('$') && word[1..].bytes().all(|b| b.is_ascii_digit()) {
            return Ok(());
        }
        // A move number, possibly glued to the move: `12.`, `12...`, `12.22-18`.
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        let (mv_start, mv) = if digits > 0 && dots > 0 {
            (start + digits + dots, &word[digits + dots..])
        } else {
            (start, word)
        };
        let mv = mv.trim_end_matches(['!', '?', '+', '*']);
        if mv.is_empty() {
            return if dots > 0 {
                Ok(())
            } else {
                Err(self.error_at(
                    start,
                    PdnErrorKind::BadToken {
                        found: format!("{word:?}"),
                    },
                ))
            };
        }
        let Some(path) = parse_path(mv) else {
            return Err(self.error_at(
                mv_start,
                PdnErrorKind::BadToken {
                    found: format!("{mv:?}"),
                },
            ));
        };
        let text = mv.to_string();
        let game = self.game(false, start);
        let pos = game.end();
        match move_from_path(&pos, &path) {
            Ok(m) => {
                game.push(m, None);
                self.has_moves = true;
                Ok(())
            }
            Err(reason) => Err(self.error_at(mv_start, PdnErrorKind::BadMove { text, reason })),
        }
    }

    fn run(mut self) -> Result<Vec<ReadGame>, PdnError> {
        while let Some(c) = self.peek() {
            let line_start = self.at == 0 || self.text[..self.at].ends_with('\n');
            match c {
                c if c.is_whitespace() => self.bump(),
                '%' if line_start => self.skip_line(),
                ';' => self.skip_line(),
                '[' => self.tag()?,
                '{' => self.comment()?,
                '(' => self.variation()?,
                _ => self.word()?,
            }
        }
        if let Some(done) = self.current.take() {
            self.games.push(done);
        }
        if self.games.is_empty() {
            return Err(self.error_at(0, PdnErrorKind::NoGames));
        }
        Ok(self.games)
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }
}

/// Reads every game of a PDN text, with where each one starts.
pub fn parse_games_located(text: &str) -> Result<Vec<ReadGame>, PdnError> {
    let reader = Reader {
        text,
        at: 0,
        games: Vec::new(),
        current: None,
        finished: false,
        has_moves: false,
    };
    reader.run()
}

/// Reads every game of a PDN text.
pub fn parse_games(text: &str) -> Result<Vec<Game>, PdnError> {
    Ok(parse_games_located(text)?
        .into_iter()
        .map(|r| r.game)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_position() -> Position {
        fen::parse("W:WK19,K23:BK28,12").unwrap()
    }

    #[test]
    fn writes_setup_tags_moves_comments_and_result() {
        let start = fen::parse("W:W22:B18,11,1").unwrap();
        let mv = legal_moves(&start)[0];
        let mut game = Game::new(start);
        game.set_tag("Event", "a \"test\"");
        game.push(mv, Some("red wins in 1".into()));
        game.result = GameResult::RedWins;
        let text = write_game(&game).unwrap();
        assert_eq!(
            text,
            "[Event \"a \\\"test\\\"\"]\n[Date \"????.??.??\"]\n[Round \"-\"]\n[White \"?\"]\n\
             [Black \"?\"]\n[GameType \"21\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"W:W22:B1,11,18\"]\n\n\
             1. 22x15x8 {red wins in 1} 1-0\n"
        );
        assert_eq!(parse_games(&text).unwrap(), vec![game]);
    }

    #[test]
    fn black_first_is_numbered_with_an_ellipsis() {
        let start = first_position().with_side_to_move(Color::Black);
        let mut game = Game::new(start);
        let mut pos = start;
        for _ in 0..5 {
            let mv = legal_moves(&pos)[0];
            game.push(mv, None);
            pos = pos.play(mv);
        }
        let text = write_game(&game).unwrap();
        assert!(text.contains("\n1... "), "{text}");
        assert!(text.contains(" 2. "), "{text}");
        assert_eq!(parse_games(&text).unwrap(), vec![game]);
    }

    #[test]
    fn several_games_and_foreign_spellings() {
        let text = "[Event \"one\"]\n[FEN \"W:W21-32:B1-12\"]\n1. 22-18 11-15 {forced?} \
                    ; a line comment\n2.18x11 (2. 26x17 {other}) $1 8x15 *\n\n\
                    [Event \"two\"]\n% an escape line\n1. 22-18! 2-0\n";
        let games = parse_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].start, Position::start());
        assert_eq!(games[0].comments[1].as_deref(), Some("forced?"));
        assert_eq!(games[0].result, GameResult::Unknown);
        assert_eq!(games[1].tag("Event"), Some("two"));
        assert_eq!(games[1].result, GameResult::RedWins);
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases: [(&str, usize, usize); 8] = [
            ("", 1, 1),
            ("[Event \"x\"\n", 1, 11),
            ("[Event \"x]\n", 1, 8),
            ("[FEN \"W:W33:B1\"]\n", 1, 10),
            ("[FEN \"W:W22:B18\"]\n1. 22-17\n", 2, 4),
            ("1. 22-18 hello\n", 1, 10),
            ("1. 22-18 {open\n", 1, 10),
            ("1. 22-18 ) 11-15\n", 1, 10),
        ];
        for (text, line, column) in cases {
            let err = parse_games(text).unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{text:?}: {err}");
        }
        let err = parse_games("[FEN \"W:W22:B18\"]\n1. 22-17\n").unwrap_err();
        assert!(err.to_string().contains("legal moves: 22x15"), "{err}");
    }

    #[test]
    fn from_states_recovers_the_moves() {
        let start = first_position();
        let mut states = vec![start];
        let mut pos = start;
        for _ in 0..6 {
            let Some(&mv) = legal_moves(&pos).first() else {
                break;
            };
            pos = pos.play(mv);
            states.push(pos);
        }
        let game = Game::from_states(&states).unwrap();
        assert_eq!(game.positions(), states);
        let mut broken = states.clone();
        broken.swap(1, 2);
        assert_eq!(Game::from_states(&broken), Err(NotAGame { index: 2 }));
    }
}
