"""What ``armybuilder bench`` measures of Rattle and Rend beyond the protocol (``GameSystem.bench_module``)."""

from __future__ import annotations

from typing import Any

#: the suggestion line's planted weakness (tests/suggest/test_suggest_proofs.py): the sample
#: "Dwarven Throng" with two Fighters groups removed (4 of 12 points unspent) against
#: "Vampire Court", 48 games a list; (sample, edits, opponent, games)
SUGGEST_PLANT: tuple[str, list[tuple[str, str, dict[str, Any]]], str, int] = (
    "dwarven-throng", [("groups[1]", "remove-group", {}), ("groups[1]", "remove-group", {})], "vampire-court", 48)
#: the edits that repair it (the proof test's)
SUGGEST_REPAIRS = frozenset({"add-group", "duplicate-group"})
