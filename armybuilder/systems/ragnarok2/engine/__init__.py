"""Rag'Narok 2 rules engine: dice as distributions, combat, battles."""

from armybuilder._native import choose

# Compiled modules (setup.py) or these sources: decided once, before any engine module loads.
choose(__name__, __path__)
