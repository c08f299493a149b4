"""Tests of the `checkers_engine` package: `pytest python/tests` after `pip install ./python`.

The messages of bad inputs are compared with the command line's when its binary is at hand
(`$CHECKERS_BIN`, else `target/release/checkers` or `target/debug/checkers` of this checkout);
otherwise that comparison is skipped, with its reason, and the messages written here are
checked alone.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import checkers_engine as ce
from checkers_engine import Move, Position

REPO = Path(__file__).resolve().parents[2]


def read(relative):
    return (REPO / relative).read_text()


def cli_binary():
    chosen = os.environ.get("CHECKERS_BIN")
    if chosen:
        return Path(chosen)
    for profile in ("release", "debug"):
        candidate = REPO / "target" / profile / "checkers"
        if candidate.is_file():
            return candidate
    return None


# --- positions and moves -------------------------------------------------------------------


def test_start_position_has_seven_moves():
    start = Position.start()
    moves = start.legal_moves()
    assert len(moves) == 7
    assert sorted(str(m) for m in moves) == sorted(
        ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    )
    assert start.side_to_move == "red"
    assert all(isinstance(m, Move) and not m.is_capture for m in moves)


def perft_counts():
    """The published counts of `tests/data/perft-start.txt` (OEIS A133046), depths 1-6."""
    counts = {}
    for line in read("tests/data/perft-start.txt").splitlines():
        if line.strip() and not line.startswith("#"):
            depth, count = line.split()
            counts[int(depth)] = int(count)
    return [(d, counts[d]) for d in range(1, 7)]


@pytest.mark.parametrize("depth,count", perft_counts())
def test_perft_from_the_start(depth, count):
    assert Position.start().perft(depth) == count


def test_perft_zero_and_too_deep():
    assert Position.start().perft(0) == 1
    with pytest.raises(ValueError, match="depth 31"):
        Position.start().perft(31)


def test_play_accepts_a_move_or_its_notation():
    start = Position.start()
    by_move = start.play(next(m for m in start.legal_moves() if str(m) == "22-18"))
    by_text = start.play("22-18")
    assert by_move == by_text
    assert hash(by_move) == hash(by_text)
    assert by_move.side_to_move == "black"
    assert by_move != start
    assert len({start, by_move, by_text}) == 2


def test_a_capture_that_crowns():
    # A red man on 10 jumps the black man on 6 and lands on 1, red's crowning row.
    pos = Position.from_fen("W:W10:B6,28")
    (capture,) = pos.legal_moves()
    assert str(capture) == "10x1"
    assert capture.is_capture and capture.crowns
    assert capture.path == [10, 1]
    after = pos.play(capture)
    assert after.fen() == "B:WK1:B28"
    assert after.board().splitlines()[0] == ".R......"


def test_a_multi_jump_names_every_landing_square():
    # Red's man on 27 takes 23 and 15: 27x18x11 and no shorter stop.
    pos = Position.from_fen("W:W27:B23,15,1")
    (jump,) = pos.legal_moves()
    assert str(jump) == "27x18x11"
    assert jump.path == [27, 18, 11]
    assert pos.play("27x18x11") == pos.play("27x11") == pos.play(jump)


def test_moves_of_another_position_are_refused():
    start = Position.start()
    other = start.play("22-18")
    with pytest.raises(ValueError, match="not a legal move for black here"):
        other.play(start.legal_moves()[0])


# --- FEN and board text ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:WK19,K23:B12,K28",
        "B:W18,K30:B3,K14",
        "W:W32:B1",
    ],
)
def test_fen_round_trips(fen):
    pos = Position.from_fen(fen)
    assert pos.fen() == fen
    assert Position.from_fen(pos.fen()) == pos
    assert Position.parse(fen) == pos


def test_fen_round_trips_along_a_game():
    pos = Position.start()
    for _ in range(40):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[len(moves) // 2])
        assert Position.from_fen(pos.fen()) == pos


def test_start_is_the_standard_fen():
    assert Position.start() == Position.from_fen("W:W21-32:B1-12")


def test_board_text_round_trips():
    text = read("puzzles/p03.txt")
    pos = Position.from_board(text)
    assert pos.board() == text
    assert str(pos) == text
    assert Position.from_board(pos.board()) == pos
    assert pos.side_to_move == "red"
    assert Position.parse(text) == pos
    assert eval(repr(pos), {"Position": Position}) == pos


# --- the solver --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["p01", "p03", "black-wins-kings-2v1", "draw-king-vs-king"])
def test_a_shipped_puzzle_gives_the_command_lines_bytes(name):
    puzzle = read(f"puzzles/{name}.txt")
    expected = read(f"expected/{name}.txt")
    solution = ce.solve(puzzle)
    assert solution.text() == expected
    assert solution.states[0] == Position.from_board(puzzle)
    assert len(solution.states) == solution.plies + 1 == len(solution.moves) + 1
    # The moves lead from each state to the next.
    for before, move, after in zip(solution.states, solution.moves, solution.states[1:]):
        assert before.play(move) == after


def test_p03_is_a_proven_red_win_in_seven():
    solution = ce.solve(Position.from_board(read("puzzles/p03.txt")))
    assert solution.winner == "red"
    assert solution.proven
    assert solution.plies == 7
    assert solution.summary().startswith("red wins after 7 plies (proven optimal); 8 states; ")
    assert solution.text("fen").count("\n") == 8
    assert '[Result "1-0"]' in solution.text("pdn") or "1-0" in solution.text("pdn")


def test_solve_defaults_are_the_command_lines():
    # `checkers --inputfile` chooses unproven moves with the trained tables unless told
    # `--eval puzzle`, and grows its table to 64 MiB (`--tt-mb`).
    import inspect

    parameters = inspect.signature(ce.solve).parameters
    assert parameters["eval"].default == "trained"
    assert parameters["tt_mb"].default == 64
    assert parameters["time_limit"].default == 50.0
    assert parameters["nodes_per_move"].default == 100_000


def test_the_evaluation_of_unproven_moves_leaves_a_proven_line_alone():
    puzzle = read("puzzles/p03.txt")
    assert ce.solve(puzzle, eval="trained").text() == ce.solve(puzzle).text()


def test_a_draw_has_no_winner():
    solution = ce.solve(read("puzzles/draw-king-vs-king.txt"))
    assert solution.winner is None


# --- the engine ----------------------------------------------------------------------------------


def test_think_gives_a_legal_move():
    start = Position.start()
    move = ce.think(start, nodes=20_000)
    assert move in start.legal_moves()
    assert ce.think(start, depth=4) in start.legal_moves()
    assert ce.think(start, time_ms=50) in start.legal_moves()
    # A node budget is deterministic.
    assert ce.think(start, nodes=20_000) == move


def test_think_takes_the_only_capture():
    pos = Position.from_fen("W:W10:B6,28")
    assert str(ce.think(pos, depth=3)) == "10x1"


def test_think_returns_none_without_legal_moves():
    # Black has no piece left.
    pos = Position.from_fen("W:W10:B6").play("10x1")
    assert pos.legal_moves() == []
    assert ce.think(pos, depth=2) is None


# --- verify --------------------------------------------------------------------------------------


def test_verify_accepts_the_expected_line():
    verdict = ce.verify(read("puzzles/p03.txt"), read("expected/p03.txt"))
    assert verdict.valid
    assert verdict.optimal is True
    assert "optimal" in verdict.message


def test_verify_reads_every_format_the_solver_writes():
    puzzle = read("puzzles/p03.txt")
    solution = ce.solve(puzzle)
    for fmt in ["text", "pdn", "fen"]:
        verdict = ce.verify(puzzle, solution.text(fmt))
        assert verdict.valid, fmt
        assert verdict.optimal is True, fmt


def test_eval_hand_is_the_puzzle_set():
    puzzle = read("puzzles/p03.txt")
    assert ce.solve(puzzle, eval="hand").text() == ce.solve(puzzle, eval="puzzle").text()


def test_verify_names_an_illegal_state():
    states = read("expected/p03.txt").split("\n\n")
    broken = "\n\n".join(states[:2] + states[3:])
    verdict = ce.verify(read("puzzles/p03.txt"), broken)
    assert not verdict.valid
    assert verdict.optimal is None
    assert "state 3" in verdict.message


# --- pictures ------------------------------------------------------------------------------------


def test_repr_svg_parses_as_svg():
    svg = Position.start()._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
    assert ET.fromstring(Position.start().svg(numbers=True)) is not None


# --- bad input -----------------------------------------------------------------------------------

BAD_INPUTS = [
    # (what, the text, the message after the file name)
    (
        "bad character",
        "........\n....x...\n" + "........\n" * 6,
        ":2:5: found 'x'; expected one of . r R b B",
    ),
    ("short board", "........\n", ":2:1: the board ends after row 1; expected 8 rows"),
    ("empty", "", ":1:1: the file is empty; expected 8 rows of 8 cells"),
    (
        "long row",
        "........\n" * 7 + ".......r.\n",
        ":8:9: the row has 9 cells; expected 8",
    ),
    (
        "bad FEN square",
        "W:W21,x:B1\n",
        ':1:7: found "x:B1"; expected a square number from 1 to 32',
    ),
    (
        "black to move",
        "B:W21:B1\n",
        ":1:1: black is to move here; a puzzle must have red (W) to move",
    ),
    (
        "illegal PDN move",
        '[FEN "W:W21:B1"]\n1. 22-18 *\n',
        ":2:4: move 22-18: not a legal move for red here; legal moves: 21-17",
    ),
]


@pytest.mark.parametrize("what,text,message", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_puzzles_raise_the_command_lines_message(what, text, message):
    with pytest.raises(ValueError) as raised:
        ce.solve(text)
    assert str(raised.value) == "<string>" + message


@pytest.mark.parametrize("what,text,message", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_puzzles_match_the_binary(what, text, message, tmp_path):
    binary = cli_binary()
    if binary is None:
        pytest.skip("no checkers binary: set CHECKERS_BIN or build target/release/checkers")
    puzzle = tmp_path / "in.txt"
    puzzle.write_text(text)
    run = subprocess.run(
        [str(binary), "--inputfile", "in.txt", "--outputfile", "out.txt"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert run.stderr == f"checkers: error: in.txt{message}\n"


def test_bad_board_and_fen_constructors():
    with pytest.raises(ValueError) as raised:
        Position.from_board("........\n....x...\n" + "........\n" * 6)
    assert str(raised.value) == "<string>:2:5: found 'x'; expected one of . r R b B"
    with pytest.raises(ValueError) as raised:
        Position.from_fen("W:W21,x:B1")
    assert str(raised.value) == '<string>:1:7: found "x:B1"; expected a square number from 1 to 32'
    with pytest.raises(ValueError, match=r"^<string>:"):
        Position.parse("W:W33:B1")


def test_black_to_move_is_refused_by_the_solver():
    pos = Position.from_fen("B:W21:B1")
    with pytest.raises(ValueError, match="a puzzle must have red"):
        ce.solve(pos)
    # The engine takes either side.
    assert ce.think(pos, depth=2) in pos.legal_moves()


def test_bad_moves():
    start = Position.start()
    with pytest.raises(ValueError, match="not a move in standard notation"):
        start.play("e3-d4")
    with pytest.raises(ValueError, match="not a move in standard notation"):
        start.play("22-17x")
    with pytest.raises(ValueError) as raised:
        start.play("21-18")
    assert "not a legal move for red here; legal moves: " in str(raised.value)
    with pytest.raises(TypeError):
        start.play(22)


def test_bad_solution_text_names_the_string():
    with pytest.raises(ValueError) as raised:
        ce.verify(read("puzzles/p03.txt"), "........\n....x...\n" + "........\n" * 6)
    assert str(raised.value) == "<string>:2:5: found 'x'; expected one of . r R b B"


@pytest.mark.parametrize(
    "call",
    [
        lambda: ce.solve(Position.from_board(read("puzzles/p03.txt")), time_limit=0),
        lambda: ce.solve(Position.from_board(read("puzzles/p03.txt")), time_limit=float("nan")),
        lambda: ce.solve(Position.from_board(read("puzzles/p03.txt")), nodes_per_move=0),
        lambda: ce.solve(Position.from_board(read("puzzles/p03.txt")), eval="neural"),
        lambda: ce.think(Position.start(), time_ms=10, nodes=10),
        lambda: ce.think(Position.start(), depth=0),
        lambda: ce.verify(read("puzzles/p03.txt"), read("expected/p03.txt"), max_mb=1),
        lambda: ce.solve(read("puzzles/p01.txt")).text("html"),
    ],
    ids=["time 0", "time nan", "no nodes", "no such eval", "two limits", "depth 0", "1 MiB", "format"],
)
def test_bad_options_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_light_cells_have_no_fen():
    pos = Position.from_board(read("puzzles/light-cells-kings-2v1.txt"))
    assert pos.warnings()
    with pytest.raises(ValueError):
        pos.fen()
    solution = ce.solve(pos)
    assert solution.text() == read("expected/light-cells-kings-2v1.txt")
    with pytest.raises(ValueError, match='format="text"'):
        solution.text("pdn")


# --- Ctrl-C --------------------------------------------------------------------------------------

# A board the solver spends its whole budget on (tests/data/public/p34.txt: a loss seen 48
# plies deep, unproven in 42 s), given a time limit of 1000 s.
INTERRUPTED = {
    "solve": "ce.solve(open({puzzle!r}).read(), time_limit=1000)",
    "think": "ce.think(ce.Position.start(), time_ms=600000)",
}


@pytest.mark.parametrize("call", sorted(INTERRUPTED))
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(call):
    statement = INTERRUPTED[call].format(puzzle=str(REPO / "tests/data/public/p34.txt"))
    script = textwrap.dedent(
        f"""
        import signal, sys, time
        import checkers_engine as ce
        # A process started with SIGINT ignored (a background job of a script, as CI may be)
        # passes that on, and Python then installs no KeyboardInterrupt handler: install it.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("ready", flush=True)
        try:
            {statement}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.5)  # well into the search
        assert child.poll() is None, "the search ended before it was interrupted"
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        code = child.wait(timeout=10)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.stdout.read().strip() == "interrupted"
    assert code == 3
    assert waited < 1.0, f"{waited:.2f} s from SIGINT to exit"


# --- the README's example ------------------------------------------------------------------------


def test_the_readmes_example_runs_as_shown():
    readme = read("python/README.md")
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(example.strip().splitlines()) == 10
    # The repository's README shows the same ten lines.
    assert read("README.md").split("```python\n", 1)[1].split("```", 1)[0] == example
    run = subprocess.run(
        [sys.executable, "-c", example], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    first, last = run.stdout.splitlines()
    assert first.startswith("red wins in 7 plies: ")
    assert last == "black has no move and loses"
