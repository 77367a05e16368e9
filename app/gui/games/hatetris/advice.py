"""The HATETRIS pieces of the advisor panel and of the badges on the board.

The advisor (``advisors.hatetris.heuristic``) ranks every distinct resting placement of the piece
the AI sent and says, for each, how many lines it clears and which piece the AI sends after it.
The panel's extra columns and the board's badges show those; the colour cue of a row is the same
as the board's badge: green for a line, brighter for more, red for a placement that ends the game.
"""

from __future__ import annotations

from typing import Any

from app.gui.games import CandidateColumn
from engines.hatetris.pieces import CELLS

#: (r, g, b) of a candidate that clears lines, by lines (capped at 4), and of one that ends the game.
LINE_RGB = {1: (70, 200, 95), 2: (40, 220, 150), 3: (40, 225, 215), 4: (255, 215, 0)}
GAME_OVER_RGB = (235, 60, 50)


def lines_of(candidate: Any) -> int:
    return int(getattr(candidate, "lines", 0) or 0)


def is_game_over(candidate: Any) -> bool:
    return bool(getattr(candidate, "game_over", False))


def candidate_color(candidate: Any) -> tuple[int, int, int] | None:
    """The row's colour cue: red when the placement ends the game, green shades for lines,
    none otherwise."""
    if is_game_over(candidate):
        return GAME_OVER_RGB
    lines = lines_of(candidate)
    return LINE_RGB[min(lines, 4)] if lines > 0 else None


def column_span(move: Any) -> tuple[int, int]:
    """The leftmost and rightmost well columns a placement's cells cover."""
    xs = [move.x + cx for cx, _ in CELLS[move.piece_index][move.o]]
    return min(xs), max(xs)


def candidate_label(candidate: Any) -> str:
    """The Move column, e.g. ``S cols 7–9 rot 0`` (well columns 0-9 from the left, quarter
    turns clockwise); the exact placement ``S@6,17,0`` is in the tooltip."""
    move = candidate.move
    first, last = column_span(move)
    columns = f"col {first}" if first == last else f"cols {first}–{last}"
    return f"{move.piece} {columns} rot {move.o}"


def next_text(candidate: Any) -> str:
    """The Next column: the piece the AI sends after this placement ("–" if the game ends)."""
    piece = getattr(candidate, "next_piece", None)
    return piece if piece else "–"


def next_tooltip(candidate: Any) -> str:
    piece = getattr(candidate, "next_piece", None)
    if piece is None:
        return "This placement ends the game: the AI sends nothing more."
    return f"After this placement the AI sends {piece}."


def lines_text(candidate: Any) -> str:
    lines = lines_of(candidate)
    return str(lines) if lines else ""


def height_text(candidate: Any) -> str:
    """The stack's height after the placement, in rows above the floor (of the 16 below the bar)."""
    well = getattr(candidate, "well_after", None)
    if not well:
        return ""
    top = next((index for index, row in enumerate(well) if row), len(well))
    return str(len(well) - top)


def holes_text(candidate: Any) -> str:
    """The heuristic's hole count after the placement (empty when the game ends)."""
    for name, value in getattr(candidate, "terms", ()) or ():
        if name == "holes":
            return str(round(value))
    return ""


def terms_tooltip(candidate: Any) -> str:
    """The placement, its keys and the heuristic's terms, one per line."""
    lines = [str(candidate.move)]
    keys = getattr(candidate, "keys", "")
    if keys:
        lines.append(f"keys {keys}")
    for name, value in getattr(candidate, "terms", ()) or ():
        lines.append(f"{name}: {value:+.2f}")
    if candidate.explanation:
        lines.append(candidate.explanation)
    lines.extend(candidate.warnings)
    return "\n".join(lines)


def badge_text(candidate: Any) -> str:
    """The badge by a ghost on the board: ``→ Z`` (the AI's next piece), ``+1`` for a line,
    ``✕ over`` for a placement that ends the game."""
    if is_game_over(candidate) or getattr(candidate, "next_piece", None) is None:
        return "✕ over"
    lines = lines_of(candidate)
    return f"→ {candidate.next_piece}" + (f" +{lines}" if lines else "")


def _with_terms(first_line):
    """A column tooltip: its own sentence, then the placement, its keys and the terms."""
    return lambda candidate: f"{first_line(candidate)}\n\n{terms_tooltip(candidate)}"


def _lines_sentence(candidate: Any) -> str:
    lines = lines_of(candidate)
    return f"Clears {lines} line{'' if lines == 1 else 's'}."


COLUMNS = (
    CandidateColumn("Lines", lines_text, _with_terms(_lines_sentence)),
    CandidateColumn("Next", next_text, _with_terms(next_tooltip), compact=True),
    CandidateColumn("Height", height_text,
                    _with_terms(lambda c: "Rows the stack fills above the floor after this placement.")),
    CandidateColumn("Holes", holes_text,
                    _with_terms(lambda c: "Empty cells with a filled cell above them, after this placement.")),
)
