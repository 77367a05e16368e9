"""Destruct-o-Match advisor (spec 3): Irpan's value and pruned search as the baseline, and a
level planner that searches whole lines to the end of the level.

``rank(state)`` lists every group (and every Explode) best first, each with what the click removes,
its immediate points and the value of the best line found that starts with it.
"""

from advisors.destructo.ranking import DestructoCandidate, rank

__all__ = ["DestructoCandidate", "rank"]
