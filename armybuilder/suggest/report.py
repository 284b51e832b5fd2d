"""What a suggestion run says: the text report, the JSON, the lists' YAML.

Every text that came from a file (list and unit names, labels) goes through
:mod:`armybuilder.core.sanitize` before it reaches the terminal or the JSON.
A suggestion's ``list_yaml`` is the list file the edit gives, written from the
player's own document (comments and layout kept) by the list-file round trip.
"""

from __future__ import annotations

import copy
from typing import Any

from armybuilder.core.lists import ListFile
from armybuilder.core.sanitize import visible

from .run import Step, Suggestion, SuggestRun


def list_yaml(base: ListFile, army: Any) -> str:
    """The file text of *army* written over a copy of the base list's document."""
    return ListFile(None, copy.deepcopy(base.doc), base.system, army).render()


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _signed(x: float) -> str:
    return f"{x:+.1%}"


def _cost(x: float, unit: str) -> str:
    shown = f"{x:+g}" if x else "±0"
    return f"{shown} {unit}"


def unit_changes(base: dict[str, list[float]], after: dict[str, list[float]]) -> list[dict[str, Any]]:
    """Per unit of either list: survival and points eliminated a game, before and after.

    Units whose figures moved most come first (a new or a removed unit counts its whole
    figures as the move).
    """
    rows: list[tuple[float, dict[str, Any]]] = []
    for name in sorted({*base, *after}):
        b, a = base.get(name), after.get(name)

        def figures(row: list[float] | None) -> tuple[float, float] | None:
            if row is None or not row[1]:
                return None
            return row[2] / row[1], row[3] / row[1]

        fb, fa = figures(b), figures(a)
        move = abs((fa or (0, 0))[1] - (fb or (0, 0))[1]) + abs((fa or (0, 0))[0] - (fb or (0, 0))[0]) * 10
        rows.append((move, {
            "unit": name,
            "points": (a or b or [0])[0],
            "survived_before": fb[0] if fb else None, "survived_after": fa[0] if fa else None,
            "eliminated_before": fb[1] if fb else None, "eliminated_after": fa[1] if fa else None,
        }))
    rows.sort(key=lambda r: -r[0])
    return [row for _, row in rows]


def suggestion_json(run: SuggestRun, step: Step, s: Suggestion, base: ListFile) -> dict[str, Any]:
    return {
        "edit": {**s.neighbour.edit.as_json(), "words": visible(s.neighbour.edit.words)},
        "cost": s.neighbour.cost,
        "points": s.neighbour.points,
        "confirmed": s.confirmed,
        "racing": {"games": s.standing.racing.games, "gain": s.standing.racing.mean},
        **(s.standing.confirmed.as_json() if s.standing.confirmed else {}),
        "units": [{**u, "unit": visible(u["unit"])} for u in unit_changes(step.base_units, s.units)],
        "list_yaml": list_yaml(base, s.neighbour.army),
    }


def run_json(run: SuggestRun, base: ListFile) -> dict[str, Any]:
    return {
        "system": run.system_id,
        "catalogue": run.catalogue,
        "seed": run.seed,
        "games": run.games,
        "games_per_opponent_seat": run.per_block,
        "unit": run.unit,
        "field": [{"path": visible(o.path), "name": visible(o.name), "fingerprint": o.fingerprint} for o in run.opponents],
        "left_out": [{"path": visible(x.path), "reason": visible(x.reason)} for x in run.left_out],
        "games_played": run.played,
        "games_read_back": run.resumed,
        "steps": [
            {
                "base_fingerprint": step.base_fingerprint,
                "candidates": step.candidates,
                "rungs": [{"candidates": c, "games": n * run.blocks} for c, n in step.rungs],
                "games": step.games,
                "suggestions": [suggestion_json(run, step, s, base) for s in step.suggestions if s.confirmed],
                "not_shown": [
                    {"edit": visible(s.neighbour.edit.words), "gain": s.figures.mean, "gain_interval": [s.figures.low, s.figures.high],
                     "games": s.figures.games}
                    for s in step.suggestions if not s.confirmed
                ],
            }
            for step in run.steps
        ],
        "path": [visible(step.best.neighbour.edit.words) for step in run.steps if step.best is not None],
    }


def text_report(run: SuggestRun, base: ListFile, shown: int = 5) -> str:
    unit = run.unit
    lines = [
        f"{run.system_name}, catalogue {run.catalogue}: {visible(base.army.name)} against a field of {len(run.opponents)} "
        f"(both seats, seed {run.seed})",
        f"each figure rests on {run.games:,} paired games ({run.per_block} per opponent and seat), played on fresh games "
        "after the race that picked the finalists",
    ]
    for x in run.left_out:
        lines.append(f"left out of the field: {visible(x.path)}: {visible(x.reason)}")
    for number, step in enumerate(run.steps, start=1):
        rungs = ", ".join(f"{c} × {n * run.blocks}" for c, n in step.rungs)
        lines.append("")
        lines.append(f"step {number}: {step.candidates} legal edits raced (candidates × games: {rungs}); {step.games:,} games")
        kept = [s for s in step.suggestions if s.confirmed]
        if not kept:
            lines.append("  no edit's gain is shown above zero (95 % interval of the paired differences); the list stays as it is")
        for rank, s in enumerate(kept[:shown], start=1):
            c = s.standing.confirmed
            assert c is not None
            bl, bh = c.base_interval
            al, ah = c.interval
            lines.append(f"  {rank}. {visible(s.neighbour.edit.words)}   [{_cost(s.neighbour.cost, unit)}, now {s.neighbour.points:g} {unit}]")
            lines.append(f"     win rate {_pct(c.base_rate)} ({_pct(bl)}–{_pct(bh)}) → {_pct(c.rate)} ({_pct(al)}–{_pct(ah)}); "
                         f"gain {_signed(c.mean)} ({_signed(c.low)} to {_signed(c.high)}), {c.games:,} paired games")
            for u in unit_changes(step.base_units, s.units)[:4]:
                before = "—" if u["survived_before"] is None else f"survives {_pct(u['survived_before'])}, takes {u['eliminated_before']:.1f}"
                after = "—" if u["survived_after"] is None else f"survives {_pct(u['survived_after'])}, takes {u['eliminated_after']:.1f}"
                lines.append(f"       {visible(u['unit'])}: {before} → {after} {unit} a game")
        unsure = [s for s in step.suggestions if not s.confirmed]
        if unsure:
            best = unsure[0]
            lines.append(f"  not shown: {len(unsure)} finalist(s) whose gain's interval holds zero "
                         f"(best: {visible(best.neighbour.edit.words)}, {_signed(best.figures.mean)} ({_signed(best.figures.low)} to "
                         f"{_signed(best.figures.high)}))")
    path = [step.best for step in run.steps if step.best is not None]
    if len(run.steps) > 1 or len(path) > 1:
        lines.append("")
        lines.append("path: " + (" → ".join(visible(s.neighbour.edit.words) for s in path) if path else "no step gained"))
    lines.append(f"played {run.played:,} games" + (f", {run.resumed:,} read back from the results file" if run.resumed else ""))
    return "\n".join(lines) + "\n"
