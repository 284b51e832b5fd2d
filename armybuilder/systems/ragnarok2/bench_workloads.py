"""What ``armybuilder bench`` measures of Rag'Narok 2 beyond the protocol (``GameSystem.bench_module``).

design.md's whole-process, odds and fray budgets are stated for Rag'Narok 2: the bench measures
them on this system's samples and catalogue, its exact fray and its credibility figures, and
finds each of them here by name.
"""

from __future__ import annotations

from typing import Any

#: the system whose samples and catalogue the whole-process and in-process lines measure
WHOLE_PROCESS_LINES = True
#: the two samples whose first units fight the exact-fray line (20 fighters each, with Characters)
FRAY_SAMPLES = ("alahan-lions", "tir-na-bor-plains-guard")


def exact_fray(*args: Any, **kwargs: Any) -> Any:
    """:func:`.engine.exact.exact_fray` (imported when the line runs)."""
    from .engine.exact import exact_fray

    return exact_fray(*args, **kwargs)


def credibility(games: int) -> Any:
    """:func:`.engine.credibility.credibility` (imported when the line runs)."""
    from .engine.credibility import credibility

    return credibility(games)


def cut_target() -> float:
    """The win rate a full list must reach against its cut copy."""
    from .engine.credibility import CUT_TARGET

    return CUT_TARGET


def odds_tables(cat: Any) -> list[list[Any]]:
    """The contest table as the odds calculator's rows (icepool's comparison reads it)."""
    from .engine.odds import odds_tables

    return odds_tables(cat)


def fighting_targets() -> tuple[float, float]:
    """The samples' matrix must have a fray in this share of its games, and frays and routs
    must destroy this share of the A.P. (issue 33's measure of armies that fight)."""
    from .engine.credibility import FRAY_GAMES_TARGET, MELEE_TARGET

    return FRAY_GAMES_TARGET, MELEE_TARGET
