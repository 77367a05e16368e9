"""The 1010! board widget: the board, the tray and the piece palette as the phone shows them, the
advisor's best plan as numbered ghost pieces, and placements and deals chosen with the mouse or keys.

Mouse: click a tray piece to pick it up (or drag it onto the board); its ghost follows the mouse,
centred on the cell under it; a click on the board puts it down there. With nothing picked up, a
click on the advisor's ghost piece 1 plays it. While a deal is due, a click on a palette piece adds
it to the deal (three make the deal); a right-click on the palette takes the last one back.

The plan's ghosts are drawn in the order they apply: a line a placement completes clears before the
next piece goes down, so a later ghost may sit in cells that are filled now (on the board or by an
earlier ghost). Those lines are framed with dashes and tagged with the number of the piece that
clears them, and a later ghost's cells that reuse freed cells are drawn inset with a dashed edge
over what was there (:func:`plan_steps`, :meth:`TenTenBoard.plan_drawing`).

Keys (none clashes with the window's digits, Space or arrows): Q / W / E pick up the piece of tray
slot 1 / 2 / 3, I / J / K / L move it, Enter puts it down, Esc puts it back; while a deal is due,
typing piece letters (``V``, ``i``, ``.``, ...) enters the deal, Backspace takes one back, N deals
three pieces at random as the game would.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QKeyEvent, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QWidget

from app.gui.board_view import BoardView
from app.gui.games.tenten.layout import TRAY_SCALE, TenTenLayout, widget_size
from engines import Game
from engines.errors import IllegalMoveError
from engines.tenten import BY_LETTER, PIECES, Deal, PiecePlaced, Place, State
from engines.tenten.pieces import SIZE

PROMPT_FLAGS = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap

BACKGROUND = QColor("#232124")
EMPTY = QColor("#454246")
FILLED = QColor("#66c5e6")
TEXT = QColor("#d8d4d0")
FAINT_TEXT = QColor("#8a8589")
GHOST_OK = QColor(255, 255, 255, 90)
GHOST_BAD = QColor(212, 88, 88, 120)
PLAN = QColor(46, 200, 90)
PREVIEW = QColor(255, 170, 40)
CLEARED = QColor(255, 255, 255)
#: Spec 5: a piece's colour tells its family.
FAMILY_COLORS = {
    ".": "#848edc", "i": "#d5a42d", "-": "#d5a42d", "I": "#e6965a", "_": "#e6965a",
    "r": "#64dc8d", "l": "#64dc8d", "j": "#64dc8d", "t": "#64dc8d", "o": "#9eee5e",
    "v": "#e05b86", "h": "#e05b86", "V": "#d45858", "H": "#d45858",
    "R": "#66c5e6", "L": "#66c5e6", "J": "#66c5e6", "T": "#66c5e6", "O": "#5ae6b4",
}

KEY_HELP: tuple[tuple[str, str], ...] = (
    ("Q / W / E", "pick up the piece of tray slot 1 / 2 / 3"),
    ("I / J / K / L", "move the piece picked up"),
    ("Enter", "put it down"),
    ("Esc", "put it back in the tray"),
    ("piece letters (V i . o O ...)", "while a deal is due: enter the deal, three letters"),
    ("Backspace", "take back the last piece of the deal being entered"),
    ("N", "deal three pieces at random, as the game draws them"),
)
MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("Click a tray piece", "pick it up (or drag it onto the board)"),
    ("Click the board", "put the piece down there (its centre under the mouse)"),
    ("Click ghost piece 1", "play the advisor's first placement"),
    ("Click a palette piece", "add it to the deal being entered"),
    ("Right-click the palette", "take back the last piece of the deal"),
)
SLOT_KEYS = {Qt.Key.Key_Q: 0, Qt.Key.Key_W: 1, Qt.Key.Key_E: 2}
NUDGE_KEYS = {Qt.Key.Key_I: (-1, 0), Qt.Key.Key_K: (1, 0), Qt.Key.Key_J: (0, -1), Qt.Key.Key_L: (0, 1)}


@dataclasses.dataclass(frozen=True)
class PlanStep:
    """One placement of the shown plan as it applies: after the earlier placements and the lines
    they cleared. ``rows`` and ``columns`` are the lines it completes (they clear at once, before
    the next placement); ``reused`` are its cells that were filled until an earlier placement's
    line cleared them (on the board or by an earlier ghost)."""

    number: int
    place: Place
    cells: tuple[tuple[int, int], ...]
    rows: tuple[int, ...] = ()
    columns: tuple[int, ...] = ()
    reused: tuple[tuple[int, int], ...] = ()


@dataclasses.dataclass(frozen=True)
class PlanDrawing:
    """What the board paints for the plan (tests read it): per cell, the ghost numbers in the order
    they apply (``ghosts``), the cell that carries each ghost's number (``labels``), per ghost the
    cells it takes after a line freed them (``reused``: drawn inset with a dashed edge over the
    earlier ghost or the filled cell), the lines the plan clears as (number of the placement that
    completes it, "row" or "column", index) (``clears``: framed with dashes, tagged with that
    number) and the cells filled now that those lines empty (``vanishing``: dimmed)."""

    ghosts: dict[tuple[int, int], tuple[int, ...]]
    labels: dict[int, tuple[int, int]]
    reused: dict[int, tuple[tuple[int, int], ...]]
    clears: tuple[tuple[int, str, int], ...]
    vanishing: frozenset[tuple[int, int]]

    def inset(self, number: int, cell: tuple[int, int]) -> bool:
        return cell in self.reused.get(number, ())


def plan_steps(game: Game, state: State, placements: tuple[Place, ...]) -> tuple[PlanStep, ...]:
    """The plan's placements played one after the other in the engine, each with the lines it
    clears and the freed cells it reuses; stops at a placement the engine refuses."""
    steps: list[PlanStep] = []
    freed: set[tuple[int, int]] = set()
    current = state
    for number, place in enumerate(placements, start=1):
        try:
            step = game.play(current, place)
        except (IllegalMoveError, ValueError):
            break
        placed = [event for event in step.events if isinstance(event, PiecePlaced)]
        rows, columns = (placed[-1].rows, placed[-1].columns) if placed else ((), ())
        cells = tuple((place.row + r, place.column + c) for r, c in BY_LETTER[place.piece].cells)
        steps.append(PlanStep(number, place, cells, tuple(rows), tuple(columns),
                              tuple(cell for cell in cells if cell in freed)))
        freed |= {(r, c) for r in rows for c in range(SIZE)} | {(r, c) for c in columns for r in range(SIZE)}
        current = step.state
    return tuple(steps)


def piece_color(letter: str) -> QColor:
    return QColor(FAMILY_COLORS[letter])


def anchor_for(letter: str, row: int, column: int) -> tuple[int, int]:
    """The anchor that puts the piece's middle on (row, column), kept inside the board."""
    piece = BY_LETTER[letter]
    r = min(max(row - (piece.height - 1) // 2, 0), SIZE - piece.height)
    c = min(max(column - (piece.width - 1) // 2, 0), SIZE - piece.width)
    return r, c


class TenTenBoard(BoardView):
    """The board, tray, palette, the advisor's plan and the piece in hand (see the module doc)."""

    preferred_side = 420
    minimum_side = 220

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self.setMouseTracking(True)
        #: Draws the deals of N (a test may put a seeded generator here).
        self.rng = np.random.default_rng()
        self._candidates: list[Any] = []
        self._previewed: Any | None = None
        self._held: int | None = None  # the tray slot picked up
        self._anchor: tuple[int, int] | None = None  # where the piece in hand would go
        self._dragging = False
        self._deal: list[str] = []  # the deal being entered
        self._cleared: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    # -- what the window and tests use ------------------------------------------------------------
    def show_position(self, state: State, events: tuple[Any, ...] = ()) -> None:
        if state != self.state:
            self._candidates = []
            self._previewed = None
            self._held = None
            self._anchor = None
            self._deal = []
        self.state = state
        placed = [e for e in events if isinstance(e, PiecePlaced)]
        self._cleared = (placed[-1].rows, placed[-1].columns) if placed else ((), ())
        self.update()

    def board_layout(self) -> TenTenLayout:
        return TenTenLayout.fit(self.width(), self.height())

    def cell_center(self, row: int, column: int) -> QPointF:
        return self.board_layout().cell_rect(row, column).center()

    def slot_center(self, slot: int) -> QPointF:
        return self.board_layout().slot_rect(slot).center()

    def palette_center(self, letter: str) -> QPointF:
        index = [p.letter for p in PIECES].index(letter)
        return self.board_layout().palette_piece_rect(index).center()

    def sizeHint(self):  # noqa: N802 (Qt name)
        return widget_size(self.preferred_side)

    def minimumSizeHint(self):  # noqa: N802 (Qt name)
        return widget_size(self.minimum_side)

    @property
    def held_piece(self) -> str | None:
        return None if self._held is None else self.state.tray[self._held]

    @property
    def held_anchor(self) -> tuple[int, int] | None:
        return self._anchor if self._held is not None else None

    @property
    def pending_deal(self) -> tuple[str, ...]:
        return tuple(self._deal)

    # -- advice -----------------------------------------------------------------------------------
    def show_advice(self, candidates) -> None:
        self._candidates = list(candidates)
        self.update()

    def preview_move(self, move: Any | None) -> None:
        if move != self._previewed:
            self._previewed = move
            self.update()

    def shown_plan(self) -> tuple[tuple[Place, ...], bool]:
        """The plan drawn as ghosts: the previewed candidate's, else the best (placements, previewed)."""
        if not self._advice_visible or not self._candidates:
            return (), False
        if self._previewed is not None:
            for candidate in self._candidates:
                if candidate.move == self._previewed and getattr(candidate, "plan", None) is not None:
                    return candidate.plan.placements, True
        best = self._candidates[0]
        return (best.plan.placements if getattr(best, "plan", None) is not None else (best.move,)), False

    def plan_steps(self) -> tuple[PlanStep, ...]:
        """The shown plan's placements as they apply (:func:`plan_steps`)."""
        placements, _ = self.shown_plan()
        return plan_steps(self.game, self.state, placements) if placements else ()

    def plan_drawing(self) -> PlanDrawing:
        """What :meth:`_paint_plan` draws (see :class:`PlanDrawing`)."""
        steps = self.plan_steps()
        ghosts: dict[tuple[int, int], tuple[int, ...]] = {}
        labels: dict[int, tuple[int, int]] = {}
        clears: list[tuple[int, str, int]] = []
        vanishing: set[tuple[int, int]] = set()
        for step in steps:
            for cell in step.cells:
                ghosts[cell] = ghosts.get(cell, ()) + (step.number,)
            taken = set(labels.values())
            fresh = [cell for cell in step.cells if cell not in taken and cell not in step.reused]
            labels[step.number] = min(fresh or [cell for cell in step.cells if cell not in taken] or step.cells)
            clears.extend((step.number, "row", r) for r in step.rows)
            clears.extend((step.number, "column", c) for c in step.columns)
            for kind, index in [("row", r) for r in step.rows] + [("column", c) for c in step.columns]:
                band = [(index, c) for c in range(SIZE)] if kind == "row" else [(r, index) for r in range(SIZE)]
                vanishing |= {cell for cell in band if self.state.is_filled(*cell)}
        reused = {step.number: step.reused for step in steps}
        return PlanDrawing(ghosts, labels, reused, tuple(clears), frozenset(vanishing))

    def plan_text_at(self, cell: tuple[int, int]) -> str:
        """The tooltip of a cell the shown plan uses: each ghost there, the lines it completes and,
        for a cell taken again after a clear, which line freed it first."""
        texts = []
        steps = self.plan_steps()
        for step in steps:
            if cell not in step.cells:
                continue
            text = f"plan piece {step.number}: {step.place}"
            lines = [f"row {r}" for r in step.rows] + [f"column {c}" for c in step.columns]
            if lines:
                text += f", completes {' and '.join(lines)} (cleared before the next piece)"
            if cell in step.reused:
                freeing = [earlier for earlier in steps[: step.number - 1]
                           if cell[0] in earlier.rows or cell[1] in earlier.columns][-1]
                line = f"row {cell[0]}" if cell[0] in freeing.rows else f"column {cell[1]}"
                text += f"; this cell is free only once piece {freeing.number} has cleared {line}"
            texts.append(text)
        return "\n".join(texts)

    # -- painting ---------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.fillRect(self.rect(), BACKGROUND)
        layout = self.board_layout()
        self._paint_board(painter, layout)
        self._paint_plan(painter, layout)
        self._paint_hand(painter, layout)
        self._paint_tray(painter, layout)
        self._paint_palette(painter, layout)
        if self.game.is_over(self.state):
            painter.fillRect(layout.board_rect(), QColor(0, 0, 0, 150))
            painter.setPen(TEXT)
            painter.setFont(self._font(layout.pitch * 0.9, bold=True))
            painter.drawText(layout.board_rect(), Qt.AlignmentFlag.AlignCenter, f"No more moves\n{self.state.score:,}")
        painter.end()

    def _font(self, pixels: float, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(max(7, round(pixels)))
        font.setBold(bold)
        return font

    def _cell(self, painter: QPainter, rect: QRectF, color: QColor, pen: QPen | None = None) -> None:
        painter.setPen(pen or Qt.PenStyle.NoPen)
        painter.setBrush(color)
        radius = 0.18 * rect.width()
        painter.drawRoundedRect(rect, radius, radius)

    def _paint_board(self, painter: QPainter, layout: TenTenLayout) -> None:
        rows, columns = self._cleared
        for r in range(SIZE):
            for c in range(SIZE):
                self._cell(painter, layout.cell_rect(r, c), FILLED if self.state.is_filled(r, c) else EMPTY)
        pen = QPen(CLEARED, max(1.0, 0.06 * layout.pitch), Qt.PenStyle.DotLine)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen)
        for r in rows:
            painter.drawRect(QRectF(layout.left, layout.top + r * layout.pitch, layout.side, layout.pitch))
        for c in columns:
            painter.drawRect(QRectF(layout.left + c * layout.pitch, layout.top, layout.pitch, layout.side))

    def _paint_plan(self, painter: QPainter, layout: TenTenLayout) -> None:
        placements, previewed = self.shown_plan()
        if not placements:
            return
        color = PREVIEW if previewed else PLAN
        steps = self.plan_steps()
        drawing = self.plan_drawing()
        pitch = layout.pitch
        # Filled cells the plan's lines clear: dimmed, they are gone once their line completes.
        for cell in drawing.vanishing:
            self._cell(painter, layout.cell_rect(*cell), QColor(35, 33, 36, 120))
        # The ghosts, in the order they apply; a ghost over something that a line cleared first
        # is drawn inset with a dashed edge.
        for step in steps:
            piece_fill = QColor(piece_color(step.place.piece))
            piece_fill.setAlpha(110 if step.number == 1 else 60)
            width = max(1.0, (0.08 if step.number == 1 else 0.05) * pitch)
            for cell in step.cells:
                rect = layout.cell_rect(*cell)
                if drawing.inset(step.number, cell):
                    fill = QColor(piece_color(step.place.piece))
                    fill.setAlpha(200)
                    pen = QPen(color, max(1.0, 0.06 * pitch), Qt.PenStyle.DashLine)
                    self._cell(painter, rect.adjusted(0.2 * pitch, 0.2 * pitch, -0.2 * pitch, -0.2 * pitch), fill, pen)
                else:
                    self._cell(painter, rect.adjusted(2, 2, -2, -2), piece_fill, QPen(color, width))
        # The lines the plan clears, framed and tagged with the number of the piece completing them.
        pen = QPen(color, max(1.0, 0.05 * pitch), Qt.PenStyle.DashLine)
        for number, kind, index in drawing.clears:
            if kind == "row":
                band = QRectF(layout.left, layout.top + index * pitch, layout.side, pitch)
                tag_center = QPointF(layout.left - 0.05 * pitch, band.center().y())
            else:
                band = QRectF(layout.left + index * pitch, layout.top, pitch, layout.side)
                tag_center = QPointF(band.center().x(), layout.top - 0.05 * pitch)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(pen)
            painter.drawRect(band)
            tag = QRectF(tag_center.x() - 0.22 * pitch, tag_center.y() - 0.22 * pitch, 0.44 * pitch, 0.44 * pitch)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            painter.drawEllipse(tag)
            painter.setPen(BACKGROUND)
            painter.setFont(self._font(0.32 * pitch, bold=True))
            painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, str(number))
        painter.setPen(TEXT)
        painter.setFont(self._font(0.6 * pitch, bold=True))
        for number, cell in drawing.labels.items():
            rect = layout.cell_rect(*cell)
            if drawing.inset(number, cell):
                painter.setFont(self._font(0.45 * pitch, bold=True))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(number))
            painter.setFont(self._font(0.6 * pitch, bold=True))

    def _paint_hand(self, painter: QPainter, layout: TenTenLayout) -> None:
        letter, anchor = self.held_piece, self.held_anchor
        if letter is None or anchor is None:
            return
        piece = BY_LETTER[letter]
        fits = not self.state.filled & piece.mask(*anchor)
        color = QColor(piece_color(letter)) if fits else GHOST_BAD
        if fits:
            color.setAlpha(170)
        for r, c in piece.cells:
            self._cell(painter, layout.cell_rect(anchor[0] + r, anchor[1] + c), color)

    def _paint_piece(self, painter: QPainter, letter: str, box: QRectF, cell: float, faint: bool = False) -> None:
        piece = BY_LETTER[letter]
        left = box.center().x() - piece.width * cell / 2
        top = box.center().y() - piece.height * cell / 2
        color = QColor(piece_color(letter))
        if faint:
            color.setAlpha(70)
        gap = 0.1 * cell
        for r, c in piece.cells:
            self._cell(painter, QRectF(left + c * cell + gap / 2, top + r * cell + gap / 2, cell - gap, cell - gap), color)

    def _paint_tray(self, painter: QPainter, layout: TenTenLayout) -> None:
        cell = TRAY_SCALE * layout.pitch
        slots = self.state.tray if not self.state.deal_due else tuple(self._deal) + (None,) * (3 - len(self._deal))
        for slot, letter in enumerate(slots):
            box = layout.slot_rect(slot)
            if slot == self._held and not self.state.deal_due:
                painter.setPen(QPen(PREVIEW, 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(box.adjusted(3, 3, -3, -3), 6, 6)
            if letter is not None:
                self._paint_piece(painter, letter, box, cell, faint=self.state.deal_due)
        if self.state.deal_due and not self.game.is_over(self.state):
            rect, font, text = self.deal_prompt(layout)
            painter.setPen(TEXT)
            painter.setFont(font)
            painter.drawText(rect, PROMPT_FLAGS, text)

    def deal_prompt(self, layout: TenTenLayout) -> tuple[QRectF, QFont, str]:
        """Where the "deal due" line goes, in which font: at the foot of the tray, wrapped and
        made smaller until it fits the tray's width (a narrow board cut it at both ends)."""
        tray = layout.tray_rect()
        text = (f"deal due: pick {3 - len(self._deal)} more below or type their letters · N: a random deal"
                if self._deal else "deal due: click three pieces below (or type their letters) · N: a random deal")
        rect = QRectF(tray.left(), tray.bottom() - 1.1 * layout.pitch, tray.width(), 1.1 * layout.pitch)
        pixels = 0.42 * layout.pitch
        while True:
            font = self._font(pixels)
            used = QFontMetricsF(font).boundingRect(rect, PROMPT_FLAGS, text)
            if (used.width() <= rect.width() and used.height() <= rect.height()) or font.pixelSize() <= 7:
                return rect, font, text
            pixels = font.pixelSize() - 1

    def _paint_palette(self, painter: QPainter, layout: TenTenLayout) -> None:
        active = self.state.deal_due
        cell = 0.18 * layout.pitch
        for index, piece in enumerate(PIECES):
            box = layout.palette_piece_rect(index)
            self._paint_piece(painter, piece.letter, box.adjusted(0, 0, 0, -0.35 * box.height()), cell, faint=not active)
            painter.setPen(TEXT if active else FAINT_TEXT)
            painter.setFont(self._font(0.3 * layout.pitch))
            painter.drawText(box.adjusted(0, 0.6 * box.height(), 0, 0), Qt.AlignmentFlag.AlignCenter, piece.letter)

    # -- the piece in hand -----------------------------------------------------------------------
    def _pick(self, slot: int) -> bool:
        if self.state.deal_due or self.state.tray[slot] is None or self.game.is_over(self.state):
            return False
        self._held = slot
        if self._anchor is None:
            self._anchor = anchor_for(self.state.tray[slot], SIZE // 2, SIZE // 2)
        else:
            self._anchor = anchor_for(self.state.tray[slot], *self._anchor)
        self.update()
        return True

    def _put_down(self) -> None:
        letter, anchor = self.held_piece, self.held_anchor
        if letter is None or anchor is None:
            return
        self._held = None
        self.update()
        self.move_chosen.emit(Place(letter, *anchor))

    def _hover_board(self, cell: tuple[int, int] | None) -> None:
        letter = self.held_piece
        if letter is not None and cell is not None:
            anchor = anchor_for(letter, *cell)
            if anchor != self._anchor:
                self._anchor = anchor
                self.update()

    # -- the deal being entered ------------------------------------------------------------------
    def _add_to_deal(self, letter: str) -> None:
        if not self.state.deal_due:
            return
        self._deal.append(letter)
        self.update()
        if len(self._deal) == 3:
            deal, self._deal = Deal(tuple(self._deal)), []
            self.move_chosen.emit(deal)

    def _take_back(self) -> bool:
        if self._deal:
            self._deal.pop()
            self.update()
            return True
        return False

    # -- mouse ------------------------------------------------------------------------------------
    def _set_hover(self, point) -> None:
        if point is None:
            return
        layout = self.board_layout()
        self._hover_board(layout.cell_at(QPointF(point)))
        clickable = (layout.slot_at(QPointF(point)) is not None or layout.cell_at(QPointF(point)) is not None
                     or (self.state.deal_due and layout.palette_at(QPointF(point)) is not None))
        self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        layout = self.board_layout()
        point = event.position()
        if event.button() == Qt.MouseButton.RightButton:
            if layout.palette_at(point) is not None:
                self._take_back()
            elif self._held is not None:
                self._held = None
                self.update()
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        slot = layout.slot_at(point)
        if slot is not None:
            self._dragging = self._pick(slot)
            event.accept()
            return
        index = layout.palette_at(point)
        if index is not None:
            self._add_to_deal(PIECES[index].letter)
            event.accept()
            return
        cell = layout.cell_at(point)
        if cell is not None:
            if self._held is not None:
                self._hover_board(cell)
                self._put_down()
            else:
                self._play_plan_piece_at(cell)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        if event.button() == Qt.MouseButton.LeftButton and self._dragging:
            self._dragging = False
            cell = self.board_layout().cell_at(event.position())
            if cell is not None and self._held is not None:
                self._hover_board(cell)
                self._put_down()
            return
        super().mouseReleaseEvent(event)

    def _play_plan_piece_at(self, cell: tuple[int, int]) -> None:
        placements, _ = self.shown_plan()
        if not placements:
            return
        first = placements[0]
        covered = {(first.row + r, first.column + c) for r, c in BY_LETTER[first.piece].cells}
        if cell in covered:
            self.move_chosen.emit(first)

    def contextMenuEvent(self, event) -> None:  # noqa: N802 (Qt name)
        event.accept()

    def tooltip_text(self, point: QPointF) -> str:
        layout = self.board_layout()
        slot = layout.slot_at(point)
        if slot is not None and not self.state.deal_due and self.state.tray[slot] is not None:
            piece = BY_LETTER[self.state.tray[slot]]
            return f"slot {slot + 1}: {piece.letter} ({piece.name}, {piece.size} cells) · key {'QWE'[slot]}"
        index = layout.palette_at(point)
        if index is not None:
            piece = PIECES[index]
            return f"{piece.letter}: {piece.name}, {piece.size} cells, drawn {piece.weight} times in 42"
        cell = layout.cell_at(point)
        plan = self.plan_text_at(cell) if cell is not None else ""
        if plan:
            return plan
        return "1010! board\n" + "\n".join(f"{keys}: {what}" for keys, what in MOUSE_HELP + KEY_HELP)

    # -- keys -------------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt name)
        key = event.key()
        text = event.text()
        if self.has_command_modifier(event):
            super().keyPressEvent(event)
            return
        if self.state.deal_due:
            if key == Qt.Key.Key_N and text == "n":
                try:
                    self.move_chosen.emit(self.game.random_deal(self.state, self.rng))
                except IllegalMoveError:
                    pass
                return
            if text and text in BY_LETTER:
                self._add_to_deal(text)
                return
            if key == Qt.Key.Key_Backspace and self._take_back():
                return
            super().keyPressEvent(event)
            return
        if key in SLOT_KEYS and self._pick(SLOT_KEYS[key]):
            return
        if self._held is not None:
            if key in NUDGE_KEYS:
                dr, dc = NUDGE_KEYS[key]
                piece = BY_LETTER[self.held_piece]
                r, c = self._anchor
                self._anchor = (min(max(r + dr, 0), SIZE - piece.height), min(max(c + dc, 0), SIZE - piece.width))
                self.update()
                return
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._put_down()
                return
            if key == Qt.Key.Key_Escape:
                self._held = None
                self.update()
                return
        super().keyPressEvent(event)
