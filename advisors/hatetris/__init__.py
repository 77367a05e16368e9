"""HATETRIS advisors: the ranked placements, the hand heuristic, beam search and exhaustive small-well search."""

#: The longest chain of single clears the beam's lookahead follows (spec 3.5): a level clears a
#: line, so 16 levels reach the floor of a 16-row well. Here, so the command line can check it
#: without loading the kernels.
MAX_LOOKAHEAD = 16
