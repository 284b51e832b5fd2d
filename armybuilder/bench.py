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


def meta_matrix_on_dask() -> tuple[float, bool, str]:
    """The meta matrix with 2 local processes, then through a 2-worker Dask LocalCluster."""
    from armybuilder.meta.bench import local_vs_cluster

    t = local_vs_cluster()
    note = f"{t['games']:,.0f} games: local {t['local']:.1f} s, cluster {t['cluster']:.1f} s (wall, 2 workers each)"
    return t["ratio"], t["ratio"] <= 1.2, note


def run_bench(quick: bool = False, as_json: bool = False) -> int:
    figures: list[Figure] = []
    repeat = 3 if quick else 7

    def attempt(what: str, budget: str, unit: str, fn: Callable[[], tuple[float, bool, str]]) -> None:
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

        def tui_keys() -> tuple[float, bool, str]:
            from armybuilder.tui.bench import measure_keys

            p50, p90, n = measure_keys(repeat=1 if quick else 2)
            return p90 * 1000, p90 < 0.1, f"p50 {p50 * 1000:.0f} ms, p90 over {n} keys (CPU time)"

        attempt("TUI: key → repaint p90 (add, remove, undo, search, palette)", "< 100 ms", "ms", tui_keys)

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

        def exact_fray() -> tuple[float, bool, str]:
            # Two 20-fighter units with Characters (troops cut to 19 + a Character): Alahan's Guards
            # of the Lion against Tir-Na-Bor's Soldiers of the plains, the Guards charging; CPU time.
            import time

            from armybuilder.core.playtest import load_sample
            from armybuilder.systems.ragnarok2.engine.exact import exact_fray as fray

            system = lf.system
            cat = system.catalogue()
            first, second = (load_sample(system, n) for n in ("alahan-lions", "tir-na-bor-plains-guard"))
            for army in (first, second):
                unit = army.units[0]
                unit.troops.count = 20 - len(unit.members)
            best, states = float("inf"), 0
            for _ in range(max(1, repeat // 3)):
                t = time.process_time()
                states = fray(cat, first, 0, second, 0, True).states
                best = min(best, time.process_time() - t)
            return best * 1000, best < 0.05, f"20 vs 20 fighters with Characters, charge; {states} states; min CPU time"

        attempt("exact outcome of one Rag'Narok 2 fray (20 vs 20)", "< 50 ms", "ms", exact_fray)

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

        def morpheus_cut_clan() -> tuple[float, bool, str]:
            from armybuilder.core.playtest import run_playtest
            from armybuilder.systems.morpheus.army import warrior_cost

            first, _, system_samples = _sample("morpheus-ragnarok")
            full = next((_sample_list(n, i).army for n, i in system_samples if "wolves" in n), first.army)
            cut = full.model_copy(deep=True)
            cat = first.system.catalogue_for(full)
            # drop the dearest non-Jarl warriors until about a fifth of the Glory is gone
            glory = sum(warrior_cost(cat, w) for w in full.warriors)
            for w in sorted((w for w in full.warriors if not w.jarl), key=lambda w: -warrior_cost(cat, w)):
                if sum(warrior_cost(cat, x) for x in cut.warriors) - warrior_cost(cat, w) >= 0.78 * glory:
                    cut.warriors.remove(w)
            left = sum(warrior_cost(cat, w) for w in cut.warriors)
            games = 200 if quick else 1000
            summary = run_playtest(full, cut, games, seed=1, workers=1)
            rate = 100 * summary.win_rate
            return rate, rate >= 65, f"{full.name} against itself less {glory - left:g} of {glory:g} Glory, {games} games"

        attempt("playtest: Morpheus full clan against a copy cut by a fifth", ">= 65 %", "% won", morpheus_cut_clan)

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
        if not quick:
            attempt("meta: 10×10 matrix × 200 games, Dask LocalCluster / local", "<= 1.2x", "x", meta_matrix_on_dask)

        # Rag'Narok 2 credibility: mirror matches, full lists against cut copies, the win-rate matrix.
        credible: dict = {}

        def mirror() -> tuple[float, bool, str]:
            from armybuilder.systems.ragnarok2.engine.credibility import MIRROR_BAND, credibility

            credible["result"] = result = credibility(100 if quick else 400)
            name, rate = max(result.mirror.items(), key=lambda kv: (abs(kv[1] - 0.5), kv[0]))
            ok = all(MIRROR_BAND[0] <= r <= MIRROR_BAND[1] for r in result.mirror.values())
            return 100 * rate, ok, f"furthest from 50 %: {name}, {result.games} games a pairing"

        attempt("Rag'Narok 2 mirror matches (worst of the samples)", "50 ± 3 %", "%", mirror)

        def full_vs_cut() -> tuple[float, bool, str]:
            from armybuilder.systems.ragnarok2.engine.credibility import CUT_TARGET

            result = credible["result"]
            name, rate = min(result.cut.items(), key=lambda kv: (kv[1], kv[0]))
            return 100 * rate, rate >= CUT_TARGET, f"weakest: {name} against a copy with ~20 % of its A.P. removed"

        attempt("Rag'Narok 2 full list vs cut copy (weakest sample)", ">= 65 %", "%", full_vs_cut)
        if not as_json and "result" in credible:
            print("\n".join(credible["result"].lines()), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if as_json:
        print(json.dumps([f.__dict__ for f in figures], indent=2))
    return 0
