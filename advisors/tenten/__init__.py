"""1010! advisor: Coelho's exhaustive round planner and evaluation (spec 3.1-3.3)."""

from advisors.tenten.evaluation import DEFAULT, Weights
from advisors.tenten.planner import Plan, Planner, Planning, TenTenCandidate, orders, shared_planner

__all__ = ["DEFAULT", "Plan", "Planner", "Planning", "TenTenCandidate", "Weights", "orders", "shared_planner"]
