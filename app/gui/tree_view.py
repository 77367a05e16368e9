"""The move list: every line of a :class:`~engines.tree.MoveTree`, like a PGN move list.

The main line is a column of rows "1101.  5,6,1,1        871,000" (move number, the move's text,
the score after it). A move that has alternatives gets, under its row, one foldable *variation*
per alternative: a summary row ("▾ variation · 96 moves → 812,333") above the variation's own
rows, indented one step further; variations of variations nest the same way. Node labels
("★ best of ParanoidPlay: 1,234 splits") follow the move's text in their own colour, and the
current node's row is highlighted and kept in view.

The view follows the tree: it subscribes to the tree's changes and updates only the rows
concerned (playing at the end of a 1,200-move line inserts one row), and edits the tree only
when the player asks (a click goes to a node; the context menu promotes, deletes or copies a
line). It never takes the keyboard focus, so the window's arrow keys keep walking the tree.

The rows are kept *flat* (every row shown, in order, with its nesting level) and drawn by a
one-column table: Qt then only ever asks about the rows on screen, where a QTreeView would walk
all of them after every inserted row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QEvent, QModelIndex, QObject, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAction, QColor, QFont, QGuiApplication, QPainter, QPalette, QPolygon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.gui.review_style import class_color, is_stale, mark_of
from engines.contract import Game
from engines.tree import Change, MoveTree, Node

NODE_ROLE = Qt.ItemDataRole.UserRole + 1  # the Node of a move row (a variation's first node)
KIND_ROLE = Qt.ItemDataRole.UserRole + 2  # MOVE or VARIATION
LEVEL_ROLE = Qt.ItemDataRole.UserRole + 3  # 0: the main line; variations 1 (summary), 2 (moves), ...
SCORE_ROLE = Qt.ItemDataRole.UserRole + 4  # the score after the move, as shown ("878,866")
MOVE_ROLE = Qt.ItemDataRole.UserRole + 5  # the move's text
CURRENT_ROLE = Qt.ItemDataRole.UserRole + 6  # True on the current node's row

MOVE, VARIATION = "move", "variation"
LABEL_MARK = "★"
INDENTATION = 14  # pixels per level; a variation's moves are two levels under the move they replace
NAVIGATION_KEYS = {
    Qt.Key.Key_Left,
    Qt.Key.Key_Right,
    Qt.Key.Key_Up,
    Qt.Key.Key_Down,
    Qt.Key.Key_Home,
    Qt.Key.Key_End,
}


def chain(first: Node) -> list[Node]:
    """``first`` and its main continuation to the end (one row each, at one level)."""
    nodes = [first]
    node = first
    while node.children:
        node = node.children[0]
        nodes.append(node)
    return nodes


class Segment:
    """Moves shown at one level: the main line, or one variation (its first node is the
    alternative, the rest is that node's main continuation). ``owner`` is the move the variation
    is an alternative to, whose row it hangs under; None for the main line."""

    __slots__ = ("nodes", "owner")

    def __init__(self, nodes: list[Node], owner: Node | None) -> None:
        self.nodes = nodes
        self.owner = owner

    @property
    def head(self) -> Node:
        return self.nodes[0]


class Row:
    """One row shown: a move, or a variation's summary (``variation``; ``node`` is its first
    move). ``index`` is the row's place in the list, kept up to date by the model."""

    __slots__ = ("node", "segment", "level", "variation", "index")

    def __init__(self, node: Node, segment: Segment, level: int, variation: bool) -> None:
        self.node = node
        self.segment = segment
        self.level = level
        self.variation = variation
        self.index = -1


class MoveTreeModel(QAbstractListModel):
    """The rows of a move tree, flattened (see the module docstring).

    Two layers: *segments* mirror the tree's shape (which moves are shown at one level, which
    variations hang under which move), and *rows* are what is on screen in order (folded
    variations keep their segment but lose their rows). It changes only through the methods
    named after the tree's changes, which the view calls from its tree listener.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tree: MoveTree | None = None
        self.game: Game | None = None
        self.folded: set[int] = set()  # first-node ids of the folded variations
        self.review_settings: str | None = None  # the reviewer's settings now: other reviews are stale
        self._clear()

    def _clear(self) -> None:
        self.main = Segment([], None)
        self.rows: list[Row] = []
        self._place: dict[int, tuple[Segment, int]] = {}  # node id -> its segment and position
        self._variations: dict[int, list[Segment]] = {}  # owner node id -> its variations
        self._heads: dict[int, Segment] = {}  # first node id -> its variation
        self._move_rows: dict[int, Row] = {}  # node id -> its row, when shown
        self._variation_rows: dict[int, Row] = {}  # first node id -> the variation's row, when shown
        self._move_texts: dict[int, str] = {}
        self._scores: dict[int, int] = {}

    # -- texts ------------------------------------------------------------------------------
    def move_text(self, node: Node) -> str:
        text = self._move_texts.get(node.id)
        if text is None:
            text = self._move_texts[node.id] = self.game.move_text(node.move)
        return text

    def score(self, node: Node) -> int:
        score = self._scores.get(node.id)
        if score is None:
            score = self._scores[node.id] = int(self.game.score(node.state))
        return score

    def score_text(self, node: Node) -> str:
        return f"{self.score(node):,}"

    def variation_text(self, segment: Segment) -> str:
        count = len(segment.nodes)
        return f"variation · {count:,} move{'' if count == 1 else 's'} → {self.score_text(segment.nodes[-1])}"

    def row_text(self, row: Row) -> str:
        """A row as plain text: "1101. 5,6,1,1 871,000" (and the label), or the variation's
        summary."""
        if row.variation:
            return self.variation_text(row.segment)
        node = row.node
        mark = mark_of(node.review)
        text = f"{node.move_number}. {self.move_text(node)}{' ' + mark if mark else ''} {self.score_text(node)}"
        return f"{text} {LABEL_MARK} {node.label}" if node.label else text

    # -- finding rows -----------------------------------------------------------------------
    def row_at(self, index: QModelIndex | int) -> Row | None:
        number = index if isinstance(index, int) else (index.row() if index.isValid() else -1)
        return self.rows[number] if 0 <= number < len(self.rows) else None

    def node_of(self, index: QModelIndex) -> Node | None:
        """The node of a move row, or the first node of a variation row."""
        row = self.row_at(index)
        return None if row is None else row.node

    def is_variation(self, index: QModelIndex) -> bool:
        row = self.row_at(index)
        return row is not None and row.variation

    def index_of(self, node: Node) -> QModelIndex:
        """The row of ``node`` (invalid for the root, or a move inside a folded variation)."""
        row = self._move_rows.get(node.id)
        return QModelIndex() if row is None else self.index(row.index, 0)

    def variation_index(self, head: Node) -> QModelIndex:
        """The summary row of the variation starting with ``head`` (invalid if not shown)."""
        row = self._variation_rows.get(head.id)
        return QModelIndex() if row is None else self.index(row.index, 0)

    def contains(self, node: Node) -> bool:
        """Whether ``node`` is in the list (shown, or inside a folded variation)."""
        return node.id in self._place

    def _knows(self, node: Node) -> bool:
        """Whether ``node`` itself (not only a node with its id) is in the list."""
        place = self._place.get(node.id)
        return place is not None and place[1] < len(place[0].nodes) and place[0].nodes[place[1]] is node

    def segment_of(self, node: Node) -> Segment | None:
        place = self._place.get(node.id)
        return None if place is None else place[0]

    def variation_of_head(self, head: Node) -> Segment | None:
        return self._heads.get(head.id)

    def variations(self) -> Iterable[Segment]:
        return self._heads.values()

    # -- Qt's model interface ---------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 (Qt name)
        return 0 if parent.isValid() else len(self.rows)

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_at(index)
        if row is None or self.tree is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.row_text(row)
        if role == KIND_ROLE:
            return VARIATION if row.variation else MOVE
        if role == NODE_ROLE:
            return row.node
        if role == LEVEL_ROLE:
            return row.level
        if row.variation:
            if role == Qt.ItemDataRole.ToolTipRole:
                label = row.segment.nodes[-1].label
                ending = f"\n{LABEL_MARK} {label}" if label else ""
                return f"{self.variation_text(row.segment)}{ending}\nClick to fold or unfold"
            return None
        node = row.node
        if role == SCORE_ROLE:
            return self.score_text(node)
        if role == MOVE_ROLE:
            return self.move_text(node)
        if role == CURRENT_ROLE:
            return node is self.tree.current
        if role == Qt.ItemDataRole.ToolTipRole and (node.label or node.review is not None):
            parts = [f"{LABEL_MARK} {node.label}"] if node.label else []
            if node.review is not None:
                review = node.review
                stale = " (stale: reviewed with other settings)" if is_stale(review, self.review_settings) else ""
                parts.append(f"review: {review.verdict}, loss {review.loss:,.1f} (best {review.best}){stale}")
            return "\n".join(parts)
        return None

    # -- following the tree -----------------------------------------------------------------
    def set_tree(self, tree: MoveTree | None, game: Game | None = None) -> None:
        """Show ``tree`` (everything rebuilt, every variation unfolded)."""
        self.beginResetModel()
        self.tree = tree
        self.game = game if game is not None or tree is None else tree.game
        self.folded.clear()
        self._clear()
        if tree is not None and tree.root.children:
            self._extend(self.main, tree.root.children[0])
            self.rows = self._flatten_segment(self.main, 0, 0)
            self._number(0)
        self.endResetModel()

    def rebuild(self) -> None:
        self.set_tree(self.tree, self.game)

    def node_added(self, node: Node) -> None:
        """``node`` (and everything under it) is new. A node already in the list is not added
        again (the same change reported twice, see :meth:`MoveTreeView.set_tree`): a second
        copy of its variation would show its rows twice and break its deletion."""
        if self._knows(node):
            return
        parent = node.parent
        if parent.parent is not None and parent.id not in self._place:
            return  # played from a node no longer in the tree: nothing to show
        if parent.children[0] is node:
            segment, position = self._end_of(parent)
            if position != len(segment.nodes) - 1:  # a first child in the middle: cannot happen
                self.rebuild()
                return
            self._append(segment, node)
        else:
            self._insert_variation(node)

    def node_removed(self, parent: Node) -> None:
        """A move after ``parent`` was deleted with everything after it (nothing to do when
        the list already shows ``parent``'s moves as they are: the same change reported twice)."""
        if parent.parent is not None and not self._knows(parent):
            return  # deleted inside a line no longer in the list
        segment, position = self._end_of(parent)
        following = segment.nodes[position + 1] if position + 1 < len(segment.nodes) else None
        if following is not None and parent.children and parent.children[0] is following:
            alive = {id(child) for child in parent.children}
            variations = self._variations.get(following.id, [])
            for place in reversed(range(len(variations))):
                gone = variations[place]
                if id(gone.head) in alive:
                    continue
                header = self._variation_rows.get(gone.head.id)
                if header is not None and header.segment is gone:
                    self._remove_rows(header.index, self._block_end(header.index))
                del variations[place]
                if self._heads.get(gone.head.id) is gone:
                    del self._heads[gone.head.id]
                self._forget(gone.nodes)
            if not variations:
                self._variations.pop(following.id, None)
            return
        self._replace_after(parent)

    def node_promoted(self, node: Node) -> None:
        """The line through ``node`` became the first at every step: the rows change after the
        parent of the highest move that was in a variation."""
        path = []
        walk = node
        while walk.parent is not None:
            path.append(walk)
            walk = walk.parent
        if all(self.segment_of(step) is self.main for step in path):
            return  # already shown as the main line (the same change reported twice)
        for step in reversed(path):
            segment, position = self._place.get(step.id, (None, -1))
            if segment is None:
                break
            if position == 0 and segment.owner is not None:
                self._replace_after(step.parent)
                return
        self.rebuild()

    def node_relabelled(self, node: Node) -> None:
        self.repaint_node(node)
        segment = self.segment_of(node)
        if segment is not None:
            self._summary_changed(segment)

    def repaint_node(self, node: Node | None) -> None:
        """Repaint ``node``'s row (the current node changed, or its label)."""
        if node is not None:
            index = self.index_of(node)
            if index.isValid():
                self.dataChanged.emit(index, index)

    # -- folding ----------------------------------------------------------------------------
    def set_folded(self, head: Node, folded: bool) -> None:
        """Fold or unfold the variation starting with ``head`` (its summary row stays)."""
        if head.id not in self._heads or (head.id in self.folded) == folded:
            return
        header = self._variation_rows.get(head.id)
        if folded:
            self.folded.add(head.id)
            if header is not None:
                self._remove_rows(header.index + 1, self._block_end(header.index))
        else:
            self.folded.discard(head.id)
            if header is not None:
                rows = self._flatten_segment(self._heads[head.id], 0, header.level + 1)
                self._insert_rows(header.index + 1, rows)
        if header is not None:
            index = self.index(header.index, 0)
            self.dataChanged.emit(index, index)

    def reveal(self, node: Node) -> None:
        """Unfold every variation ``node`` is inside, so its row is shown."""
        if node.id in self._move_rows or node.id not in self._place:
            return
        heads = []
        segment = self._place[node.id][0]
        while segment.owner is not None:
            heads.append(segment.head)
            segment = self._place[segment.owner.id][0]
        for head in reversed(heads):
            self.set_folded(head, False)

    # -- segments ---------------------------------------------------------------------------
    def _end_of(self, node: Node) -> tuple[Segment, int]:
        """The segment ``node`` is in and its position there (the main line and -1 for the
        root)."""
        if node.parent is None:
            return self.main, -1
        return self._place[node.id]

    def _extend(self, segment: Segment, first: Node) -> list[Segment]:
        """Add ``first`` and its main continuation to the end of ``segment``, with every
        variation under them (and inside those); returns the variations made."""
        made: list[Segment] = []
        pending = [(segment, first)]
        while pending:
            segment, first = pending.pop()
            start = len(segment.nodes)
            segment.nodes.extend(chain(first))
            for position in range(start, len(segment.nodes)):
                row_node = segment.nodes[position]
                self._place[row_node.id] = (segment, position)
                if position == 0 and segment.owner is not None:
                    continue  # a variation's first move: its alternatives hang under the move it replaces
                alternatives = row_node.parent.children[1:]
                if alternatives:
                    variations = self._variations.setdefault(row_node.id, [])
                    for alternative in alternatives:
                        variation = Segment([], row_node)
                        variations.append(variation)
                        self._heads[alternative.id] = variation
                        made.append(variation)
                        pending.append((variation, alternative))
        return made

    def _forget(self, nodes: list[Node]) -> None:
        pending = [nodes]
        while pending:
            for node in pending.pop():
                self._place.pop(node.id, None)
                self._move_texts.pop(node.id, None)
                self._scores.pop(node.id, None)
                self.folded.discard(node.id)
                for variation in self._variations.pop(node.id, ()):
                    self._heads.pop(variation.head.id, None)
                    pending.append(variation.nodes)

    def _shows_moves_of(self, segment: Segment) -> Row | None | bool:
        """Whether ``segment``'s moves are on screen: True for the main line, its summary row
        when the variation is shown unfolded, else None."""
        if segment.owner is None:
            return True
        header = self._variation_rows.get(segment.head.id)
        return header if header is not None and segment.head.id not in self.folded else None

    def _moves_end(self, segment: Segment) -> int:
        """Where the rows of a shown segment end (after its last move's variations)."""
        if segment.owner is None:
            return len(self.rows)
        return self._block_end(self._variation_rows[segment.head.id].index)

    def _append(self, segment: Segment, first: Node) -> None:
        start = len(segment.nodes)
        self._extend(segment, first)
        shown = self._shows_moves_of(segment)
        if shown is not None:
            level = 0 if shown is True else shown.level + 1
            self._insert_rows(self._moves_end(segment), self._flatten_segment(segment, start, level))
        self._summary_changed(segment)

    def _insert_variation(self, head: Node) -> None:
        parent = head.parent
        owner = parent.children[0]
        if owner.id not in self._place:
            self.rebuild()
            return
        variation = Segment([], owner)
        variations = self._variations.setdefault(owner.id, [])
        place = min(parent.children.index(head) - 1, len(variations))
        variations.insert(place, variation)
        self._heads[head.id] = variation
        self._extend(variation, head)
        owner_row = self._move_rows.get(owner.id)
        if owner_row is None:
            return  # inside a folded variation
        position = owner_row.index + 1
        for earlier in variations[:place]:
            position = self._block_end(self._variation_rows[earlier.head.id].index)
        self._insert_rows(position, self._flatten_variation(variation, owner_row.level + 1))

    def _replace_after(self, parent: Node) -> None:
        """The moves after ``parent`` in its segment (and their variations) replaced by what
        the tree has there now."""
        segment, position = self._end_of(parent)
        shown = self._shows_moves_of(segment)
        if shown is not None:
            parent_row = self._move_rows.get(parent.id)
            start = 0 if parent_row is None else self._block_end(parent_row.index)  # None: the root
            self._remove_rows(start, self._moves_end(segment))
        gone = segment.nodes[position + 1 :]
        del segment.nodes[position + 1 :]
        self._forget(gone)
        if parent.children:
            self._append(segment, parent.children[0])
        else:
            self._summary_changed(segment)

    def _summary_changed(self, segment: Segment) -> None:
        """A variation's summary row shows its length and last score: repaint it."""
        if segment.owner is not None:
            self.repaint_variation(segment.head)

    def repaint_variation(self, head: Node) -> None:
        index = self.variation_index(head)
        if index.isValid():
            self.dataChanged.emit(index, index)

    # -- rows -------------------------------------------------------------------------------
    def _flatten_segment(self, segment: Segment, start: int, level: int) -> list[Row]:
        """The rows of ``segment``'s moves from ``start`` on, at ``level``, with their
        variations (folded ones as their summary row alone)."""
        rows: list[Row] = []
        pending: list[tuple] = [(segment, start, level)]
        while pending:
            item = pending.pop()
            if isinstance(item[0], Row):  # a variation's summary row, then its moves
                header = item[0]
                rows.append(header)
                if header.node.id not in self.folded:
                    pending.append((header.segment, 0, header.level + 1))
                continue
            segment, position, level = item
            nodes = segment.nodes
            while position < len(nodes):
                node = nodes[position]
                rows.append(Row(node, segment, level, False))
                position += 1
                variations = self._variations.get(node.id)
                if variations:
                    pending.append((segment, position, level))
                    for variation in reversed(variations):
                        pending.append((Row(variation.head, variation, level + 1, True),))
                    break
        return rows

    def _flatten_variation(self, variation: Segment, level: int) -> list[Row]:
        header = Row(variation.head, variation, level, True)
        if variation.head.id in self.folded:
            return [header]
        return [header, *self._flatten_segment(variation, 0, level + 1)]

    def _block_end(self, index: int) -> int:
        """The row after ``index``'s row and everything nested under it."""
        rows = self.rows
        level = rows[index].level
        end = index + 1
        while end < len(rows) and rows[end].level > level:
            end += 1
        return end

    def _number(self, start: int) -> None:
        rows = self.rows
        for number in range(start, len(rows)):
            row = rows[number]
            row.index = number
            if row.variation:
                self._variation_rows[row.node.id] = row
            else:
                self._move_rows[row.node.id] = row

    def _insert_rows(self, position: int, rows: list[Row]) -> None:
        if not rows:
            return
        self.beginInsertRows(QModelIndex(), position, position + len(rows) - 1)
        self.rows[position:position] = rows
        self._number(position)
        self.endInsertRows()

    def _remove_rows(self, start: int, end: int) -> None:
        if end <= start:
            return
        self.beginRemoveRows(QModelIndex(), start, end - 1)
        for row in self.rows[start:end]:
            rows = self._variation_rows if row.variation else self._move_rows
            if rows.get(row.node.id) is row:
                del rows[row.node.id]
        del self.rows[start:end]
        self._number(start)
        self.endRemoveRows()


class _Colors:
    """The list's colours, from the widget's palette (light or dark)."""

    def __init__(self, palette: QPalette) -> None:
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        accent = palette.color(QPalette.ColorRole.Highlight)
        dark = base.lightness() < 128
        self.base = base
        self.text = text
        self.variation_text = mix(text, base, 0.25)
        self.muted = mix(text, base, 0.5)
        self.guide = mix(text, base, 0.78)
        self.accent = accent
        self.current = mix(accent, base, 0.72 if dark else 0.8)
        self.hover = mix(text, base, 0.94)
        self.label = QColor(240, 190, 70) if dark else QColor(168, 105, 0)


def mix(color: QColor, other: QColor, amount: float) -> QColor:
    """``color`` moved ``amount`` of the way to ``other``."""
    keep = 1.0 - amount
    return QColor(
        round(color.red() * keep + other.red() * amount),
        round(color.green() * keep + other.green() * amount),
        round(color.blue() * keep + other.blue() * amount),
    )


class _RowDelegate(QStyledItemDelegate):
    """Paints a move row (number, move, label, score at the right edge) or a variation's
    summary row, indented by level, with fold arrows and a guide line per variation."""

    def __init__(self, view: _MoveList) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802
        return QSize(100, self.view.row_height())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        model: MoveTreeModel = index.model()
        row = model.row_at(index)
        if row is None or model.tree is None:
            return
        colors = self.view.colors
        rect = option.rect
        painter.save()
        current = not row.variation and row.node is model.tree.current
        if current:
            painter.fillRect(rect, colors.current)
        elif option.state & QStyle.StateFlag.State_MouseOver:
            painter.fillRect(rect, colors.hover)
        # a guide under each variation this row is inside (summary rows sit at odd levels)
        painter.setPen(colors.guide)
        for level in range(1, row.level, 2):
            x = rect.left() + level * INDENTATION - INDENTATION // 2
            painter.drawLine(x, rect.top(), x, rect.bottom())
        left = rect.left() + row.level * INDENTATION + 4
        if current:
            painter.fillRect(QRect(left - 4, rect.top(), 3, rect.height()), colors.accent)
        if row.variation:
            self._paint_variation(painter, option, model, row, left)
        else:
            self._paint_move(painter, option, model, row, left, current)
        painter.restore()

    def _paint_variation(self, painter, option, model: MoveTreeModel, row: Row, left: int) -> None:
        rect = option.rect
        colors = self.view.colors
        x = left - 4 - INDENTATION // 2
        y = rect.center().y()
        size = 4
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors.muted)
        if row.node.id in model.folded:
            points = [QPoint(x - size // 2, y - size), QPoint(x - size // 2, y + size), QPoint(x + size, y)]
        else:
            points = [QPoint(x - size, y - size // 2), QPoint(x + size, y - size // 2), QPoint(x, y + size)]
        painter.drawPolygon(QPolygon(points))
        font = QFont(option.font)
        font.setItalic(True)
        painter.setFont(font)
        painter.setPen(colors.muted)
        text = model.variation_text(row.segment)
        area = QRect(left, rect.top(), rect.right() - 6 - left, rect.height())
        middle_left = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        metrics = painter.fontMetrics()
        painter.drawText(area, middle_left, metrics.elidedText(text, Qt.TextElideMode.ElideRight, area.width()))
        label = row.segment.nodes[-1].label
        width = metrics.horizontalAdvance(text) + 12
        if label and area.width() - width > 24:
            painter.setPen(colors.label)
            painter.drawText(
                area.adjusted(width, 0, 0, 0),
                middle_left,
                metrics.elidedText(f"{LABEL_MARK} {label}", Qt.TextElideMode.ElideRight, area.width() - width),
            )

    def _paint_move(self, painter, option, model: MoveTreeModel, row: Row, left: int, current: bool) -> None:
        rect = option.rect
        colors = self.view.colors
        node = row.node
        middle = Qt.AlignmentFlag.AlignVCenter
        metrics = option.fontMetrics
        # the move number, right-aligned in a gutter wide enough for the longest line's number
        gutter = self.view.number_width()
        painter.setPen(colors.muted)
        painter.drawText(
            QRect(left, rect.top(), gutter, rect.height()), middle | Qt.AlignmentFlag.AlignRight, f"{node.move_number}."
        )
        # the score at the right edge, aligned down the whole list
        score = model.score_text(node)
        score_width = metrics.horizontalAdvance(score)
        score_rect = QRect(rect.right() - 8 - score_width, rect.top(), score_width, rect.height())
        painter.setPen(colors.text if current else colors.muted)
        painter.drawText(score_rect, middle | Qt.AlignmentFlag.AlignRight, score)
        # the move, then its label in its own colour
        move_left = left + gutter + 8
        room = score_rect.left() - 12 - move_left
        font = QFont(option.font)
        font.setBold(current)
        painter.setFont(font)
        move = model.move_text(node)
        move_width = painter.fontMetrics().horizontalAdvance(move)
        painter.setPen(colors.text if current or row.level == 0 else colors.variation_text)
        painter.drawText(QRect(move_left, rect.top(), max(0, room), rect.height()), middle, move)
        mark = mark_of(node.review)
        if mark and room - move_width > 16:  # the review's symbol, bold, in its class colour
            mark_font = QFont(option.font)
            mark_font.setBold(True)
            painter.setFont(mark_font)
            stale = is_stale(node.review, model.review_settings)
            painter.setPen(colors.muted if stale else
                           class_color(node.review.classification, colors.base.lightness() < 128) or colors.text)
            painter.drawText(QRect(move_left + move_width + 3, rect.top(), room - move_width - 3, rect.height()),
                             middle, mark)
            move_width += 3 + painter.fontMetrics().horizontalAdvance(mark)
            painter.setFont(font)
        if node.label and room - move_width > 36:
            label_font = QFont(option.font)
            label_font.setItalic(True)
            painter.setFont(label_font)
            painter.setPen(colors.label)
            label_left = move_left + move_width + 12
            label_room = room - move_width - 12
            label = f"{LABEL_MARK} {node.label}"
            text = painter.fontMetrics().elidedText(label, Qt.TextElideMode.ElideRight, label_room)
            painter.drawText(QRect(label_left, rect.top(), label_room, rect.height()), middle, text)


class _MoveList(QTableView):
    """The list proper: one stretched column, no headers or grid, rows of one height, no
    selection, and no keyboard focus (arrow keys belong to the window)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = _Colors(self.palette())
        self.setObjectName("moveList")
        self.horizontalHeader().hide()
        self.horizontalHeader().setStretchLastSection(True)
        vertical = self.verticalHeader()
        vertical.hide()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.row_height())
        vertical.setMinimumSectionSize(1)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setCornerButtonEnabled(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMouseTracking(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setItemDelegate(_RowDelegate(self))
        self._number_digits = 0
        self._number_width = 0

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self.colors = _Colors(self.palette())
            self._number_digits = 0
            self.verticalHeader().setDefaultSectionSize(self.row_height())
        super().changeEvent(event)

    def row_height(self) -> int:
        return self.fontMetrics().height() + 8

    def number_width(self) -> int:
        """Width of the move-number gutter: room for "8888." once the main line has 4-digit
        move numbers."""
        model = self.model()
        longest = len(model.main.nodes) if isinstance(model, MoveTreeModel) else 0
        digits = max(2, len(str(longest)))
        if digits != self._number_digits:
            self._number_digits = digits
            self._number_width = self.fontMetrics().horizontalAdvance("8" * digits + ".")
        return self._number_width

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().paintEvent(event)
        model = self.model()
        if model is None or model.rowCount() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.colors.muted)
            painter.drawText(
                self.viewport().rect().adjusted(8, 12, -8, -8),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                "No moves yet",
            )

    # -- keys: the window's ---------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and event.key() in NAVIGATION_KEYS:
            event.ignore()  # the window's shortcut takes it
            return False
        return super().event(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt name)
        if event.key() in NAVIGATION_KEYS:
            event.ignore()
            return
        super().keyPressEvent(event)


class MoveTreeView(QWidget):
    """The move list of a :class:`MoveTree` (see the module docstring).

    Signals:

    - ``node_activated(node)``: the player clicked a move; the tree already went there.
    - ``tree_edited(message)``: the view promoted or deleted a line (a status-bar message).
    - ``promote_requested(node)``, ``delete_requested(node)``: with ``edits_tree=False`` the view
      only asks and the window edits the tree (the view follows the tree's changes either way).
    - ``line_copied(text)``: "Copy line to here" put a sequence file's text on the clipboard.
    """

    node_activated = Signal(object)
    tree_edited = Signal(str)
    promote_requested = Signal(object)
    delete_requested = Signal(object)
    line_copied = Signal(str)

    def __init__(self, parent: QWidget | None = None, edits_tree: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("moveTreeView")
        self.edits_tree = edits_tree
        self.tree: MoveTree | None = None
        self.game: Game | None = None
        self.model = MoveTreeModel(self)
        self.list = _MoveList(self)
        self.list.setModel(self.model)
        self.list.clicked.connect(self._clicked)
        self.list.customContextMenuRequested.connect(self._context_menu_requested)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        self._shown_current: Node | None = None
        self.list.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        """Keep the current move in view when the list is resized (or first shown)."""
        if event.type() == QEvent.Type.Resize and self._shown_current is not None:
            self.scroll_to(self._shown_current)
        return False

    # -- the tree ---------------------------------------------------------------------------
    def set_review_settings(self, settings: str | None) -> None:
        """The reviewer's settings now: reviewed moves with other settings show their marks muted."""
        model = self.model
        if model.review_settings != settings:
            model.review_settings = settings
            if model.rows:
                model.dataChanged.emit(model.index(0, 0), model.index(len(model.rows) - 1, 0))

    def set_tree(self, tree: MoveTree | None, game: Game | None = None) -> None:
        """Show ``tree`` (None: nothing) and follow its changes.

        The view may hear a change more than once: showing the same tree again while its
        listener is subscribed under another name (wrapped by a timing harness, as
        benchmarks/gui_responsiveness.py does while the window re-shows its analysis) subscribes
        it a second time. The model takes a change it already follows as done (see
        :meth:`MoveTreeModel.node_added`, ``node_removed``, ``node_promoted``)."""
        if self.tree is not None:
            self.tree.unsubscribe(self._tree_changed)
        self.tree = tree
        self.game = game if game is not None or tree is None else tree.game
        self._shown_current = None
        self.model.set_tree(tree, self.game)
        if tree is not None:
            tree.subscribe(self._tree_changed)
            self._show_current(tree.current)

    def _tree_changed(self, change: Change, node: Node) -> None:
        model = self.model
        if change is Change.CURRENT:
            self._show_current(node)
            return
        if change is Change.LABEL:
            model.node_relabelled(node)
            return
        if change is Change.REVIEW:  # marks changed, rows did not
            if model.rows:
                model.dataChanged.emit(model.index(0, 0), model.index(len(model.rows) - 1, 0))
            return
        if change is Change.ADDED:
            model.node_added(node)
        elif change is Change.REMOVED:
            model.node_removed(node)
        elif change is Change.REORDERED:
            model.node_promoted(node)
        else:  # RESET
            model.rebuild()
            self._shown_current = None
        current = self.tree.current
        if self._shown_current is not current or not self.index_of(current).isValid():
            self._show_current(current)

    def _show_current(self, node: Node | None) -> None:
        previous, self._shown_current = self._shown_current, node
        if previous is not None and previous is not node:
            self.model.repaint_node(previous)
        if node is None:
            return
        if node.parent is None:
            self.list.scrollToTop()
            return
        self.model.reveal(node)
        self.model.repaint_node(node)
        self.scroll_to(node)

    def scroll_to(self, node: Node) -> None:
        """Bring ``node``'s row into view with a little context: a row near an edge scrolls to
        the middle."""
        index = self.model.index_of(node)
        if not index.isValid():
            return
        rect = self.list.visualRect(index)
        height = self.list.viewport().height()
        margin = min(2 * self.list.row_height(), height // 4)
        if rect.isValid() and rect.top() >= margin and rect.bottom() <= height - margin:
            return
        self.list.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    # -- reading (for the window and tests) -------------------------------------------------
    def index_of(self, node: Node) -> QModelIndex:
        """The row of a move (invalid for the root or a move in a folded variation)."""
        return self.model.index_of(node)

    def variation_index(self, head: Node) -> QModelIndex:
        """The summary row of the variation starting with ``head``."""
        return self.model.variation_index(head)

    def node_at(self, index: QModelIndex) -> Node | None:
        return self.model.node_of(index)

    def row_texts(self) -> list[str]:
        """Every row as plain text, top to bottom (variation rows indented by two spaces a
        level)."""
        return ["  " * row.level + self.model.row_text(row) for row in self.model.rows]

    def is_folded(self, head: Node) -> bool:
        return head.id in self.model.folded

    def set_folded(self, head: Node, folded: bool) -> None:
        """Fold or unfold the variation starting with ``head``."""
        self.model.set_folded(head, folded)

    # -- the player's actions ---------------------------------------------------------------
    def _clicked(self, index: QModelIndex) -> None:
        row = self.model.row_at(index)
        if row is None or self.tree is None:
            return
        if row.variation:
            self.set_folded(row.node, not self.is_folded(row.node))
            return
        self.tree.go_to(row.node)
        self.node_activated.emit(row.node)

    def context_menu(self, node: Node, variation: bool = False) -> QMenu:
        """The menu of ``node``'s row (``variation``: of the variation starting with it)."""
        menu = QMenu(self)
        promote = QAction("Promote to main line", menu)
        promote.setEnabled(not node.is_main_line)
        promote.triggered.connect(lambda _checked=False: self.promote(node))
        delete = QAction("Delete from here", menu)
        delete.triggered.connect(lambda _checked=False: self.delete(node))
        copy = QAction("Copy line to here", menu)
        copy.triggered.connect(lambda _checked=False: self.copy_line(node))
        menu.addActions([promote, delete])
        menu.addSeparator()
        menu.addAction(copy)
        if variation:
            menu.addSeparator()
            folded = self.is_folded(node)
            fold = QAction("Unfold variation" if folded else "Fold variation", menu)
            fold.triggered.connect(lambda _checked=False: self.set_folded(node, not folded))
            menu.addAction(fold)
        return menu

    def _context_menu_requested(self, position: QPoint) -> None:
        index = self.list.indexAt(position)
        row = self.model.row_at(index)
        if row is None:
            return
        menu = self.context_menu(row.node, row.variation)
        self._open_menu(menu, self.list.viewport().mapToGlobal(position))
        menu.deleteLater()

    def _open_menu(self, menu: QMenu, position: QPoint) -> None:
        menu.exec(position)

    def promote(self, node: Node) -> None:
        """Make the line through ``node`` the main line (or ask the window to)."""
        if self.tree is None:
            return
        if not self.edits_tree:
            self.promote_requested.emit(node)
            return
        if self.tree.promote(node):
            self.tree_edited.emit(f"The line through move {node.move_number} is now the main line")

    def delete(self, node: Node) -> None:
        """Delete ``node`` and every move after it (or ask the window to)."""
        if self.tree is None or node.parent is None:
            return
        if not self.edits_tree:
            self.delete_requested.emit(node)
            return
        removed = self.tree.delete(node)
        self.tree_edited.emit(f"Deleted {removed:,} move{'' if removed == 1 else 's'} from move {node.move_number}")

    def copy_line(self, node: Node) -> str:
        """Put the moves from the start to ``node`` on the clipboard as a sequence file's text."""
        if self.tree is None:
            return ""
        text = self.game.sequence_text(self.tree.line(node))
        QGuiApplication.clipboard().setText(text)
        self.line_copied.emit(text)
        return text


__all__ = [
    "CURRENT_ROLE",
    "KIND_ROLE",
    "LEVEL_ROLE",
    "MOVE",
    "MOVE_ROLE",
    "NODE_ROLE",
    "SCORE_ROLE",
    "VARIATION",
    "MoveTreeModel",
    "MoveTreeView",
    "Row",
    "Segment",
]
