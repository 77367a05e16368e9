"""HATETRIS advisors: the ranked placements, the hand heuristic, beam search and exhaustive small-well search."""
