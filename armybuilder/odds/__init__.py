"""Exact odds calculators in pure Python, importable without a game system's package.

Each module here holds one system's odds maths and parameters: what ``armybuilder odds
SYSTEM`` needs, and nothing of the system's models, catalogue loader or battle engine, so
the command starts in a few tens of milliseconds (no pydantic, no numpy).  The system's
``engine/odds.py`` is still the entry point of the game-system protocol (the TUI, the
bench and the command's first run call it): it reads the catalogue's tables into the plain
form these modules take, then calls the same ``compute``, so every surface shows the very
same floats.  :mod:`.tables` remembers a system's plain tables for the command's next runs.
"""
