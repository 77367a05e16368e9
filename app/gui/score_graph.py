"""The score graph: the main line's score move by move, with the current position marked.

x is the move number and y the score after the move (or another value the game chooses) on a
plain linear axis with thousands separators. A vertical marker shows the current node; when it
is off the main line, the marker sits on its own line, which is drawn dashed from where it
leaves the main line. Small ticks under the axis show where variations leave the main line.
An optional second, faint series on its own scale (for SPL-T: how many splits are available
after each move, see :func:`legal_move_count`) shades the bottom of the plot.

Once moves are reviewed (Moves ▸ Review this line), a strip of loss bars runs under the axis for
the line shown (the main line, or the current line where it leaves it): one bar per move that
lost something, as tall as its class (inaccuracy, mistake, blunder) and in its class colour; a
click on a bar goes to that move of the line shown (elsewhere on the graph, of the main line).

Hovering shows "move N · score S"; clicking (or dragging) goes to that move of the main line.
The graph follows the tree like the move list: it recomputes its points when the tree changes
and only draws them when painting.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QLinearGradient,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from advisors.review import BLUNDER, GOOD, INACCURACY, MISTAKE
from app.gui.review_style import class_color, is_stale
from app.gui.tree_view import mix
from engines.contract import Game
from engines.tree import Change, MoveTree, Node

Value = Callable[[Any], float]
KEEP: Any = object()  # set_tree: keep the series given before

MARGIN_TOP = 10
MARGIN_RIGHT = 12
MARGIN_BOTTOM = 20
MINIMUM_HEIGHT = 90
LOSS_STRIP = 16  # the loss bars' strip under the axis, when the main line has reviewed moves
#: A bar's height in the strip, per class (a move worth less than the best but not flagged: a hair).
LOSS_BAR_SHARE = {GOOD: 0.12, INACCURACY: 0.45, MISTAKE: 0.75, BLUNDER: 1.0}
SECONDARY_SHARE = 0.28  # of the plot's height, for the faint second series


def legal_move_count(game: Game) -> Value:
    """A second series for games whose legal moves are cheap to list (SPL-T: the splits
    available after each move; fewer means the end is near)."""
    return lambda state: len(game.legal_moves(state))


def cosmetic(color: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen whose width is in pixels whatever the painter's transform."""
    pen = QPen(color, width, style)
    pen.setCosmetic(True)
    return pen


def nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``ticks`` steps over
    ``span``."""
    if span <= 0:
        return 1.0
    raw = span / max(1, ticks)
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * power:
            return factor * power
    return 10.0 * power


class ScoreGraph(QWidget):
    """The main line's score, move by move (see the module docstring).

    ``node_activated(node)`` is emitted after a click or drag took the tree to a main-line node.
    """

    node_activated = Signal(object)

    def __init__(
        self,
        parent: QWidget | None = None,
        value: Value | None = None,
        value_name: str = "score",
        secondary: Value | None = None,
        secondary_name: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("scoreGraph")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMinimumHeight(MINIMUM_HEIGHT)
        self.tree: MoveTree | None = None
        self.game: Game | None = None
        self._value = value
        self.value_name = value_name
        self._secondary = secondary
        self.secondary_name = secondary_name
        self._values: dict[int, float] = {}
        self._secondary_values: dict[int, float] = {}
        self._main: list[Node] = []
        self._main_ids: set[int] = set()
        self._main_values: list[float] = []
        self._main_secondary: list[float] = []
        self._branches: list[int] = []  # main-line moves after which a variation leaves it
        self._losses: list[tuple[int, str]] = []  # (move number, class) of the main line's reviewed moves
        self._stale: set[int] = set()  # move numbers whose review was made with other settings
        self.review_settings: str | None = None  # the reviewer's settings now
        self._line: list[Node] = []  # the current node's line from where it leaves the main line
        self._line_values: list[float] = []
        self._hover: int | None = None
        self._dragging = False
        # geometry, recomputed on change and resize, only drawn when painting
        self._plot = QRectF()
        self._x_max = 1
        self._y_max = 1.0
        self._secondary_max = 1.0
        self._x_ticks: list[int] = []
        self._y_ticks: list[float] = []
        self._to_widget = QTransform()  # data (move number, value) -> widget pixels
        # points in data coordinates: built when the tree changes, never on resize or paint
        self._main_points = QPolygonF()
        self._line_points = QPolygonF()
        self._secondary_path = QPainterPath()  # data coordinates too, rebuilt with the scale
        self._reviewed = False

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(360, 170)

    # -- the tree ---------------------------------------------------------------------------
    def set_tree(
        self,
        tree: MoveTree | None,
        game: Game | None = None,
        value: Value | None = KEEP,
        value_name: str = KEEP,
        secondary: Value | None = KEEP,
        secondary_name: str = KEEP,
    ) -> None:
        """Show ``tree``'s main line and follow its changes. The series and their names are
        kept unless given: ``value`` None plots the game's score, ``secondary`` None shows no
        second series (switching games: pass both)."""
        if self.tree is not None:
            self.tree.unsubscribe(self._tree_changed)
        self.tree = tree
        self.game = game if game is not None or tree is None else tree.game
        if value is not KEEP:
            self._value = value
        if value_name is not KEEP:
            self.value_name = value_name
        if secondary is not KEEP:
            self._secondary = secondary
        if secondary_name is not KEEP:
            self.secondary_name = secondary_name
        self._values.clear()
        self._secondary_values.clear()
        self._hover = None
        self._main = []
        if tree is not None:
            tree.subscribe(self._tree_changed)
        self._read_main_line()
        self._read_current_line()
        self._layout()

    def _tree_changed(self, change: Change, node: Node) -> None:
        if change is Change.LABEL:
            return
        if change is Change.REVIEW:
            had = self._reviewed
            self._read_losses()
            if had != self._reviewed:
                self._layout()  # the strip comes or goes
            else:
                self.update()
            return
        if change is Change.CURRENT:
            had_line, had_strip = bool(self._line), self._reviewed
            self._read_current_line()
            if had_line or self._line or had_strip != self._reviewed:
                self._layout()  # the current line's points (and maybe the scale) changed
            else:
                self.update()  # only the marker moved
            return
        if change is Change.RESET:
            self._values.clear()
            self._secondary_values.clear()
            self._main = []
        self._read_main_line()
        self._read_current_line()
        self._layout()

    def value_of(self, node: Node) -> float:
        """The plotted value of ``node`` (cached: states never change)."""
        value = self._values.get(node.id)
        if value is None:
            state = node.state
            value = self._values[node.id] = float(self._value(state) if self._value else self.game.score(state))
        return value

    def secondary_of(self, node: Node) -> float:
        value = self._secondary_values.get(node.id)
        if value is None:
            value = self._secondary_values[node.id] = float(self._secondary(node.state))
        return value

    def _read_main_line(self) -> None:
        """The main line's values and points; a main line that only grew at its end keeps the
        points it had (playing on at the end of a long line costs only the new moves)."""
        if self.tree is None:
            self._main, self._main_ids, self._main_values, self._main_secondary, self._branches = [], set(), [], [], []
            self._losses, self._reviewed = [], False
            self._main_points = QPolygonF()
            return
        main = self.tree.main_line()
        old = self._main
        kept = len(old) if old and len(main) >= len(old) and main[len(old) - 1] is old[-1] else 0
        if kept == 0:
            self._main_ids = set()
            self._main_values = []
            self._main_secondary = []
            self._main_points = QPolygonF()
        added = main[kept:]
        self._main = main
        self._main_ids.update(node.id for node in added)
        values = [self.value_of(node) for node in added]
        self._main_values.extend(values)
        if self._secondary:
            self._main_secondary.extend(self.secondary_of(node) for node in added)
        points = self._main_points
        for node, value in zip(added, values):
            points.append(QPointF(node.move_number, value))
        self._branches = [node.move_number for node in main if len(node.children) > 1]
        self._read_losses()

    def set_review_settings(self, settings: str | None) -> None:
        """The reviewer's settings now: bars of reviews made with others are drawn muted."""
        if settings != self.review_settings:
            self.review_settings = settings
            self._read_losses()
            self.update()

    def _shown_line(self) -> list[Node]:
        """The line the graph shows: the main line, or, off it, the main line up to where the
        current line leaves it, then the current line's own moves."""
        return self._main if not self._line else self._main[:self._line[0].move_number + 1] + self._line[1:]

    def _read_losses(self) -> None:
        """The bars of the line shown: the main line, or, off it, the current line (the main
        line up to where it leaves, then its own moves)."""
        nodes = self._shown_line()
        self._losses = [(node.move_number, node.review.classification) for node in nodes
                        if node.review is not None and node.review.loss > 0]
        self._stale = {node.move_number for node in nodes if is_stale(node.review, self.review_settings)}
        reviewed = any(node.review is not None for node in nodes)
        if reviewed != self._reviewed:  # the strip needs its own room, not the plot's
            self._reviewed = reviewed
            self.setMinimumHeight(MINIMUM_HEIGHT + (LOSS_STRIP if reviewed else 0))

    def _read_current_line(self) -> None:
        """The current node's line from where it leaves the main line (empty when it is on it),
        and the loss bars of the line shown."""
        self._find_current_line()
        self._read_losses()

    def _find_current_line(self) -> None:
        self._line, self._line_values = [], []
        self._line_points = QPolygonF()
        tree = self.tree
        if tree is None or tree.current.id in self._main_ids:
            return
        nodes = tree.line_nodes(tree.current)
        leave = 0
        while leave < len(nodes) and nodes[leave].id in self._main_ids:
            leave += 1
        self._line = nodes[leave - 1 :]  # from the last main-line move, so the dash joins the curve
        self._line_values = [self.value_of(node) for node in self._line]
        self._line_points = QPolygonF(
            [QPointF(node.move_number, value) for node, value in zip(self._line, self._line_values)]
        )

    # -- geometry ---------------------------------------------------------------------------
    def _axis_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.82))
        return font

    def _layout(self) -> None:
        """Recompute the plot area, the scales and the data-to-pixels transform (data changed or
        resized); the points themselves stay in data coordinates."""
        axis = QFontMetrics(self._axis_font())
        values = self._main_values + self._line_values
        top_value = max(values) if values else 0.0
        y_step = nice_step(top_value, 4) if top_value > 0 else 1.0
        self._y_max = max(y_step, math.ceil(top_value / y_step) * y_step)
        self._y_ticks = [y_step * k for k in range(int(round(self._y_max / y_step)) + 1)]
        line_end = self._line[-1].move_number if self._line else 0
        self._x_max = max(1, len(self._main) - 1, line_end)
        x_step = max(1, int(nice_step(self._x_max, 6)))
        self._x_ticks = list(range(0, self._x_max + 1, x_step))
        label_width = max(axis.horizontalAdvance(self._format(tick)) for tick in self._y_ticks)
        self._plot = QRectF(
            label_width + 10,
            MARGIN_TOP,
            max(1.0, self.width() - label_width - 10 - MARGIN_RIGHT),
            max(1.0, self.height() - MARGIN_TOP - MARGIN_BOTTOM - (LOSS_STRIP if self._reviewed else 0)),
        )
        plot = self._plot
        self._to_widget = QTransform(
            plot.width() / self._x_max, 0, 0, -plot.height() / self._y_max, plot.left(), plot.bottom()
        )
        self._secondary_path = self._secondary_shape()
        self.update()

    def _secondary_shape(self) -> QPainterPath:
        """The second series as a shaded area at the bottom of the plot (data coordinates, on
        its own scale), averaged over a few pixels when there are more moves than pixels (a
        value per move would be a blur of spikes)."""
        path = QPainterPath()
        values = np.asarray(self._main_secondary, dtype=float)
        if len(values) < 2:
            return path
        self._secondary_max = max(1.0, float(values.max()))
        buckets = max(2, int(self._plot.width() / 3))
        numbers = np.arange(len(values), dtype=float)
        if len(values) > buckets:
            edges = np.linspace(0, len(values), buckets + 1).astype(int)
            counts = np.diff(edges)
            values = np.add.reduceat(values, edges[:-1]) / counts
            numbers = np.add.reduceat(numbers, edges[:-1]) / counts
        heights = values * (self._y_max * SECONDARY_SHARE / self._secondary_max)
        path.moveTo(0, 0)
        for number, height in zip(numbers.tolist(), heights.tolist()):
            path.lineTo(number, height)
        path.lineTo(len(self._main_secondary) - 1, 0)
        path.closeSubpath()
        return path

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self._layout()

    def x_for_move(self, number: float) -> float:
        """The x of move ``number`` (0: the start position)."""
        return self._plot.left() + number / self._x_max * self._plot.width()

    def move_at(self, x: float) -> int:
        """The main-line move number nearest to ``x`` (clamped to the main line)."""
        if self._plot.width() <= 0:
            return 0
        number = round((x - self._plot.left()) / self._plot.width() * self._x_max)
        return max(0, min(len(self._main) - 1, number))

    def _y(self, value: float) -> float:
        return self._plot.bottom() - value / self._y_max * self._plot.height()

    @staticmethod
    def _format(value: float) -> str:
        return f"{value:,.0f}" if float(value).is_integer() or abs(value) >= 100 else f"{value:,.2f}"

    # -- reading (for tests and the window) -------------------------------------------------
    def plot_rect(self) -> QRectF:
        """The plotting area: move 0 at its left edge, the end of the main line (or of the
        current line, if longer) at its right edge."""
        return QRectF(self._plot)

    def main_values(self) -> list[float]:
        """The plotted value after each main-line move (index 0: the start)."""
        return list(self._main_values)

    def departure(self) -> int | None:
        """The last main-line move before the current node's line leaves the main line (None
        when the current node is on it)."""
        return self._line[0].move_number if self._line else None

    def hover_text(self, number: int | None = None) -> str:
        """What hovering over move ``number`` (default: the one under the mouse) shows."""
        number = self._hover if number is None else number
        if number is None or not 0 <= number < len(self._main):
            return ""
        text = f"move {number} · {self.value_name} {self._format(self._main_values[number])}"
        if self._main_secondary and self.secondary_name:
            text += f" · {self._format(self._main_secondary[number])} {self.secondary_name}"
        review = self._main[number].review
        if review is not None:
            text += f" · {review.verdict}" + (" (stale)" if is_stale(review, self.review_settings) else "")
            if review.loss > 0:
                text += f", loss {review.loss:,.1f} (best {review.best})"
        return text

    def loss_strip(self) -> QRectF:
        """Where the loss bars are drawn (empty when no move of the main line is reviewed)."""
        if not self._reviewed:
            return QRectF()
        return QRectF(self._plot.left(), self.height() - LOSS_STRIP, self._plot.width(), LOSS_STRIP - 2)

    def loss_bars(self) -> list[tuple[int, str, QRectF]]:
        """(move number, class, rectangle) of every loss bar, as drawn."""
        strip = self.loss_strip()
        if strip.isEmpty():
            return []
        width = max(2.0, min(6.0, self._plot.width() / max(1, self._x_max) * 0.8))
        bars = []
        for number, classification in self._losses:
            height = strip.height() * LOSS_BAR_SHARE.get(classification, 0.0)
            if height <= 0:
                continue
            x = self.x_for_move(number)
            bars.append((number, classification, QRectF(x - width / 2, strip.bottom() - height, width, height)))
        return bars

    # -- mouse ------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        strip = self.loss_strip()
        if (event.button() == Qt.MouseButton.LeftButton and self._line and not strip.isEmpty()
                and strip.top() <= event.position().y()):
            # a bar of the line shown, off the main line: its own move
            shown = self._shown_line()
            number = round((event.position().x() - self._plot.left()) / self._plot.width() * self._x_max)
            node = shown[max(0, min(len(shown) - 1, number))]
            if self.tree is not None and node is not self.tree.current:
                self.tree.go_to(node)
                self.node_activated.emit(node)
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton and self._main and len(self._main) > 1:
            self._dragging = True
            self._go_to_x(event.position().x())
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        x = event.position().x()
        hover = self.move_at(x) if self._main and self._plot.left() - 4 <= x <= self._plot.right() + 4 else None
        if hover != self._hover:
            self._hover = hover
            self.setToolTip(self.hover_text())
            self.update()
        if self._dragging:
            self._go_to_x(x)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt name)
        self._dragging = False
        super().mouseReleaseEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if self._hover is not None:
            self._hover = None
            self.update()
        super().leaveEvent(event)

    def _go_to_x(self, x: float) -> None:
        node = self._main[self.move_at(x)]
        if self.tree is not None and node is not self.tree.current:
            self.tree.go_to(node)
            self.node_activated.emit(node)

    # -- painting ---------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QPainter(self)
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        dark = base.lightness() < 128
        accent = QColor(90, 160, 255) if dark else QColor(38, 110, 210)
        marker = QColor(255, 140, 60) if dark else QColor(226, 100, 20)
        painter.fillRect(self.rect(), base)
        plot = self._plot
        axis_font = self._axis_font()
        painter.setFont(axis_font)
        muted = mix(text, base, 0.5)
        grid = mix(text, base, 0.9)
        if len(self._main) <= 1 and not self._line:
            painter.setPen(muted)
            painter.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, f"The {self.value_name} graph starts with the first move"
            )
            return
        # grid and axis labels
        metrics = painter.fontMetrics()
        for tick in self._y_ticks:
            y = round(self._y(tick)) + 0.5
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(muted)
            label = self._format(tick)
            painter.drawText(
                QRectF(0, y - metrics.height() / 2, plot.left() - 6, metrics.height()),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                label,
            )
        for tick in self._x_ticks:
            x = round(self.x_for_move(tick)) + 0.5
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            painter.setPen(muted)
            width = metrics.horizontalAdvance(str(tick))
            left = min(max(x - width / 2, plot.left() - 2), self.width() - width - 2)
            painter.drawText(QPointF(left, plot.bottom() + 4 + metrics.ascent()), str(tick))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        # the series, drawn in data coordinates through the transform (cosmetic pens keep
        # their width in pixels)
        painter.save()
        painter.setTransform(self._to_widget, True)
        if not self._secondary_path.isEmpty():
            shade = QColor(text)
            shade.setAlpha(22 if dark else 16)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(shade)
            painter.drawPath(self._secondary_path)
        points = self._main_points
        if len(points) > 1:
            gradient = QLinearGradient(0, self._y_max, 0, 0)
            top = QColor(accent)
            top.setAlpha(70)
            low = QColor(accent)
            low.setAlpha(8)
            gradient.setColorAt(0, top)
            gradient.setColorAt(1, low)
            fill = QPolygonF(points)
            fill.append(QPointF(points.last().x(), 0))
            fill.append(QPointF(points.first().x(), 0))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(gradient))
            painter.drawPolygon(fill)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic(accent, 1.6))
            painter.drawPolyline(points)
        if len(self._line_points) > 1:  # the current node's own line, off the main line
            off = QColor(marker)
            off.setAlpha(200)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic(off, 1.4, Qt.PenStyle.DashLine))
            painter.drawPolyline(self._line_points)
        painter.restore()
        # the loss bars, under the axis labels
        strip = self.loss_strip()
        if not strip.isEmpty():
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(strip.left(), strip.bottom() + 0.5), QPointF(strip.right(), strip.bottom() + 0.5))
            painter.setPen(Qt.PenStyle.NoPen)
            # the worst drawn last: where bars crowd together on a long line, the worst shows
            for number, classification, rect in sorted(self.loss_bars(), key=lambda bar: LOSS_BAR_SHARE[bar[1]]):
                painter.setBrush(muted if number in self._stale else class_color(classification, dark) or muted)
                painter.drawRect(rect)
        # where variations leave the main line (the current one's in the marker's colour)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(muted)
        for number in self._branches:
            painter.drawPolygon(self._tick(number, 5))
        departure = self.departure()
        if departure is not None:
            painter.setBrush(marker)
            painter.drawPolygon(self._tick(departure, 7))
        # the current node
        current = self._current_point()
        if current is not None:
            x, y = current
            painter.setPen(QPen(marker, 1.2))
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            painter.setPen(QPen(base, 1.5))
            painter.setBrush(marker)
            painter.drawEllipse(QPointF(x, y), 4, 4)
        # hover
        if self._hover is not None and 0 <= self._hover < len(self._main):
            x = self.x_for_move(self._hover)
            y = self._y(self._main_values[self._hover])
            hover_pen = QPen(muted, 1, Qt.PenStyle.DotLine)
            painter.setPen(hover_pen)
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            painter.setPen(QPen(accent, 1.5))
            painter.setBrush(base)
            painter.drawEllipse(QPointF(x, y), 3.5, 3.5)
            self._draw_hover_box(painter, x, base, text, grid)

    def _tick(self, number: int, size: float) -> QPolygonF:
        x, bottom = self.x_for_move(number), self._plot.bottom()
        return QPolygonF([QPointF(x, bottom - size), QPointF(x - size * 0.6, bottom), QPointF(x + size * 0.6, bottom)])

    def _current_point(self) -> tuple[float, float] | None:
        tree = self.tree
        if tree is None:
            return None
        node = tree.current
        return self.x_for_move(node.move_number), self._y(self.value_of(node))

    def _draw_hover_box(self, painter: QPainter, x: float, base: QColor, text: QColor, border: QColor) -> None:
        label = self.hover_text()
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance(label) + 12
        height = metrics.height() + 6
        plot = self._plot
        left = x + 8 if x + 8 + width <= plot.right() else x - 8 - width
        left = max(plot.left(), left)
        box = QRectF(left, plot.top() + 2, width, height)
        painter.setPen(QPen(border, 1))
        fill = QColor(base)
        fill.setAlpha(235)
        painter.setBrush(fill)
        painter.drawRoundedRect(box, 3, 3)
        painter.setPen(text)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label)


__all__ = ["KEEP", "ScoreGraph", "cosmetic", "legal_move_count", "nice_step"]
