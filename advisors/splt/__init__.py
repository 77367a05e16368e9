"""SPL-T advisors: the reference weighting heuristic, predictors and searches (spec section 3)."""
