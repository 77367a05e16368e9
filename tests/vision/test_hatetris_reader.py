"""The HATETRIS board reader (``vision.hatetris``).

There is no real screenshot of HATETRIS in the shared data, so there is no truth module: the
reader is checked on pictures of the official page drawn from facts about it
(``tests/vision/hatetris_looks.py``: the page's colours, sizes and layout, its text in both looks a
real page can have: Arial as Arial or Liberation Sans shows it, and DejaVu Sans where Arial is
missing, each from a font file shipped in assets/fonts) and on Kibitz's own HATETRIS view
rendered offscreen. Expected cells come from the positions put into the pictures
(wells the engine reaches by playing placements, live cells from the spec's piece table 1.2),
never from the reader's output.
"""

from __future__ import annotations

import json
import random
import time

import cv2
import numpy as np
import pytest

from app.gui.games.hatetris.layout import widget_size
from engines.hatetris import GAME, Placement, fast, reference
from engines.hatetris.pieces import PIECE_INDEX
from engines.hatetris.state import DEFAULT_RULES
from tests.vision.hatetris_looks import LOOKS, expected_cells, live_cells, official_page, with_noise
from tests.vision.render import render_board
from vision import NoBoardFound, read
from vision.hatetris import digit_templates

EMPTY_WELL = (0,) * 20


def _played(moves: int, seed: int):
    """The state after ``moves`` placements, each the lowest legal one (ties broken by a seeded
    coin), so the stack is varied but the game goes on."""
    coin = random.Random(seed)
    state = GAME.initial_state()
    for _ in range(moves):
        options = GAME.legal_moves(state)
        state = GAME.play(state, max(options, key=lambda m: (m.y, coin.random()))).state
        assert not state.over
    return state


def _with_score(state, score: int):
    """``state`` with another score of the same parity (what a player with more lines would show)."""
    assert (score - state.score) % 2 == 0
    header, *rows = GAME.board_text(state).splitlines()
    return GAME.parse_board("\n".join([f"score {score} · next {state.piece}", *rows]))


def _falling(state, index: int, lift: int) -> Placement:
    """A live piece mid-fall: the ``index``-th legal placement of the state's piece, lifted up to
    ``lift`` rows while it still fits."""
    moves = GAME.legal_moves(state)
    move = moves[index % len(moves)]
    piece = PIECE_INDEX[move.piece]
    y = move.y
    while y > move.y - lift and reference.fits(state.well, DEFAULT_RULES, piece, move.x, y - 1, move.o):
        y -= 1
    return Placement(move.piece, move.x, y, move.o)


@pytest.fixture(scope="module")
def positions():
    """name -> (state, live placement or None)."""
    opening = GAME.initial_state()
    middle = _played(22, seed=1)
    played = _played(30, seed=2)
    late = _with_score(played, 1234 + played.score % 2)
    return {
        "opening at spawn": (opening, Placement(opening.piece, 3, 0, 0)),
        "middle, piece falling": (middle, _falling(middle, 7, 3)),
        "late, four-digit score": (late, _falling(late, 3, 1)),
    }


@pytest.fixture(scope="module")
def game_over():
    """The all-Down game of spec 2.4: nine pieces dropped straight down, game over at 0 lines."""
    replay = fast.replay_keys("D" * 90, DEFAULT_RULES)
    assert replay.over and replay.score == 0
    return replay.well


def _cells_of(state, live: Placement | None):
    return expected_cells(state.well, live_cells(live.piece, live.x, live.y, live.o) if live else [])


def _page(state, live: Placement | None, **options):
    cells = live_cells(live.piece, live.x, live.y, live.o) if live else []
    return official_page(state.well, state.score, cells, **options)


def _check(reading, state, live: Placement | None) -> None:
    assert reading.cells == _cells_of(state, live)
    assert reading.state.well == state.well
    assert reading.state.score == state.score
    if live is not None:
        assert reading.state.piece == live.piece
        found = reading.diagnostics["live_piece"]
        assert found["piece"] == live.piece
        assert [live.x, live.y, live.o] in found["states"]


def _resized(image: np.ndarray, factor: float) -> np.ndarray:
    interpolation = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=interpolation)


# -- the official page's look --------------------------------------------------------------------
@pytest.mark.parametrize("look", list(LOOKS))
@pytest.mark.parametrize("zoom", [1.0, 1.25, 2.0])
@pytest.mark.parametrize("name", ["opening at spawn", "middle, piece falling", "late, four-digit score"])
def test_the_official_page_is_read_cell_for_cell_with_its_score(qapp, positions, name, zoom, look):
    state, live = positions[name]
    reading = read("hatetris", _page(state, live, scale=zoom, font_file=LOOKS[look]))
    _check(reading, state, live)
    assert reading.diagnostics["score_source"] == "page"
    assert reading.doubtful == []
    assert reading.diagnostics["well"]["cell_width"] == pytest.approx(20 * zoom, abs=0.2)
    assert reading.diagnostics["well"]["left"] == pytest.approx(50 * zoom, abs=1)


@pytest.mark.parametrize("look", list(LOOKS))
@pytest.mark.parametrize("factor", [0.5, 0.6, 1.7, 2.5])
def test_a_resized_noisy_screenshot_reads_the_same(qapp, positions, factor, look):
    state, live = positions["middle, piece falling"]
    image = with_noise(_resized(_page(state, live, font_file=LOOKS[look]), factor), sigma=4, seed=round(factor * 10))
    reading = read("hatetris", image)
    _check(reading, state, live)
    assert reading.doubtful == []
    assert reading.diagnostics["well"]["cell_width"] == pytest.approx(20 * factor, rel=0.03)


@pytest.mark.parametrize("look", list(LOOKS))
def test_the_older_page_with_symbols_in_the_well_and_an_ai_line(qapp, positions, look):
    # an earlier page drew six white control symbols in the well's top-left cells; the cells
    # are still empty, only less sure. "AI: ..." above the score is not the score.
    state, live = positions["late, four-digit score"]
    reading = read("hatetris", _page(state, live, buttons_in_well=True, enemy="HATETRIS", font_file=LOOKS[look]))
    _check(reading, state, live)
    assert all(row < 2 and column < 3 for row, column in reading.doubtful)


def test_a_dark_page_around_the_well_places_it_by_its_bar(qapp, positions):
    # a dark-mode extension: the page (not the well) inverted, so the black well has no frame
    state, live = positions["middle, piece falling"]
    image = _page(state, live)
    outside = np.ones(image.shape[:2], bool)
    outside[50:450, 50:250] = False
    image[outside] = 255 - image[outside]
    reading = read("hatetris", image)
    _check(reading, state, live)
    assert reading.diagnostics["well"]["found_by"] == "bar"


def test_a_finished_game_shows_the_stack_above_the_bar_and_no_piece(qapp, game_over):
    image = official_page(game_over, 0)
    reading = read("hatetris", image)
    assert reading.cells == expected_cells(game_over)
    assert any(reading.cells[row] != [0] * 10 for row in range(4))  # the stack reaches the buffer
    assert reading.state.over and reading.state.well == game_over
    assert reading.diagnostics["live_piece"] is None and reading.diagnostics["game_over"]


def test_the_page_before_a_game_the_empty_well_and_the_ais_first_piece(qapp):
    reading = read("hatetris", official_page(EMPTY_WELL, None))
    assert reading.cells == expected_cells(EMPTY_WELL)
    assert reading.state.well == EMPTY_WELL and reading.state.score == 0
    assert reading.state.piece == "S"  # spec 1.6: the AI's first piece
    assert "AI" in reading.diagnostics["piece_source"]
    assert reading.diagnostics["score"] is None and reading.diagnostics["score_source"].startswith("assumed")


def test_s_and_i_live_cells_give_both_of_their_states(qapp):
    # spec 1.2: S o=2 covers the cells of S o=0 one column to the right; I o=3 those of I o=1
    for piece, x, y, o, twin in (("S", 2, 6, 0, [3, 6, 2]), ("I", 4, 5, 1, [5, 5, 3])):
        reading = read("hatetris", official_page(EMPTY_WELL, 0, live_cells(piece, x, y, o)))
        found = reading.diagnostics["live_piece"]
        assert found["piece"] == piece
        assert sorted(found["states"]) == sorted([[x, y, o], twin])
        assert not found["at_spawn"]


def test_live_cells_that_are_no_piece_are_doubtful(qapp):
    cells = [(4, 8), (5, 8), (6, 8)]  # three red cells
    reading = read("hatetris", official_page(EMPTY_WELL, 0, cells))
    assert reading.diagnostics["live_piece"] is None
    assert "3 live cells" in reading.diagnostics["live_piece_problem"]
    assert sorted(reading.doubtful) == [(8, 4), (8, 5), (8, 6)]


# -- Kibitz's own view ---------------------------------------------------------------------------
@pytest.mark.parametrize("cell", [14, 24, 40])
@pytest.mark.parametrize("name", ["opening at spawn", "late, four-digit score"])
def test_kibitzs_own_view_at_three_sizes_with_noise(qapp, positions, name, cell):
    state, _ = positions[name]
    size = widget_size(cell)
    image = render_board("hatetris", state, (size.width() + 9, size.height() + 5), noise=3, seed=cell)
    reading = read("hatetris", image)
    _check(reading, state, Placement(state.piece, 3, 0, 0))  # the view shows the piece at its spawn
    assert reading.diagnostics["well"]["found_by"] == "grid"
    assert reading.diagnostics["live_piece"]["at_spawn"]
    assert reading.doubtful == []


# -- previous ------------------------------------------------------------------------------------
def test_previous_settles_a_doubtful_cell_with_the_lock_it_allows(qapp, positions):
    before, _ = positions["middle, piece falling"]
    move = GAME.legal_moves(before)[5]
    after = GAME.play(before, move).state
    live = Placement(after.piece, 3, 0, 0)
    image = _page(after, live)
    x, y = live_cells(move.piece, move.x, move.y, move.o)[0]  # a cell of the piece just locked
    left, top = round(50 + 20 * x), round(50 + 20 * y)
    image[top + 4:top + 16, left + 4:left + 16] = (128, 128, 128)  # smudged: no colour of the well
    alone = read("hatetris", image)
    assert (y, x) in alone.doubtful
    settled = read("hatetris", image, previous=before)
    assert settled.doubtful == []
    assert settled.diagnostics["settled_by_previous"] == [[y, x]]
    _check(settled, after, live)


def test_previous_gives_the_score_when_the_page_shows_none(qapp, positions):
    before, _ = positions["late, four-digit score"]
    move = GAME.legal_moves(before)[0]
    after = GAME.play(before, move).state
    image = _page(after, Placement(after.piece, 3, 0, 0))[30:470, 30:270]  # the well only
    reading = read("hatetris", image, previous=before)
    assert reading.state.score == after.score
    assert reading.diagnostics["score_source"] == "previous"


# -- not a board ---------------------------------------------------------------------------------
def _not_boards() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    y = np.linspace(0, 1, 600)[:, None]
    x = np.linspace(0, 1, 800)[None, :]
    gradient = np.dstack([255 * x + 0 * y, 255 * y + 0 * x, 128 + 100 * np.sin(6 * x + 3 * y)])
    return {
        "white": np.full((600, 800, 3), 255, np.uint8),
        "grey": np.full((600, 800, 3), 128, np.uint8),
        "black, 4:3": np.zeros((600, 800, 3), np.uint8),
        "black, 1:2 like an empty well but without the bar": np.zeros((800, 400, 3), np.uint8),
        "noise": rng.integers(0, 256, (600, 800, 3), dtype=np.uint8),
        "gradient": gradient.astype(np.uint8),
        "tiny": np.zeros((20, 10, 3), np.uint8),
    }


@pytest.mark.parametrize("name", list(_not_boards()))
def test_images_without_a_well_are_no_board(name):
    with pytest.raises(NoBoardFound):
        read("hatetris", _not_boards()[name])


def test_other_games_real_screenshots_are_no_board(reference_data):
    paths = sorted((reference_data / "2048").glob("*.png")) + sorted((reference_data / "splt").glob("*.[pj][np]g"))
    assert len(paths) >= 5
    for path in paths:
        from vision.images import load

        with pytest.raises(NoBoardFound):
            read("hatetris", load(path))


# -- command line, speed, templates --------------------------------------------------------------
def test_kibitz_read_json(qapp, positions, tmp_path, capsys):
    from app.cli import main

    state, live = positions["middle, piece falling"]
    path = tmp_path / "hatetris.png"
    cv2.imwrite(str(path), _page(state, live))
    assert main(["read", "hatetris", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["game"] == "hatetris"
    assert payload["cells"] == _cells_of(state, live)
    assert payload["board"].splitlines()[0] == f"score {state.score} · next {live.piece}"
    assert payload["doubtful"] == [] and 0.6 <= payload["confidence"] <= 1
    assert payload["diagnostics"]["live_piece"]["piece"] == live.piece


def test_a_read_takes_at_most_100_ms(qapp, positions):
    state, live = positions["late, four-digit score"]
    page = _page(state, live)
    images = [page, _resized(page, 2.5), np.ascontiguousarray(np.tile(page, (2, 3, 1)))]  # the last 2160 x 1860
    for image in images:
        read("hatetris", image)
        times = []
        for _ in range(5):
            started = time.perf_counter()
            read("hatetris", image)
            times.append(time.perf_counter() - started)
        assert np.median(times) <= 0.100, (image.shape, times)


def test_the_digit_templates_are_what_their_script_renders(qapp):
    # the script renders the shipped font files, so this holds whatever fonts the machine has
    from assets.vision.hatetris.make_templates import STYLES, templates

    stored = digit_templates()
    assert stored.shape[:2] == (len(STYLES), 10)
    rendered = templates().astype(np.float32) / 255.0
    assert rendered.shape == (stored.shape[0] * stored.shape[2], stored.shape[1] * stored.shape[3])
    assert np.abs(rendered - (cv2.imread(_template_path(), cv2.IMREAD_GRAYSCALE) / 255.0)).mean() < 0.02


def test_each_look_is_drawn_with_its_shipped_font_file(qapp):
    from app.gui.games.hatetris.painting import score_font
    from assets.fonts import DEJAVU_SANS_BOLD, draws_with, qt_font
    from assets.vision.hatetris.make_templates import STYLES

    for _, font_file in STYLES:
        assert draws_with(qt_font(font_file, 16), font_file), font_file
    assert draws_with(score_font(24), DEJAVU_SANS_BOLD)  # the view's "score: N" is the third row's font


def _template_path() -> str:
    from importlib import resources

    return str(resources.files("assets.vision.hatetris").joinpath("digits.png"))


def test_a_capture_of_kibitzs_whole_window_reads_the_score_beside_the_advisor(qapp, reference_data):
    # Kibitz's window at piece 120 of David & Felipe's 86-point record, captured whole (the board
    # with its ghost, badge and key line, the advisor's table right of it) as `kibitz read` gets it
    # from a screenshot: the record's replay says the score is 40. The score's line ends where the
    # advisor panel starts (its white made the board's black look like ink: the score was unread).
    import csv

    from app.gui.capture import image_to_bgr
    from app.gui.main_window import MainWindow

    with open(reference_data / "hatetris" / "records.tsv", newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))
    replay = next(r["replay"] for r in rows if r["label"] == "David & Felipe (1)" and r["encoding"] == "Base2048")
    line = GAME.parse_sequence(replay)
    window = MainWindow("hatetris", remember_geometry=False, session_store=False)
    window.resize(1280, 900)
    window.apply_line(type(line)(line.start, line.moves[:120]))
    assert window.state.score == 40
    window_well = window.state.well
    image = image_to_bgr(window.grab().toImage())
    window.close()
    window.deleteLater()
    reading = read("hatetris", image)
    assert reading.state.score == 40 and reading.diagnostics["score_source"] == "page"
    assert "score" not in reading.doubtful_fields
    assert reading.state.well == window_well
