"""armybuilder: army builder, list validator and rules engine for Rag'Narok 2 and friends."""

__version__ = "0.1.0"
