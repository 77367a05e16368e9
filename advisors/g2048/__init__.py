"""The 2048 advisor: expectimax in the class of nneonneo/2048-ai (spec 3.2-3.3)."""

from advisors.g2048.heuristic import PUBLISHED, Weights
from advisors.g2048.search import ADAPTIVE, Budget, Evaluation, Expectimax, G2048Candidate, rank, shared_advisor

__all__ = ["ADAPTIVE", "Budget", "Evaluation", "Expectimax", "G2048Candidate", "PUBLISHED", "Weights", "rank",
           "shared_advisor"]
