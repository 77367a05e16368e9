"""Learned evaluations shipped with Kibitz: ``hatetris.npz``, made by benchmarks/hatetris_learned.py."""
