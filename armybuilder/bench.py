"""``armybuilder bench``: the performance budgets of design.md, measured here and now.

Budgets are measured, never asserted by timed tests: a loaded CI machine must not
turn a green suite red.  Each figure is a median of several runs (fewer with --quick).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from armybuilder.core.errors import InputError


@dataclass
class Figure:
    what: str
    value: float | None
    unit: str
    budget: str
    ok: bool | None
    note: str = ""


def _median_time(fn: Callable[[], object], repeat: int, number: int = 1) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def _sample(system_id: str):
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.registry import get_system
    from armybuilder.core.yamlio import decode_text, parse_text

    system = get_system(system_id)
    samples = system.source.samples()
    if not samples:
        raise LookupError(f"{system_id} has no bundled sample")
    name, item = samples[0]
    text = decode_text(item.read_bytes(), name)
    return list_from_doc(parse_text(text, name), name, None), text, samples


def _sample_list(name: str, item):
    from armybuilder.core.lists import list_from_doc
    from armybuilder.core.yamlio import decode_text, parse_text

    return list_from_doc(parse_text(decode_text(item.read_bytes(), name), name), name, None)


def _three_digits(value: float) -> str:
    """Three significant digits without scientific notation (1,140 games/s, not 1.14e+03)."""
    if abs(value) >= 1000:
        return f"{round(value, -len(str(int(abs(value)))) + 3):,.0f}"
    return f"{value:.3g}"


def _cli(*args: str) -> list[str]:
    exe = shutil.which("armybuilder", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "armybuilder"]


def run_bench(quick: bool = False, as_json: bool = False) -> int:
    figures: list[Figure] = []
    repeat = 3 if quick else 7

    def attempt(what: str, budget: str, unit: str, fn: Callable[[], tuple[float, bool | None, str]]) -> None:
        try:
            value, ok, note = fn()
            figures.append(Figure(what, value, unit, budget, ok, note))
        except (ImportError, LookupError, NotImplementedError, InputError, AttributeError) as exc:
            figures.append(Figure(what, None, unit, budget, None, f"not measured: {exc}"))
        if not as_json:
            f = figures[-1]
            shown = "n/a" if f.value is None else f"{_three_digits(f.value)} {f.unit}"
            verdict = {True: "ok", False: "OVER BUDGET", None: "-"}[f.ok]
            print(f"{f.what:<58} {shown:>14}  budget {f.budget:<12} {verdict}  {f.note}", flush=True)

    tmp = Path(tempfile.mkdtemp(prefix="armybuilder-bench-"))
    try:
        lf, text, samples = _sample("ragnarok2")
        sample_path = tmp / "sample.yaml"
        sample_path.write_text(text, encoding="utf-8")

        def validate_process() -> tuple[float, bool, str]:
            cmd = _cli() + ["validate", str(sample_path)]
            subprocess.run(cmd, capture_output=True, check=False)  # warm the parse cache
            t = _median_time(lambda: subprocess.run(cmd, capture_output=True, check=False), repeat)
            return t, t < 0.5, "whole process"

        attempt("validate sample.yaml (whole process)", "< 0.5 s", "s", validate_process)

        def validate_in_process() -> tuple[float, bool, str]:
            cat = lf.system.catalogue_for(lf.army)
            lf.system.validate(lf.army, cat)
            t = _median_time(lambda: lf.system.validate(lf.army, cat), repeat, 200)
            return t * 1000, t < 0.0005, f"{lf.system.points(lf.army, cat).total:g} A.P. list"

        attempt("validate one 1000 A.P. Rag'Narok 2 list in-process", "< 0.5 ms", "ms", validate_in_process)

        def validate_many() -> tuple[float, bool, str]:
            folder = tmp / "many"
            folder.mkdir()
            sources = [item.read_text(encoding="utf-8") for _, item in samples]
            for i in range(1000):
                (folder / f"list{i:04d}.yaml").write_text(sources[i % len(sources)], encoding="utf-8")
            cmd = _cli() + ["validate", str(folder)]
            t = _median_time(lambda: subprocess.run(cmd, capture_output=True, check=False), 1 if quick else 3)
            return t, t < 5.0, "1,000 files, one command"

        attempt("validate 1,000 list files", "< 5 s", "s", validate_many)

        def tui_start() -> tuple[float, bool, str]:
            from armybuilder.tui.bench import measure_startup

            t = measure_startup(repeat=repeat)
            return t, t < 1.0, ""

        attempt("TUI: start to a usable editor with a list", "< 1.0 s", "s", tui_start)

        def tui_edit() -> tuple[float, bool, str]:
            from armybuilder.tui.bench import measure_edit

            t = measure_edit(repeat=repeat)
            return t * 1000, t < 0.05, ""

        attempt("TUI: edit → points and findings updated", "< 50 ms", "ms", tui_edit)

        def roster_pdf() -> tuple[float, bool, str]:
            from armybuilder.core.lists import list_fingerprint
            from armybuilder.pdf.roster import write_roster

            cat = lf.system.catalogue_for(lf.army)
            out = tmp / "roster.pdf"

            def once() -> None:
                roster = lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat))
                write_roster(roster, lf.system.cards(lf.army, cat), out)

            once()
            t = _median_time(once, repeat)
            return t, t < 1.0, f"{out.stat().st_size // 1024} KiB"

        attempt("roster PDF with its reference cards", "< 1.0 s", "s", roster_pdf)

        def odds() -> tuple[float, bool, str]:
            system = lf.system
            cat = system.catalogue()
            params = {"attack": 5, "defense": 3, "strength": 6, "resistance": 5, "dice": 20, "attack_shift": 0, "wound_shift": 0, "json": False}
            names = {p.name for p in system.odds_parameters()}
            params = {k: v for k, v in params.items() if k in names}
            system.odds(cat, params)
            from armybuilder.systems.ragnarok2.engine.dice import clear_caches

            def cold() -> None:
                clear_caches(keep_single_die=True)  # measure the computation, not a cache hit
                system.odds(cat, params)

            t = _median_time(cold, repeat, 50)
            return t * 1000, t < 0.001, "20 dice, attacks then wounds, caches cleared"

        attempt("exact odds of one Rag'Narok 2 combat (20 dice)", "< 1 ms", "ms", odds)

        from armybuilder.core.registry import all_systems

        for system in all_systems():  # every registered system with a simulator, its own budget
            system_id, budget = system.id, system.playtest_budget
            label = f"playtest: {system.name} games per second per core"

            def games_per_second(system_id: str = system_id, budget: int | None = budget) -> tuple[float, bool | None, str]:
                from armybuilder.core.playtest import run_playtest

                first, _, system_samples = _sample(system_id)
                if not first.system.engine_ready():
                    raise NotImplementedError("no simulator yet")
                armies = [_sample_list(name, item).army for name, item in system_samples]
                # "For the sample lists": every ordered pairing of the bundled samples (a list
                # against itself included), so one easy pairing cannot hide a slow one.
                pairings = [(a, b) for a in armies for b in armies]
                per_pairing = max(20, (300 if quick else 2000) // len(pairings))
                # A per-core rate is a steady-state figure: the catalogue load, the engine's
                # imports and a list's templates happen once per process, so a few games warm them.
                total = 0.0
                slowest = math.inf
                for a, b in pairings:
                    run_playtest(a, b, 3, seed=0, workers=1)  # builds this pairing's templates
                    start = time.perf_counter()
                    run_playtest(a, b, per_pairing, seed=1, workers=1)
                    elapsed = time.perf_counter() - start
                    total += elapsed
                    slowest = min(slowest, per_pairing / elapsed)
                games = per_pairing * len(pairings)
                rate = games / total
                note = f"{games} games, {len(pairings)} pairings of {len(armies)} samples, 1 worker; slowest pairing {slowest:.0f}/s"
                return rate, (rate >= budget) if budget else None, note

            attempt(label, f">= {budget}" if budget else "(none)", "games/s", games_per_second)

        def ten_thousand() -> tuple[float, bool, str]:
            from armybuilder.core.playtest import run_playtest

            first, _, system_samples = _sample("ragnarok2")
            if not first.system.engine_ready():
                raise NotImplementedError("no simulator yet")
            games = 2000 if quick else 10000
            start = time.perf_counter()
            run_playtest(first.army, first.army, games, seed=1, workers=min(2, os.cpu_count() or 1))
            elapsed = time.perf_counter() - start
            scaled = elapsed * 10000 / games
            return scaled, scaled < 10.0, f"{games} games on 2 workers" + (" (scaled to 10,000)" if games != 10000 else "")

        attempt("playtest: 10,000 Rag'Narok 2 games on 2 cores", "< 10 s", "s", ten_thousand)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if as_json:
        print(json.dumps([f.__dict__ for f in figures], indent=2))
    return 0
