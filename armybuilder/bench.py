"""``armybuilder bench``: the performance budgets of design.md, measured here and now.

Budgets are measured, never asserted by timed tests: a loaded CI machine must not
turn a green suite red.  Each figure is the median of several repeats (fewer with
--quick), printed with its budget and the spread of its repeats; whole-process
figures are paired with a bare interpreter start in the same run.

A figure taken while other programs compete for the cores means little, so the
bench checks the machine around every figure: the load average per core, and a
calibration loop whose wall time should equal its CPU time on a free core.  A
figure measured on a busy machine (or whose repeats spread widely) says so.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from armybuilder.bench_timing import UNSTEADY_SPREAD, Measured, machine_busy
from armybuilder.bench_timing import run_timed as _run_timed
from armybuilder.bench_timing import spread as _spread
from armybuilder.bench_timing import times as _times
from armybuilder.core.errors import InputError


@dataclass
class Figure:
    what: str
    value: float | None
    unit: str
    budget: str
    ok: bool | None
    note: str = ""
    #: the repeats, in the figure's unit (the value is their median unless noted)
    samples: list[float] = field(default_factory=list)
    #: (max - min) / median of the repeats; None with fewer than two
    spread: float | None = None
    #: why the figure may not mean anything ("" when the machine was free)
    busy: str = ""


def byte_compile_package() -> None:
    """Write the package's bytecode, so whole-process figures time starting, not compiling.

    An installed package has its bytecode; a checkout run with PYTHONDONTWRITEBYTECODE
    compiles every module it imports again in every process (~40 ms for ``validate``).
    ``py_compile`` writes it whatever that variable says; a read-only install is left as is.
    """
    import compileall

    try:
        compileall.compile_dir(str(Path(__file__).resolve().parent), quiet=2)
    except OSError:
        pass

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


def _three_digits(value: float) -> str:
    """Three significant digits without scientific notation (1,140 games/s, not 1.14e+03)."""
    if abs(value) >= 1000:
        return f"{round(value, -len(str(int(abs(value)))) + 3):,.0f}"
    return f"{value:.3g}"


def _answers_off(measure: Callable[[], Measured]) -> Measured:
    """``measure`` with the remembered answers of validate off in its processes (the
    catalogue cache kept): ARMYBUILDER_NO_CACHE=answers."""
    from armybuilder.core.catalog_cache import ANSWERS_ONLY, NO_CACHE_ENV

    saved = os.environ.get(NO_CACHE_ENV)
    os.environ[NO_CACHE_ENV] = ANSWERS_ONLY
    try:
        return measure()
    finally:
        if saved is None:
            os.environ.pop(NO_CACHE_ENV, None)
        else:
            os.environ[NO_CACHE_ENV] = saved


def _cli(*args: str) -> list[str]:
    exe = shutil.which("armybuilder", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "armybuilder"]


def meta_matrix_on_dask() -> tuple[float, bool, str]:
    """The meta matrix with 2 local processes, then through a 2-worker Dask LocalCluster."""
    from armybuilder.meta.bench import local_vs_cluster

    t = local_vs_cluster()
    note = f"{t['games']:,.0f} games: local {t['local']:.1f} s, cluster {t['cluster']:.1f} s (wall, 2 workers each)"
    return t["ratio"], t["ratio"] <= 1.2, note


def engine_builds() -> str:
    """Which build of each engine this bench measures ("ragnarok2 compiled (mypyc), ..."):
    the compiled engines play about twice as fast, so a figure means little without it."""
    from armybuilder import _native

    return ", ".join(f"{system} {build}" for system, build in _native.builds().items())


def meta_lines(quick: bool) -> list[tuple[str, str, str, Callable[[], Measured]]]:
    """The meta matrix's games per second per core, locally and on a Dask LocalCluster, and the
    scaling from 1 to 2 workers (what a field's time on N machines follows from)."""
    from armybuilder.meta.bench import describe_hours, field_time

    games = 20 if quick else 100
    runs: dict[int, dict[str, float]] = {}

    def local() -> Measured:
        from armybuilder.meta.bench import local_rate

        t = local_rate(games)
        rate = t["games"] / t["cpu"]
        return Measured(rate, None, f"{t['games']:,.0f} games (10 lists, every ordered pairing, {games} each), in-process, "
                        f"CPU time ({t['games'] / t['wall']:,.0f}/s of wall time); a 100-list field at 1,000 games a pairing: "
                        f"{describe_hours(field_time(rate))} of one core")

    def cluster() -> Measured:
        from armybuilder.meta.bench import cluster_rates

        runs.update(cluster_rates(games))
        one = runs[1]
        rate = one["games"] / one["cpu"]
        return Measured(rate, None, f"the same games on a 1-worker Dask LocalCluster (127.0.0.1), the worker's CPU time "
                        f"({one['games'] / one['wall']:,.0f}/s of wall time); a 100-list field at 1,000 games a pairing: "
                        f"{describe_hours(field_time(rate))} of one core")

    def scaling() -> Measured:
        if not runs:
            raise LookupError("the cluster line did not run")
        one, two = (runs[k]["games"] / runs[k]["wall"] for k in (1, 2))
        ratio = two / one
        return Measured(ratio, ratio >= 1.7, f"wall rate, 2 workers {two:,.0f} games/s against 1 worker {one:,.0f} games/s "
                        f"({ratio / 2:.0%} of each added core; on a busy machine the second core is shared)")

    return [
        ("meta: games per second per core, local", "(none)", "games/s", local),
        ("meta: games per second per core, Dask LocalCluster", "(none)", "games/s", cluster),
        ("meta: scaling from 1 to 2 Dask workers", ">= 1.7x", "x", scaling),
    ]


def run_bench(quick: bool = False, as_json: bool = False, only: str | None = None, engines_only: bool = False, options: bool = False) -> int:
    from armybuilder import bench_figures as bf

    figures: list[Figure] = []
    repeat = 3 if quick else 7
    before = machine_busy()
    if not as_json:
        print(f"armybuilder bench{' --quick' if quick else ''}: medians of {repeat} repeats, spread = (max - min) / median; "
              + (f"machine busy ({before}): figures marked 'busy' may mean little" if before else "machine free"), flush=True)
        print(f"engines measured: {engine_builds()}", flush=True)

    def attempt(what: str, budget: str, unit: str, fn: Callable[[], Measured | tuple[float, bool | None, str]]) -> None:
        if only and only.lower() not in what.lower():
            return
        try:
            measured = fn()
            if not isinstance(measured, Measured):
                measured = Measured(*measured)
            samples = [float(s) for s in measured.samples]
            figures.append(Figure(what, measured.value, measured.unit or unit, budget, measured.ok, measured.note, samples,
                                  _spread(samples)))
        except (ImportError, LookupError, NotImplementedError, InputError, AttributeError, subprocess.CalledProcessError) as exc:
            figures.append(Figure(what, None, unit, budget, None, f"not measured: {exc}"))
        f = figures[-1]
        reasons = [r for r in (machine_busy(),) if r]
        if f.spread is not None and f.spread > UNSTEADY_SPREAD:
            reasons.append(f"repeats spread {f.spread:.0%}")
        f.busy = "; ".join(reasons)
        if not as_json:
            shown = "n/a" if f.value is None else f"{_three_digits(f.value)} {f.unit}"
            verdict = {True: "ok", False: "OVER BUDGET", None: "-"}[f.ok]
            spread = "" if f.spread is None else f"±{f.spread / 2:.0%}"
            print(f"{f.what:<58} {shown:>14} {spread:>5}  budget {f.budget:<12} {verdict}  {f.note}", flush=True)
            if f.busy:
                print(f"{'':<58} {'':>14} {'':>5}  busy: {f.busy}; this figure may not mean anything", flush=True)

    def report() -> int:
        if as_json:
            print(json.dumps([f.__dict__ for f in figures], indent=2))
        else:
            noisy = [f for f in figures if f.busy]
            if noisy:
                print(f"{len(noisy)} of {len(figures)} figures were taken on a busy machine or spread widely; "
                      "run the bench again on a quiet machine before trusting them", flush=True)
        return 0

    from armybuilder.bench_engines import engine_figures, option_figures

    if options:  # the players' use of every option (long: its own run)
        option_figures(attempt, quick, as_json)
        return report()
    engine_figures(attempt, quick, as_json)  # the reference workload, every engine's rate, credibility
    if engines_only:
        return report()
    byte_compile_package()
    tmp = Path(tempfile.mkdtemp(prefix="armybuilder-bench-"))
    try:
        measured = bf.workload("WHOLE_PROCESS_LINES")[0].id  # design.md's budgets name its game
        lf, text, samples = _sample(measured)
        sample_path = tmp / "sample.yaml"
        sample_path.write_text(text, encoding="utf-8")
        cli = _cli()

        # Both paths of validate: checked (ARMYBUILDER_NO_CACHE=answers: what a list never
        # seen costs, the catalogue cached) and remembered (the findings cache answers: what
        # checking an unchanged list again costs).
        checked = cli + ["validate", str(sample_path)]
        remembered = cli + ["validate", str(sample_path)]
        attempt("validate sample.yaml, checked (whole process)", "< 0.5 s", "s",
                lambda: _answers_off(lambda: bf.paired_process(checked, 0.5, repeat)))
        attempt("validate sample.yaml, checked, against a bare start", "<= 6×", "×",
                lambda: _answers_off(lambda: bf.ratio_to_bare(checked, 6.0, repeat)))
        attempt("validate sample.yaml, remembered (whole process)", "< 0.5 s", "s",
                lambda: bf.paired_process(remembered, 0.5, repeat))
        attempt("validate sample.yaml, remembered, against a bare start", "<= 6×", "×",
                lambda: bf.ratio_to_bare(remembered, 6.0, repeat))
        attempt("armybuilder --version (whole process)", "< 0.1 s", "s",
                lambda: bf.paired_process(cli + ["--version"], 0.1, repeat))
        attempt("armybuilder catalog list (whole process)", "< 0.1 s", "s",
                lambda: bf.paired_process(cli + ["catalog", "list"], 0.1, repeat))
        odds_cmd = cli + ["odds", measured, *[f"--{k.replace('_', '-')}={v}" for k, v in {**bf.ODDS_PARAMS, "dice": 20}.items()]]
        attempt("armybuilder odds ragnarok2, 20 dice (whole process)", "< 0.15 s", "s",
                lambda: bf.paired_process(odds_cmd, 0.15, repeat))
        attempt("load the cached Rag'Narok 2 catalogue", "< 10 ms", "ms",
                lambda: bf.cached_catalogue_load(measured, repeat))

        def validate_in_process() -> Measured:
            cat = lf.system.catalogue_for(lf.army)
            lf.system.validate(lf.army, cat)
            times = [t * 1000 for t in _times(lambda: lf.system.validate(lf.army, cat), repeat, 200)]
            value = statistics.median(times)
            return Measured(value, value < 0.5, f"{lf.system.points(lf.army, cat).total:g} A.P. list", times)

        attempt("validate one 1000 A.P. Rag'Narok 2 list in-process", "< 0.5 ms", "ms", validate_in_process)

        many = tmp / "many"
        many_sources = [item.read_text(encoding="utf-8") for _, item in samples]

        def write_many(tag: str) -> None:
            """1,000 list files (the samples over and over), each made new by a last comment."""
            many.mkdir(exist_ok=True)
            for i in range(1000):
                text = many_sources[i % len(many_sources)] + f"# {tag}\n"
                (many / f"list{i:04d}.yaml").write_text(text, encoding="utf-8")

        def validate_many() -> Measured:
            """Cold: every repeat validates files whose bytes no earlier run saw (all misses of
            the findings cache, each answer checked and stored), as an organiser's folder is."""
            cmd = cli + ["validate", str(many)]
            times, cpu = [], []
            for r in range(2 if quick else 3):
                write_many(f"bench {time.time_ns()} {r}")
                wall, used = _run_timed(cmd)
                times.append(wall)
                cpu.append(used)
            value = statistics.median(times)
            return Measured(value, value < 1.5, f"1,000 new files (checked, none remembered), one command, {min(os.cpu_count() or 1, 4)} workers; "
                            f"CPU {statistics.median(cpu):.2f} s over all processes", times)

        def validate_many_again() -> Measured:
            """Warm: the same 1,000 files once more, every answer remembered."""
            if not many.is_dir():
                raise LookupError("the cold line did not write its files")
            cmd = cli + ["validate", str(many)]
            runs = [_run_timed(cmd) for _ in range(2 if quick else 3)]
            times = [wall for wall, _ in runs]
            value = statistics.median(times)
            return Measured(value, value < 1.5, f"the same 1,000 files again (every answer remembered), one command; "
                            f"CPU {statistics.median(used for _, used in runs):.2f} s", times)

        attempt("validate 1,000 list files (cold)", "< 1.5 s", "s", validate_many)
        attempt("validate 1,000 list files again (warm)", "< 1.5 s", "s", validate_many_again)

        def tui_start() -> Measured:
            from armybuilder.tui.bench import startup_runs

            runs = startup_runs(repeat=repeat)
            t = statistics.median(runs.wall)
            return Measured(t, t < 0.5, f"whole process to a drawn editor holding a sample; CPU {statistics.median(runs.cpu):.2f} s, "
                            f"a bare interpreter start {statistics.median(runs.bare) * 1000:.0f} ms", runs.wall)

        attempt("TUI: start to a usable editor with a list", "< 0.5 s", "s", tui_start)

        def tui_first_start() -> Measured:
            from armybuilder.tui.bench import startup_runs

            runs = startup_runs(repeat=repeat, cold=True)
            t = statistics.median(runs.wall)
            warm = next((f.value for f in figures if f.what.startswith("TUI: start to")), None)
            ratio = f"; {t / warm:.2f}x the warm start" if warm else ""
            from armybuilder.core.catalog_cache import prepared_folder

            prepared = prepared_folder()
            source = ("the install's prepared catalogues" if prepared is not None and (prepared / "cache-key").is_file()
                      else "catalogue read from YAML: none prepared (python -m armybuilder.core.prepare)")
            return Measured(t, t <= 1.0 and (warm is None or t <= 2 * warm),
                            f"as above, each process with an empty user cache ({source}); "
                            f"CPU {statistics.median(runs.cpu):.2f} s{ratio}", runs.wall)

        attempt("TUI: first start, empty user cache", "<= 1 s, <= 2x warm", "s", tui_first_start)

        def tui_edit() -> Measured:
            from armybuilder.tui.bench import measure_edit

            t = measure_edit(repeat=repeat)
            return Measured(t * 1000, t < 0.05)

        attempt("TUI: edit → points and findings updated", "< 50 ms", "ms", tui_edit)

        def tui_keys() -> Measured:
            from armybuilder.tui.bench import measure_keys

            p50, p90, n = measure_keys(repeat=1 if quick else 2)
            return Measured(p90 * 1000, p90 < 0.1, f"p50 {p50 * 1000:.0f} ms, p90 over {n} keys (CPU time)")

        attempt("TUI: key → repaint p90 (add, remove, undo, search, palette)", "< 100 ms", "ms", tui_keys)

        def roster_pdf() -> Measured:
            from armybuilder.core.lists import list_fingerprint
            from armybuilder.pdf.roster import write_roster

            cat = lf.system.catalogue_for(lf.army)
            out = tmp / "roster.pdf"

            def once() -> None:
                roster = lf.system.roster(lf.army, cat, list_fingerprint(lf.army, cat))
                write_roster(roster, lf.system.cards(lf.army, cat), out)

            once()
            times = _times(once, repeat)
            value = statistics.median(times)
            return Measured(value, value < 1.0, f"{out.stat().st_size // 1024} KiB", times)

        attempt("roster PDF with its reference cards", "< 1.0 s", "s", roster_pdf)

        def odds() -> Measured:
            times = [t * 1000 for t in bf._ours(lf.system, lf.system.catalogue(), 20, repeat)]
            value = statistics.median(times)
            return Measured(value, value < 1.0, "20 dice, attacks then wounds, payload and text (no cache)", times)

        attempt("exact odds of one Rag'Narok 2 combat (20 dice)", "< 1 ms", "ms", odds)
        counts = (5, 20, 60) if quick else (5, 10, 20, 40, 60)
        attempt(f"exact odds against icepool, {counts[0]} to {counts[-1]} dice (smallest ratio)", ">= 30×", "×",
                lambda: bf.odds_against_icepool(counts, repeat, icepool_limit_s=5.0 if quick else 10.0))

        def exact_fray() -> Measured:
            # Two 20-fighter units with Characters (troops cut to 19 + a Character): Alahan's Guards
            # of the Lion against Tir-Na-Bor's Soldiers of the plains, the Guards charging; CPU time.
            import time

            from armybuilder.core.playtest import load_sample
            system, fray = bf.workload("exact_fray")
            cat = system.catalogue()
            first, second = (load_sample(system, n) for n in bf.workload("FRAY_SAMPLES")[1])
            army: Any  # Rag'Narok 2 lists (R2List)
            for army in (first, second):
                unit = army.units[0]
                unit.troops.count = 20 - len(unit.members)
            # The first call of a process also fills the dice and contest tables the later ones
            # reuse (the TUI's fray view keeps them between questions), so it is shown apart: the
            # figure is the best of the later calls, never of that first one alone.
            times, states = [], 0
            for _ in range(1 + max(2, repeat // 3)):
                t = time.thread_time()  # this thread's CPU: a worker left by an earlier line does not count
                states = fray(cat, first, 0, second, 0, True).states
                times.append(time.thread_time() - t)
            best = min(times[1:])
            return Measured(best * 1000, best < 0.05, f"20 vs 20 fighters with Characters, charge; {states} states; min CPU time "
                            f"of {len(times) - 1} calls after the first (the first, filling the tables: {times[0] * 1000:.0f} ms)",
                            [x * 1000 for x in times[1:]])

        attempt("exact outcome of one Rag'Narok 2 fray (20 vs 20)", "< 50 ms", "ms", exact_fray)

        def ten_thousand() -> tuple[float, bool, str]:
            from armybuilder.core.playtest import run_playtest

            first, _, system_samples = _sample(measured)
            if not first.system.engine_ready():
                raise NotImplementedError("no simulator yet")
            games = 2000 if quick else 10000
            start = time.perf_counter()
            run_playtest(first.army, first.army, games, seed=1, workers=min(2, os.cpu_count() or 1))
            elapsed = time.perf_counter() - start
            scaled = elapsed * 10000 / games
            return scaled, scaled < 10.0, f"{games} games on 2 workers" + (" (scaled to 10,000)" if games != 10000 else "")

        attempt("playtest: 10,000 Rag'Narok 2 games on 2 cores", "< 10 s", "s", ten_thousand)

        for games in ((1_000, 10_000) if quick else (10_000, 100_000)):

            def memory(games: int = games) -> Measured:
                peak, note = bf.playtest_peak_memory(games, workers=min(2, os.cpu_count() or 1))
                first = next((f.value for f in figures if f.what.startswith("playtest: peak memory") and f.value), None)
                flat = None if first is None else peak <= first * 1.1 + 8
                return Measured(peak, flat, note + ("" if first is None else f"; {peak / first:.2f}× the smaller run"))

            attempt(f"playtest: peak memory at {games:,} games", "flat", "MiB", memory)

        for line in meta_lines(quick):
            attempt(*line)

        def suggest_run() -> Measured:
            from armybuilder.suggest.bench import planted_run

            t = planted_run()
            found = f"found as suggestion {t['rank']}" if t["rank"] else "NOT found"
            return Measured(t["games"] / t["cpu"], t["rank"] is not None,
                            f"{t['games']:,.0f} games ({t['candidates']} legal edits raced) to find a planted repair "
                            f"(Rattle and Rend, 4 points left unspent, 48 games a list, seed 3): {found}; CPU time, 1 process")

        attempt("suggest: games per second, planted weakness found", "found", "games/s", suggest_run)
        if not quick:
            attempt("meta: 10×10 matrix × 200 games, Dask LocalCluster / local", "<= 1.2x", "x", meta_matrix_on_dask)

        # Rag'Narok 2 credibility: mirror matches, full lists against cut copies, the win-rate matrix.
        credible: dict = {}

        def mirror() -> tuple[float, bool, str]:
            credibility = bf.workload("credibility")[1]
            credible["result"] = result = credibility(100 if quick else 400)
            name, rate = max(result.mirror.items(), key=lambda kv: (abs(kv[1] - 0.5), kv[0]))
            verdict = result.mirror_verdict(name)
            detail = f"furthest from 50 %: {name}, {result.mirror_games or result.games} games a mirror"
            return 100 * rate, result.mirrors_ok(), detail + ("" if verdict == "ok" else f"; {verdict}")

        attempt("Rag'Narok 2 mirror matches (worst of the samples)", "50 ± 3 %", "%", mirror)

        def full_vs_cut() -> tuple[float, bool, str]:
            result = credible["result"]
            name, rate = min(result.cut.items(), key=lambda kv: (kv[1], kv[0]))
            return 100 * rate, rate >= bf.workload("cut_target")[1](), f"weakest: {name} against a copy with ~20 % of its A.P. removed"

        attempt("Rag'Narok 2 full list vs cut copy (weakest sample)", ">= 65 %", "%", full_vs_cut)

        def fray_games() -> tuple[float, bool, str]:
            target = bf.workload("fighting_targets")[1]()[0]
            result = credible["result"]
            return 100 * result.fray_share, result.fray_share >= target, f"{result.matrix_games} games of the samples' matrix"

        attempt("Rag'Narok 2 games with at least one fray (samples' matrix)", ">= 95 %", "%", fray_games)

        def melee_share() -> tuple[float, bool, str]:
            target = bf.workload("fighting_targets")[1]()[1]
            result = credible["result"]
            phases = ", ".join(f"{p} {100 * s:.0f} %" for p, s in result.phase_shares())
            return 100 * result.melee_share, result.melee_share >= target, f"A.P. destroyed by phase: {phases}"

        attempt("Rag'Narok 2 A.P. destroyed by frays and routs (samples' matrix)", ">= 50 %", "%", melee_share)
        if not as_json and "result" in credible:
            print("\n".join(credible["result"].lines()), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return report()
