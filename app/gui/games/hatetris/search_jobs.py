"""HATETRIS's long search in the window: beam-search jobs for :class:`app.gui.search_runner.SearchRunner`.

``SEARCH_JOBS`` is the value of ``GameUi.search_jobs`` for HATETRIS. A job searches from move
``from_move`` of a line (the moves before it are kept), saves ``beam.npz`` in its folder (the same
file ``kibitz search hatetris --resume FOLDER`` continues) and ``best-replay.txt`` at the end, and
sends every better game back as a full line. The progress panel shows the depth (pieces placed by
the search) and the rate in child wells per second. A new search's width, lookahead and
evaluation are the Search section's choices (``SEARCH_OPTIONS``); they start at the strongest
setting measured at equal time for a few minutes' search (README, HATETRIS: the learned
evaluation with a lookahead of 8 reaches 53 lines at width 10,000 in about 2 minutes on 2 cores).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from advisors.hatetris.beam import EVALUATION_NAMES, BeamProgress, BeamSearch, BeamSettings
from advisors.hatetris.cluster import ClusterBeam
from app.gui.search_runner import SearchOption, SearchOutcome, SearchProgress, StopLatch
from app.cli.games.hatetris import BEST_FILE, CHECKPOINT_FILE, MAX_WIDTH
from engines.contract import Line
from engines.errors import KibitzInputError
from engines.files import write_text_atomic

DEFAULT_WIDTH = 10_000
DEFAULT_LOOKAHEAD = 8
DEFAULT_EVALUATION = "learned"
WIDTHS = (1_000, 2_000, 10_000, 30_000, 100_000, 250_000)
LOOKAHEADS = (0, 2, 4, 8, 16)
#: The evaluations in the words of the Search section, by their names in EVALUATION_NAMES.
EVALUATION_TEXTS = {"learned": "learned network", "df": "D&F's weights", "df-tim": "D&F's + Tim's terms",
                    "kibitz": "Kibitz's weights"}


def _option(key: str, label: str, choices: tuple[tuple[str, object], ...], default: object,
            tooltip: str) -> SearchOption:
    return SearchOption(key, label, choices, [value for _text, value in choices].index(default), tooltip)


SEARCH_OPTIONS = (
    _option("width", "Width", tuple((f"width {width:,}", width) for width in WIDTHS), DEFAULT_WIDTH,
            "Wells kept after each piece. Wider goes further and takes longer and more memory "
            "(on 2 cores: 100,000 about 30 minutes and 1.4 GB, 250,000 about 100 to 130 minutes and 3.6 GB)."),
    _option("lookahead", "Lookahead", tuple(("no lookahead" if levels == 0 else f"lookahead {levels}", levels)
                                            for levels in LOOKAHEADS),
            DEFAULT_LOOKAHEAD,
            "Levels of the 'bird in the hand' lookahead: a well is valued by where its chain of "
            "clears can lead. 8 serves wide beams best; none is fastest."),
    _option("evaluation", "Evaluation", tuple((EVALUATION_TEXTS[name], name) for name in
                                              sorted(EVALUATION_NAMES, key=list(EVALUATION_TEXTS).index)),
            DEFAULT_EVALUATION,
            "How wells are valued: the network shipped with Kibitz (learned from its own beams), "
            "or the hand heuristic: David & Felipe's published weights, theirs with Tim's S surface, "
            "edge column and after-clear terms tuned on five start positions, or Kibitz's own "
            "(the stronger in narrow beams without a lookahead)."),
)


def best_text(score: int, depth: int, beam: int) -> str:
    return f"{score} line{'s' if score != 1 else ''} · depth {depth:,} · beam {beam:,}"


def settings_text(settings: BeamSettings) -> str:
    """A beam's settings in the Search section's words: "width 10,000, lookahead 8, learned network"."""
    name = settings.evaluation_name
    lookahead = f"lookahead {settings.lookahead}" if settings.lookahead else "no lookahead"
    evaluation = EVALUATION_TEXTS[name] if name is not None else "weights of its own"
    return f"width {settings.width:,}, {lookahead}, {evaluation}"


class BeamJob:
    """One run of a beam search kept in ``folder``: a new one (``line``, ``from_move``) or the
    continuation of the one saved there (``resume=True``)."""

    def __init__(self, folder: str | os.PathLike, line: Line | None = None, from_move: int | None = None, *,
                 resume: bool = False, seconds: float | None = None, width: int = DEFAULT_WIDTH,
                 lookahead: int = DEFAULT_LOOKAHEAD, evaluation: str = DEFAULT_EVALUATION,
                 threads: int | None = None, cluster: str | None = None) -> None:
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        self.folder = Path(folder)
        self.line = line
        self.from_move = from_move
        self.resuming = resume
        self.seconds = seconds
        if not 1 <= width <= MAX_WIDTH:
            raise ValueError(f"the beam width must be 1 to {MAX_WIDTH:,}, not {width:,}")
        self.settings = BeamSettings.named(width, lookahead, evaluation)
        self.threads = threads
        self.cluster = cluster  # a Ray address, None for this computer

    def __repr__(self) -> str:
        return f"BeamJob({str(self.folder)!r}, resume={self.resuming})"

    @property
    def settings_text(self) -> str | None:
        """A new search's settings in words (a continued search's are in its folder)."""
        return None if self.resuming else settings_text(self.settings)

    def run(self, progress: Callable[[SearchProgress], None], should_stop: Callable[[], bool]) -> SearchOutcome:
        search = self._open()
        stop_requested = StopLatch(should_stop)

        reported = [search.best_score]

        def report(state: BeamProgress) -> None:
            line = None
            if state.best_score > reported[0]:
                reported[0] = state.best_score
                line = search.best_line()
            progress(SearchProgress(
                games=state.depth, rate=state.wells_per_second, elapsed=state.elapsed,
                best_value=state.best_score, best_text=best_text(state.best_score, state.depth, state.beam_size),
                fraction=min(1.0, state.elapsed / self.seconds) if self.seconds else None, new_best=line,
            ))

        try:
            if self.cluster is None:
                result = search.run(seconds=self.seconds, progress=report, should_stop=stop_requested,
                                    checkpoint=self.folder / CHECKPOINT_FILE, threads=self.threads)
            else:
                beam = ClusterBeam(search, self.cluster)
                try:
                    result = beam.run(seconds=self.seconds, progress=report, should_stop=stop_requested,
                                      checkpoint=self.folder / CHECKPOINT_FILE)
                finally:
                    beam.close()
            if result.replay:
                write_text_atomic(self.folder / BEST_FILE, result.replay + "\n")
        except OSError as error:
            raise KibitzInputError(f"cannot write the search folder {self.folder}: {error.strerror or error}") from None
        if stop_requested.asked:
            reason = f"stopped at depth {result.depth:,}"
        elif result.finished:
            reason = f"the beam died out at depth {result.depth:,}: every child ends the game"
        else:
            reason = f"searched for the {self.seconds:g} s asked for (depth {result.depth:,})"
        return SearchOutcome(
            games=result.depth, best_line=result.line, best_value=result.score, stopped=stop_requested.asked,
            reason=reason, best_text=f"{result.score} lines in {result.pieces} pieces", folder=self.folder,
        )

    def _open(self) -> BeamSearch:
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise KibitzInputError(f"{folder} is a file, not a folder; choose a folder for the search")
        checkpoint = folder / CHECKPOINT_FILE
        if self.resuming:
            if not checkpoint.exists():
                raise KibitzInputError(f"{folder}: no {CHECKPOINT_FILE} here; is this a search folder?")
            try:
                return BeamSearch.load(checkpoint)
            except (OSError, ValueError, KeyError) as error:
                raise KibitzInputError(f"{checkpoint}: cannot continue this search ({error})") from None
        if checkpoint.exists():
            raise KibitzInputError(f"{folder} already holds a search; continue it or choose another folder")
        moves = len(self.line.moves) if self.line is not None else 0
        from_move = moves if self.from_move is None else self.from_move
        if not 0 <= from_move <= moves:
            raise KibitzInputError(f"cannot search from move {from_move}: the line has {moves} moves")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise KibitzInputError(f"cannot write the search folder {folder}: {error.strerror or error}") from None
        try:
            return BeamSearch(Line(self.line.start, tuple(self.line.moves[:from_move])), self.settings)
        except ValueError as error:
            raise KibitzInputError(str(error)) from None


class HatetrisSearchJobs:
    """The HATETRIS plug for ``GameUi.search_jobs``."""

    name = "Beam search"
    counts = "Depth"  # what SearchProgress.games counts here: pieces placed by the search
    rate_unit = "wells/s"
    options = SEARCH_OPTIONS

    def start(self, folder: str | os.PathLike, line: Line, from_move: int, seconds: float | None = None,
              width: int = DEFAULT_WIDTH, lookahead: int = DEFAULT_LOOKAHEAD, evaluation: str = DEFAULT_EVALUATION,
              threads: int | None = None, cluster: str | None = None, **_ignored) -> BeamJob:
        """A beam search from move ``from_move`` of ``line`` (``kibitz search hatetris --from``),
        on this computer or on a ``cluster`` (a Ray address: the same beam, spread over its CPUs)."""
        return BeamJob(folder, line, from_move, seconds=seconds, width=width, lookahead=lookahead,
                       evaluation=evaluation, threads=threads, cluster=cluster)


    def resume(self, folder: str | os.PathLike, seconds: float | None = None, cluster: str | None = None,
               **_ignored) -> BeamJob:
        """Continue the beam search saved in ``folder``, here or on a ``cluster``."""
        return BeamJob(folder, resume=True, seconds=seconds, cluster=cluster)

    def describe(self, folder: str | os.PathLike) -> str:
        checkpoint = Path(folder) / CHECKPOINT_FILE
        if not checkpoint.exists():
            raise KibitzInputError(f"{folder}: no {CHECKPOINT_FILE} here; is this a search folder?")
        try:
            search = BeamSearch.load(checkpoint)
        except (OSError, ValueError, KeyError) as error:
            raise KibitzInputError(f"{checkpoint}: not a beam search ({error})") from None
        return (f"Beam search ({settings_text(search.settings)}) · best {search.best_score} lines · "
                f"depth {search.depth:,}" + (" · finished" if search.finished else ""))


SEARCH_JOBS = HatetrisSearchJobs()
