"""The 1010! pieces of the advisor panel: the planner's first placements, each with its best plan."""

from __future__ import annotations

from typing import Any

from advisors.tenten import shared_planner
from advisors.tenten import evaluation
from app.gui.games import CandidateColumn
from engines.tenten.state import State

BEST_RGB = (46, 200, 90)
DOOMED_RGB = (200, 80, 80)


def rank(state: State, limit: int | None = None) -> list[Any]:
    """The window's ``rank(state, limit)``: Coelho's round planner (weights 10025); nothing while
    a deal is due."""
    if state.deal_due:
        return []
    return shared_planner().rank(state, limit)


def candidate_label(candidate: Any) -> str:
    return str(candidate.move)


def candidate_color(candidate: Any) -> tuple[int, int, int] | None:
    if candidate.plan is not None and not candidate.plan.complete:
        return DOOMED_RGB
    return BEST_RGB if candidate.loss == 0 else None


def plan_text(candidate: Any) -> str:
    return " → ".join(str(place) for place in candidate.plan.placements) if candidate.plan else ""


def free_text(candidate: Any) -> str:
    plan = candidate.plan
    if plan is None:
        return ""
    return str(100 - plan.final.filled_count) if plan.complete else "ends"


def criteria_tooltip(candidate: Any) -> str:
    plan = candidate.plan
    if plan is None:
        return candidate.explanation
    terms = evaluation.terms(plan.final.filled, probes=False)
    return (f"{candidate.explanation}\n\nvalue {candidate.score:.4f} = free cells {terms.free} + 2 × alignment "
            f"{terms.alignment:.4f} + 5 × compaction {terms.compaction:.4f} (+ 1e-7 × points)")


COLUMNS = (
    CandidateColumn("Plan", plan_text, criteria_tooltip),
    CandidateColumn("Free", free_text, lambda c: "Empty cells the plan leaves (Coelho's first criterion).\n\n"
                    + criteria_tooltip(c)),
)
