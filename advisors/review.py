"""Reviewing a whole line: for every move, the advisor's evaluation of the position, its best move,
the move played and the loss (the played move's value against the best, on the advisor's own
scale), classed as an inaccuracy, a mistake or a blunder by thresholds each game writes down.

This module is the part every game shares: the rows (:class:`MoveReview`), the classes and their
thresholds, walking a line with progress and cancelling (:func:`review_line`), the summary
(accuracy, counts, the costliest moves) and the files (CSV, and JSON that reads back in). What a
move is worth is each game's reviewer, ``advisors.<game>.review`` (:func:`reviewer_for`).

A row's ``settings`` names how it was computed ("weights", "depth 3", "beam 16 x 40"); a row whose
settings differ from the reviewer's current ones is stale (the window shows it so).
"""

from __future__ import annotations

import csv
import dataclasses
import importlib
import io
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from engines.contract import Game, Line
from engines.errors import KibitzInputError, NotationError
from engines.limits import load_json, shown

FORMAT_VERSION = 1
FORMAT_NAME = "kibitz-review"

BEST = "best"  # the played move is worth as much as the best (loss 0)
GOOD = "good"  # below the inaccuracy threshold
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
CLASSES = (BEST, GOOD, INACCURACY, MISTAKE, BLUNDER)
#: The marks chess players know, so a class reads without its colour.
SYMBOLS = {BEST: "", GOOD: "", INACCURACY: "?!", MISTAKE: "?", BLUNDER: "??"}
FLAGGED = (INACCURACY, MISTAKE, BLUNDER)
#: The extra naming why a loss was not flagged.
EXCUSED = "not flagged"

#: The advisors' packages, keyed like engines.GAMES.
_REVIEWER_MODULES = {"splt": "advisors.splt.review", "hatetris": "advisors.hatetris.review",
                     "2048": "advisors.g2048.review", "1010": "advisors.tenten.review",
                     "destructo": "advisors.destructo.review"}
#: Values and losses stay far inside a double's exact range; anything larger in a file is damage.
MAX_VALUE = 1e15
#: The most rows a review file may hold (the longest records are a few thousand moves).
MAX_ROWS = 1_000_000
#: Two values closer than this share of their size are one value: a search adding the same
#: numbers in another order differs in the last bits (2048: 1607973.6775593658 and ...365).
EQUAL_SHARE = 1e-9


@dataclasses.dataclass(frozen=True)
class Thresholds:
    """Where the classes start, on the game's ``measure`` of a move's cost: the loss itself, or
    (``relative``) the loss as a share of the position's value. ``meaning`` says in words why
    these numbers (shown beside the review)."""

    inaccuracy: float
    mistake: float
    blunder: float
    unit: str
    meaning: str
    relative: bool = False

    def measure(self, loss: float, value: float) -> float:
        """What the thresholds are compared with."""
        if not self.relative:
            return loss
        return loss / value if value > 0 else (0.0 if loss <= 0 else math.inf)

    def classify(self, loss: float, value: float) -> str:
        if loss <= 0:
            return BEST
        measured = self.measure(loss, value)
        if measured >= self.blunder:
            return BLUNDER
        if measured >= self.mistake:
            return MISTAKE
        if measured >= self.inaccuracy:
            return INACCURACY
        return GOOD

    def amount(self, measured: float) -> str:
        # a share to three figures: 2048's inaccuracy starts at 0.5 %, which a whole percent shows as 0 %
        return f"{measured * 100:.3g}%" if self.relative else f"{measured:g} {self.unit}"

    def describe(self) -> str:
        """``inaccuracy ≥ 10 weight, mistake ≥ 30 weight, blunder ≥ 80 weight``."""
        return (f"{INACCURACY} {SYMBOLS[INACCURACY]} ≥ {self.amount(self.inaccuracy)}, "
                f"{MISTAKE} {SYMBOLS[MISTAKE]} ≥ {self.amount(self.mistake)}, "
                f"{BLUNDER} {SYMBOLS[BLUNDER]} ≥ {self.amount(self.blunder)}")


@dataclasses.dataclass(frozen=True)
class Judgement:
    """What a game's reviewer says of one move: the best move and its value (the position's
    evaluation), the played move's value, and extra figures of the game's own (name, value).
    ``excused`` says why a loss is not flagged when a deeper look clears the move (HATETRIS: the
    beam reaches as many lines after it as after the best)."""

    best: Any
    value: float
    played_value: float
    extras: tuple[tuple[str, float | int | str], ...] = ()
    excused: str = ""


class Reviewer(Protocol):
    """A game's reviewer (``advisors.<game>.review.Reviewer``)."""

    thresholds: Thresholds
    scale: str  # what a value is ("reference weight", "expected score")

    @property
    def settings(self) -> str: ...

    def judge(self, state: Any, move: Any) -> Judgement: ...


@dataclasses.dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed line. ``number`` is its move number in the line (chance steps, such
    as 2048's new tiles, count as moves of the line but are not reviewed)."""

    number: int
    move: str
    best: str
    value: float
    played_value: float
    loss: float
    classification: str
    settings: str
    extras: tuple[tuple[str, float | int | str], ...] = ()

    @property
    def symbol(self) -> str:
        return SYMBOLS[self.classification]

    @property
    def flagged(self) -> bool:
        return self.classification in FLAGGED

    def extra(self, name: str, default: Any = None) -> Any:
        return dict(self.extras).get(name, default)

    @property
    def verdict(self) -> str:
        """The class with its symbol: ``mistake ?``."""
        return f"{self.classification} {self.symbol}" if self.symbol else self.classification

    def loss_text(self, thresholds: Thresholds | None = None) -> str:
        """The loss as the class was decided on it: ``23.6``, or with a share's thresholds
        ``23.6 (1.2 % of the value)``."""
        text = f"{self.loss:,.1f}"
        if thresholds is not None and thresholds.relative and self.loss > 0:
            text += f" ({thresholds.measure(self.loss, self.value):.2%} of the value)"
        return text

    def to_dict(self) -> dict:
        data = {"number": self.number, "move": self.move, "best": self.best, "value": self.value,
                "played_value": self.played_value, "loss": self.loss, "class": self.classification,
                "settings": self.settings}
        if self.extras:
            data["extras"] = {name: value for name, value in self.extras}
        return data

    @classmethod
    def from_dict(cls, data: Any, source: str | None = None, where: str = "a review row") -> MoveReview:
        """A row read back from a file: every field checked, a precise error otherwise."""

        def fail(reason: str) -> NotationError:
            return NotationError(f"{where}: {reason}", source=source)

        if not isinstance(data, dict):
            raise fail(f"must be an object, not {shown(data)}")
        number = data.get("number")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_ROWS:
            raise fail(f"'number' must be a move number from 1 to {MAX_ROWS:,}, not {shown(number)}")
        texts = {}
        for field in ("move", "best", "settings"):
            value = data.get(field)
            if not isinstance(value, str) or len(value) > 200:
                raise fail(f"{field!r} must be a text of at most 200 characters, not {shown(value)}")
            texts[field] = value
        numbers = {}
        for field in ("value", "played_value", "loss"):
            value = data.get(field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) <= MAX_VALUE:
                raise fail(f"{field!r} must be a finite number of at most {MAX_VALUE:g}, not {shown(value)}")
            numbers[field] = float(value)
        if numbers["loss"] < 0:
            raise fail(f"'loss' cannot be negative ({numbers['loss']:g}): the best move's value is the most")
        classification = data.get("class")
        if classification not in CLASSES:
            raise fail(f"'class' must be one of {', '.join(CLASSES)}, not {shown(classification)}")
        if (classification == BEST) != (numbers["loss"] == 0):
            raise fail(f"class {classification!r} with a loss of {numbers['loss']:g}: a move is 'best' exactly when "
                       "it loses nothing")
        extras_data = data.get("extras", {})
        if not isinstance(extras_data, dict) or len(extras_data) > 20:
            raise fail(f"'extras' must be an object of at most 20 figures, not {shown(extras_data)}")
        extras = []
        for name, value in extras_data.items():
            if isinstance(value, bool) or not (isinstance(value, (int, float, str))) or (
                    isinstance(value, str) and len(value) > 200) or (
                    isinstance(value, (int, float)) and not abs(value) <= MAX_VALUE) or len(name) > 60:
                raise fail(f"extra {shown(name)} must be a number or a short text, not {shown(value)}")
            extras.append((name, value))
        return cls(number, texts["move"], texts["best"], numbers["value"], numbers["played_value"],
                   numbers["loss"], classification, texts["settings"], tuple(extras))


def check_row(game: Game, row: MoveReview, before: Any, move: Any, source: str | None, where: str) -> None:
    """Refuse a row read from a file that cannot be a review of ``move`` played from ``before``:
    written for another move, on a chance step, or naming a best move that is not legal there."""

    def fail(reason: str) -> NotationError:
        return NotationError(f"{where}: {reason}", source=source)

    if row.move != game.move_text(move):
        raise fail(f"it is for move {row.move!r}, but the line plays {game.move_text(move)!r} there")
    if game.is_chance_node(before):
        raise fail(f"move {row.number} is a chance step ({row.move}), which a review does not judge")
    try:
        game.play(before, game.parse_move(row.best))
    except (KibitzInputError, ValueError) as error:
        raise fail(f"its best move {row.best!r} cannot be played there: {error}") from None


def read_saved_row(game: Game) -> Callable[[Any, str | None, str, Any, Any], MoveReview]:
    """How a move tree reads its saved reviews back (``MoveTree.from_dict``'s ``read_review``):
    every field checked, then the row against its move and position (:func:`check_row`)."""

    def read(data: Any, source: str | None, where: str, before: Any, move: Any) -> MoveReview:
        row = MoveReview.from_dict(data, source, where)
        check_row(game, row, before, move, source, where)
        return row

    return read


def reviewer_for(short_name: str, **options: Any) -> Reviewer:
    """The reviewer of the game ``short_name`` with its options (each game's own, such as 2048's
    ``depth``); a NotationError for a game without one."""
    module = _REVIEWER_MODULES.get(short_name)
    if module is None:
        raise NotationError(f"Kibitz cannot review {short_name!r} games yet")
    return importlib.import_module(module).Reviewer(**options)


def option_defaults(short_name: str) -> dict[str, Any]:
    """Each option of the game's reviewer (its ``OPTIONS``) with the reviewer's own default."""
    module = reviewer_module(short_name)
    return {field.name: field.default for field in dataclasses.fields(module.Reviewer) if field.name in module.OPTIONS}


def reviewer_module(short_name: str):
    """The module of a game's reviewer (its ``Reviewer``, ``THRESHOLDS`` and ``OPTIONS``: the
    window's controls for the reviewer's options); None for a game without one."""
    module = _REVIEWER_MODULES.get(short_name)
    return None if module is None else importlib.import_module(module)


def review_move(game: Game, reviewer: Reviewer, state: Any, move: Any, number: int) -> MoveReview:
    """The row of one move played from ``state`` (a player's decision, not a chance step)."""
    judgement = reviewer.judge(state, move)
    loss = judgement.value - judgement.played_value
    if loss <= EQUAL_SHARE * max(1.0, abs(judgement.value)):
        loss = 0.0
    classification = reviewer.thresholds.classify(loss, judgement.value)
    extras = judgement.extras
    if judgement.excused and classification in FLAGGED:
        classification = GOOD
        extras = (*extras, (EXCUSED, judgement.excused))
    return MoveReview(number, game.move_text(move), game.move_text(judgement.best), float(judgement.value),
                      float(judgement.played_value), float(loss), classification, reviewer.settings, extras)


def reviewed_moves(game: Game, line: Line) -> list[tuple[int, Any, Any]]:
    """(move number, position before, move) of every decision of ``line`` (chance steps left out)."""
    decisions = []
    state = line.start
    for number, move in enumerate(line.moves, start=1):
        if not game.is_chance_node(state):
            decisions.append((number, state, move))
        state = game.play(state, move).state
    return decisions


Progress = Callable[[int, int], None]


def review_line(game: Game, reviewer: Reviewer, line: Line, progress: Progress | None = None,
                should_stop: Callable[[], bool] | None = None, skip: Iterable[int] = ()) -> list[MoveReview]:
    """Every decision of ``line`` reviewed, in order; ``progress(done, total)`` after each and a
    stop between any two (the rows so far are returned). Move numbers in ``skip`` (reviewed
    already) are left out."""
    rows = []
    for row, done, total in review_rows(game, reviewer, line, should_stop, skip):
        rows.append(row)
        if progress is not None:
            progress(done, total)
    return rows


def review_rows(game: Game, reviewer: Reviewer, line: Line, should_stop: Callable[[], bool] | None = None,
                skip: Iterable[int] = ()) -> Iterator[tuple[MoveReview, int, int]]:
    """(row, moves done, moves to do) for every decision of ``line`` not in ``skip``, as each is
    reviewed; ``should_stop()`` is asked before each."""
    skipped = set(skip)
    decisions = [item for item in reviewed_moves(game, line) if item[0] not in skipped]
    for done, (number, state, move) in enumerate(decisions, start=1):
        if should_stop is not None and should_stop():
            return
        yield review_move(game, reviewer, state, move, number), done, len(decisions)


# -- the summary ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Summary:
    """A reviewed line in a few numbers. ``accuracy`` is the share of moves below the inaccuracy
    threshold (best and good), ``best_share`` the share worth as much as the best move;
    ``costliest`` leaves out the losses a deeper look cleared (HATETRIS's beam)."""

    moves: int
    counts: Mapping[str, int]
    accuracy: float
    best_share: float
    total_loss: float
    costliest: tuple[MoveReview, ...]

    def text(self, thresholds: Thresholds) -> str:
        if not self.moves:
            return "no move reviewed"
        flagged = ", ".join(f"{self.counts[name]} {_plural(name, self.counts[name])}"
                            f" {SYMBOLS[name]}" for name in FLAGGED)
        return (f"{self.moves} moves · accuracy {self.accuracy:.1%} · best move {self.best_share:.1%} · "
                f"{flagged}")


def summarize(rows: Sequence[MoveReview], thresholds: Thresholds, costliest: int = 3) -> Summary:
    counts = {name: 0 for name in CLASSES}
    for row in rows:
        counts[row.classification] += 1
    moves = len(rows)
    ranked = sorted((row for row in rows if row.loss > 0 and row.extra(EXCUSED) is None),
                    key=lambda row: (-thresholds.measure(row.loss, row.value), row.number))
    return Summary(moves, counts, (counts[BEST] + counts[GOOD]) / moves if moves else 0.0,
                   counts[BEST] / moves if moves else 0.0, sum(row.loss for row in rows), tuple(ranked[:costliest]))


# -- files ------------------------------------------------------------------------------------------
CSV_COLUMNS = ("number", "move", "best", "value", "played_value", "loss", "class", "settings")


def extra_names(rows: Sequence[MoveReview]) -> list[str]:
    names: dict[str, None] = {}
    for row in rows:
        for name, _ in row.extras:
            names.setdefault(name, None)
    return list(names)


def to_csv(rows: Sequence[MoveReview]) -> str:
    """The per-move table as CSV: the shared columns, then the game's extras."""
    extras = extra_names(rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *extras])
    for row in rows:
        named = dict(row.extras)
        writer.writerow([row.number, row.move, row.best, _number_text(row.value), _number_text(row.played_value),
                         _number_text(row.loss), row.classification, row.settings,
                         *(_number_text(named[name]) if name in named else "" for name in extras)])
    return out.getvalue()


def _number_text(value: Any) -> str:
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else str(int(value)) if abs(value) < 1e15 else repr(value)
    return str(value)


@dataclasses.dataclass(frozen=True)
class ReviewFile:
    """What a review's JSON file holds: the line (start and every move, chance steps included)
    and the rows of the moves reviewed."""

    game: str
    line: Line
    rows: tuple[MoveReview, ...]
    thresholds: Thresholds | None = None


def to_json(game: Game, line: Line, rows: Sequence[MoveReview], thresholds: Thresholds | None = None) -> str:
    """The text of a review file (:func:`review_data` as JSON)."""
    return json.dumps(review_data(game, line, rows, thresholds), indent=1, ensure_ascii=False) + "\n"


def review_data(game: Game, line: Line, rows: Sequence[MoveReview], thresholds: Thresholds | None = None) -> dict:
    """What a review file holds: the line (start and every move) and the rows."""
    data: dict[str, Any] = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "game": game.short_name,
        "start": game.board_text(line.start), "moves": [game.move_text(move) for move in line.moves],
    }
    if thresholds is not None:
        data["thresholds"] = {"inaccuracy": thresholds.inaccuracy, "mistake": thresholds.mistake,
                              "blunder": thresholds.blunder, "unit": thresholds.unit, "relative": thresholds.relative}
    data["rows"] = [row.to_dict() for row in rows]
    return data


def from_json(games: Mapping[str, Game], text: str, source: str | None = None) -> ReviewFile:
    """Read a review file written by :func:`to_json`: the line is replayed with the rules, and
    every row must name a move of it, written as the line writes it."""
    data = load_json(text, source)

    def fail(reason: str) -> NotationError:
        return NotationError(reason, source=source)

    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise fail(f"not a Kibitz review file (it needs \"format\": \"{FORMAT_NAME}\")")
    if data.get("version") != FORMAT_VERSION:
        raise fail(f"unknown review version {shown(data.get('version'))} (this Kibitz reads {FORMAT_VERSION})")
    game = games.get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None:
        raise fail(f"unknown game {shown(data.get('game'))}; known games: {', '.join(sorted(games))}")
    start_text, move_texts, row_data = data.get("start"), data.get("moves"), data.get("rows")
    if not isinstance(start_text, str) or not isinstance(move_texts, list) or not isinstance(row_data, list):
        raise fail("a review needs 'start' (board text), 'moves' (list of texts) and 'rows' (list)")
    if len(move_texts) > MAX_ROWS or len(row_data) > MAX_ROWS:
        raise fail(f"a review holds at most {MAX_ROWS:,} moves")
    try:
        start = game.parse_board(start_text)
    except KibitzInputError as error:
        raise error.located(source=source) from None
    moves, befores, state = [], [], start
    for number, move_text in enumerate(move_texts, start=1):
        if not isinstance(move_text, str):
            raise fail(f"move {number} must be a text, not {shown(move_text)}")
        try:
            move = game.parse_move(move_text)
            befores.append(state)
            state = game.play(state, move).state
        except KibitzInputError as error:
            raise error.located(source=source, move_number=number, token=move_text) from None
        moves.append(move)
    rows, seen = [], set()
    for place, item in enumerate(row_data):
        row = MoveReview.from_dict(item, source, f"row {place + 1}")
        if not row.number <= len(moves):
            raise fail(f"row {place + 1} is for move {row.number}, but the line has {len(moves)} moves")
        check_row(game, row, befores[row.number - 1], moves[row.number - 1], source,
                  f"row {place + 1} (move {row.number})")
        if row.number in seen:
            raise fail(f"row {place + 1}: move {row.number} is reviewed twice")
        seen.add(row.number)
        rows.append(row)
    thresholds = None
    if isinstance(data.get("thresholds"), dict):
        found = data["thresholds"]
        try:
            thresholds = Thresholds(float(found["inaccuracy"]), float(found["mistake"]), float(found["blunder"]),
                                    str(found.get("unit", "")), "", bool(found.get("relative", False)))
        except (KeyError, TypeError, ValueError):
            raise fail(f"'thresholds' must hold numbers 'inaccuracy', 'mistake' and 'blunder', not "
                       f"{shown(found)}") from None
    return ReviewFile(game.short_name, Line(start, tuple(moves)), tuple(rows), thresholds)


def _plural(name: str, count: int) -> str:
    if count == 1:
        return name
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


def review_in_process(game_name: str, start_text: str, move_texts: Sequence[str], options: Mapping[str, Any],
                      skip: Sequence[int], connection: Any, stop: Any) -> None:
    """One review for a process other than the window's: the line comes as text; the rows go back
    through ``connection`` as they come, with the progress, as ("rows", [rows], done, total) at
    most every 0.1 s, then ("done", stopped, error text or ""). A review stopped (``stop``, an
    Event, checked between two moves), failed or killed midway has sent the rows it made.
    No Qt here: the window's process keeps its GIL to itself."""
    from engines import GAMES

    error = ""
    waiting: list[MoveReview] = []
    last = [time.perf_counter()]
    try:
        game = GAMES[game_name]
        line = Line(game.parse_board(start_text), tuple(game.parse_move(text) for text in move_texts))
        reviewer = reviewer_for(game_name, **options)
        for row, done, total in review_rows(game, reviewer, line, stop.is_set, skip):
            waiting.append(row)
            now = time.perf_counter()
            if done == total or now - last[0] >= 0.1:
                last[0] = now
                connection.send(("rows", waiting, done, total))
                waiting = []
    except Exception as failure:  # noqa: BLE001 - reported to the window, which shows it
        error = f"{type(failure).__name__}: {failure}"
    if waiting:
        connection.send(("rows", waiting, -1, -1))
    connection.send(("done", stop.is_set(), error))


def review_worker(jobs: Any, connection: Any, stop: Any) -> None:
    """The window's review process: takes one job after another from ``jobs`` (the arguments of
    :func:`review_in_process` before the connection) until None or the window's end."""
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            review_in_process(*job, connection, stop)
        except (OSError, EOFError):  # the window has gone: nobody to answer
            return
