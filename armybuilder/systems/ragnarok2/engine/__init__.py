"""Rag'Narok 2 rules engine: dice as distributions, combat, battles."""
