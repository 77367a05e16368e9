"""Destruct-o-Match (Neopets, HTML5): the rules of ``shared/specs/destructo.md``.

So far only the deterministic core lives here (:mod:`engines.destructo.rules`); the game is not in
``engines.GAMES`` until its states, notation and chance steps are written.
"""
