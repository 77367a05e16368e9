"""What every advisor returns: ranked candidates (DESIGN.md, "Advisors")."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One move as an advisor sees it.

    ``score`` is on the advisor's own scale (higher is better); ``loss`` is the best candidate's
    score minus this one's; ``explanation`` is a short human sentence; ``warnings`` are things the
    player cannot see on the board.
    """

    move: Any
    score: float
    loss: float
    explanation: str
    principal_variation: tuple[Any, ...] = ()
    warnings: tuple[str, ...] = ()
