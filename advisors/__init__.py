"""Advisors: rank the moves of a position and explain them (built on ``engines`` only)."""
