"""The checkers (English draughts) engine of the `checkers` project, from Python.

Positions, moves in standard notation, perft, the exact puzzle solver, the game engine, the
solution checker and SVG boards. Bad input raises ``ValueError`` with the command line's message,
``<string>`` standing where the command line names the file. ``solve`` and ``think`` run without
the GIL and stop within a second of Ctrl-C with ``KeyboardInterrupt``.
"""

from __future__ import annotations

import os
from typing import Literal, Optional, Union, final

_Side = Literal["red", "black"]

__all__ = ["Move", "Position", "Solution", "Verification", "solve", "think", "verify"]

@final
class Position:
    """A position: the pieces and the side to move. Immutable; equal positions compare equal and
    hash alike."""

    @staticmethod
    def start() -> Position:
        """The standard starting position: 12 men a side, red (squares 21-32) to move."""

    @staticmethod
    def from_fen(fen: str) -> Position:
        """A position from a FEN such as ``W:W21,22,K23:B1,2,3`` (``W``: red to move, red's
        squares written as White's, ``K`` for a king). Raises ``ValueError`` naming the line and
        column."""

    @staticmethod
    def from_board(text: str) -> Position:
        """A position from the puzzle's board text: 8 lines of 8 characters from ``.rRbB``, red
        to move. Raises ``ValueError`` naming the line and column, as the command line does
        (``<string>:2:5: found 'x'; expected one of . r R b B``)."""

    @staticmethod
    def parse(text: str) -> Position:
        """A position from any text the command line reads: a board, a FEN or a PDN game (the
        position after its moves), told apart by the content; either side to move."""

    def fen(self) -> str:
        """The position as a FEN. Raises ``ValueError`` when a piece stands on a light cell."""

    def board(self) -> str:
        """The position as the puzzle's board text: 8 lines of ``.rRbB``, each ending in a
        newline (the side to move is not written)."""

    @property
    def side_to_move(self) -> _Side:
        """``"red"`` or ``"black"``."""

    def warnings(self) -> list[str]:
        """The warnings the command line prints for this setup (pieces on light cells, more than
        12 pieces of a colour, a man on its own crowning row)."""

    def legal_moves(self) -> list[Move]:
        """The legal moves, in the move generator's order. Captures are mandatory; each
        multi-jump route is its own move. Empty when the side to move has lost."""

    def play(self, move: Union[Move, str]) -> Position:
        """The position after ``move``: a ``Move`` of this position or its standard notation
        (``"22-18"``, ``"22x15x8"``). Raises ``ValueError`` for an illegal move, listing the legal
        ones."""

    def perft(self, depth: int) -> int:
        """The number of leaf positions ``depth`` plies ahead (0 to 30), counted as
        ``checkers perft`` does by default: every capture route counts as its own move."""

    def svg(self, numbers: bool = False) -> str:
        """The board as an SVG picture; ``numbers`` writes each dark square's number."""

    def _repr_svg_(self) -> str:
        """The SVG picture, which a notebook shows."""

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Move:
    """A legal move of a position. ``str(move)`` is its standard notation with every landing
    square of a capture (``"22x15x8"``)."""

    @property
    def path(self) -> list[int]:
        """The squares passed, start, every landing square and end, as numbers 1-32."""

    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""

    @property
    def crowns(self) -> bool:
        """Whether the move crowns a man."""

    @property
    def position(self) -> Position:
        """The position the move is played from."""

    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Solution:
    """A solved puzzle: the whole game the command line writes, from the puzzle to its end."""

    @property
    def states(self) -> list[Position]:
        """Every state of the game, from the puzzle to the end."""

    @property
    def moves(self) -> list[str]:
        """The moves played, in standard notation."""

    @property
    def plies(self) -> int:
        """The number of moves (plies) played."""

    @property
    def winner(self) -> Optional[_Side]:
        """``"red"``, ``"black"``, or ``None`` for a draw."""

    @property
    def proven(self) -> bool:
        """Whether every searched move was proven optimal, so that the line is optimal."""

    @property
    def time_limited(self) -> bool:
        """Whether the time limit cut a move's search short."""

    @property
    def nodes(self) -> int:
        """Positions the search visited."""

    @property
    def seconds(self) -> float:
        """Wall time of the solve, in seconds."""

    def summary(self) -> str:
        """The line the command line prints on stderr after solving, e.g. ``red wins after 7
        plies (proven optimal); 8 states; 0.001 s (search 0.0 s, proof 0.0 s, analysis 0.0 s,
        backward pass 0.0 s); 489 nodes; table hit rate 74%``."""

    def text(self, format: Literal["text", "pdn", "fen"] = "text") -> str:
        """The solution as the command line writes it: ``"text"`` (the exact bytes of
        ``--outputfile``), ``"pdn"`` or ``"fen"``."""

@final
class Verification:
    """The verdict of ``verify``."""

    @property
    def valid(self) -> bool:
        """Every state follows by a legal move and the last one ends the game."""

    @property
    def optimal(self) -> Optional[bool]:
        """``True`` when every move is optimal, ``False`` when one is not, ``None`` when the
        positions were too large to decide (or the line is not valid)."""

    @property
    def message(self) -> str:
        """The report ``checkers verify`` prints."""

def solve(
    puzzle: Union[Position, str],
    time_limit: float = 50.0,
    *,
    nodes_per_move: int = 100_000,
    tt_mb: int = 64,
    depth: Optional[int] = None,
    draw_rule: bool = False,
    egdb: Union[str, os.PathLike[str], None] = None,
    eval: str = "trained",
) -> Solution:
    """Solves a puzzle as the command line does: red wins in the fewest moves, black resists as
    long as possible, and the whole game is played to its end.

    ``puzzle`` is a ``Position`` (red to move) or the text of a puzzle file (a board, a FEN or a
    PDN game); black to move raises ``ValueError``. The options are the command line's, with its
    defaults (``eval="trained"`` is ``--eval trained``); ``solve(text).text()`` is the command
    line's output. Ctrl-C stops it within a
    second with ``KeyboardInterrupt``."""

def think(
    position: Union[Position, str],
    time_ms: Optional[int] = None,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
) -> Optional[Move]:
    """The engine's move (``checkers think``): thinking ``time_ms`` milliseconds (default 1000),
    or ``nodes`` nodes, or to ``depth`` plies (at most one of the three). ``None`` when the side
    to move has no legal move. It reads the endgame databases of ``$CHECKERS_EGDB``, else of the
    platform's cache directory, when that directory exists."""

def verify(
    puzzle: Union[Position, str],
    solution_text: str,
    max_seconds: float = 30.0,
    max_mb: int = 1024,
) -> Verification:
    """Checks a solution as ``checkers verify`` does: legal moves, a finished game, and every move
    optimal (``optimal`` is ``None`` when the analysis does not fit ``max_seconds`` and
    ``max_mb``)."""
