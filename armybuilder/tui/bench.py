"""Figures for ``armybuilder bench``: TUI start-up and edit latency.

* start-up: wall and CPU time of a whole process (interpreter, imports, catalogue, list,
  first layout) until the editor has drawn a bundled sample list, then exits, each run
  paired with a bare interpreter start;
* edit: from applying an edit to the tree, status bar and findings being redrawn,
  inside a running headless app.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


def _sample_path(folder: Path) -> Path:
    """The first sample of the system the whole-process lines measure (its bench module says so)."""
    from armybuilder.core.registry import bench_workload

    system = bench_workload("WHOLE_PROCESS_LINES")[0]
    samples = system.source.samples()
    if not samples:
        raise LookupError(f"{system.id} has no bundled sample")
    name, item = samples[0]
    target = folder / Path(name).name
    target.write_bytes(item.read_bytes())
    return target


@dataclass
class StartupRuns:
    """Each repeat of the start-up figure: wall and CPU seconds of the editor's process,
    and the wall seconds of a bare interpreter start run just before it (same load)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    bare: list[float] = field(default_factory=list)


def _child_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def startup_runs(repeat: int, cold: bool = False) -> StartupRuns:
    """Whole processes from start to a drawn editor holding the sample list, each paired
    with a bare interpreter start: on a shared machine the CPU time says what the start
    costs, the wall time what a player waited, the bare start how busy the machine was.

    ``cold``: each process starts with an empty user cache (a new user, a new machine: the
    catalogue comes from the install's prepared cache, or from its YAML files when none was
    prepared); otherwise the caches are warm."""
    runs = StartupRuns()
    with tempfile.TemporaryDirectory(prefix="armybuilder-tui-bench-") as tmp:
        folder = Path(tmp)
        path = _sample_path(folder)
        env = {**os.environ, "ARMYBUILDER_DATA_DIR": str(folder / "data")}
        cmd = [sys.executable, "-c", "import sys; from armybuilder.tui.probe import probe; probe(sys.argv[1])", str(path)]
        bare = [sys.executable, "-c", "pass"]
        subprocess.run(cmd, env=env, capture_output=True, check=True, timeout=30)  # warm caches
        for index in range(max(1, repeat)):
            if cold:
                env["ARMYBUILDER_CACHE_DIR"] = str(folder / f"empty-cache-{index}")
            start = time.perf_counter()
            subprocess.run(bare, env=env, capture_output=True, check=True, timeout=30)
            runs.bare.append(time.perf_counter() - start)
            cpu, start = _child_cpu(), time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=True, timeout=30)
            runs.wall.append(time.perf_counter() - start)
            runs.cpu.append(_child_cpu() - cpu)
    return runs


def measure_startup(repeat: int) -> float:
    """Median wall seconds of :func:`startup_runs` (kept for callers of the old figure)."""
    return statistics.median(startup_runs(repeat).wall)


def measure_edit(repeat: int) -> float:
    """Median seconds for one edit until tree, status and findings are redrawn."""
    return asyncio.run(_measure_edit(max(2, repeat)))


async def _measure_edit(repeat: int) -> float:
    from armybuilder.core.paths import ListPath
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.screens.editor import EditorScreen
    from armybuilder.tui.session import open_file
    from armybuilder.tui.storage import Store

    with tempfile.TemporaryDirectory(prefix="armybuilder-tui-bench-") as tmp:
        folder = Path(tmp)
        path = _sample_path(folder)
        store = Store(folder / "data")
        app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600, offer_recovery=False)
        times = []
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            editor = app.screen
            assert isinstance(editor, EditorScreen)
            s = editor.session
            action = next((a for a in s.system.actions(s.army, s.cat, "units[0]") if a.id == "set-count"), None)
            if action is None:
                raise LookupError("the sample has no unit with a troop count")
            base = ListPath.parse("units[0].troops.count").resolve(s.army)  # the TUI reads no system model
            # a mix of edits: two that only relabel the tree (troop count ±1) and two
            # that change its shape (duplicate the unit, remove the copy)
            cycle = [
                ("units[0]", "set-count", {"count": base + 1}),
                ("units[0]", "set-count", {"count": base}),
                ("units[0]", "duplicate-unit", {}),
                ("units[1]", "remove-unit", {}),
            ]
            for i in range(repeat * len(cycle)):
                place, action_id, args = cycle[i % len(cycle)]
                await pilot.pause()  # start from a settled screen
                start = time.perf_counter()
                editor.apply(place, action_id, args)
                # every message the edit caused is handled, then the frame is drawn
                # (pilot.pause() would add its own 20 ms idle-detection sleep)
                await pilot._wait_for_screen()
                app.screen._on_timer_update()
                times.append(time.perf_counter() - start)
        return statistics.median(times)


#: the scripted session of the key-latency figure: (keys, what they do). Each key is
#: timed from being posted until the screen has handled every message it caused and
#: drawn the frame (key → repaint).
KEY_SESSION: tuple[tuple[str, ...], ...] = (
    ("f2",),  # focus the list
    ("down", "down", "up"),  # move in the tree
    ("plus", "minus", "minus"),  # step the troops of a unit (one fewer: room for the unit added below)
    ("ctrl+z", "ctrl+y"),  # undo, redo
    ("slash", "s", "p", "e", "a", "r"),  # search the catalogue
    ("down", "up"),  # move the results from the box
    ("enter",),  # add the highlighted entry (opens its form)
    ("enter",),  # accept the form: a unit is added
    ("f2", "delete"),  # remove it again
    ("ctrl+z", "ctrl+y"),  # undo, redo the removal
    ("ctrl+p",),  # open the palette
    ("escape",),  # close it
)


def measure_keys(repeat: int) -> tuple[float, float, int]:
    """(p50, p90 in seconds, keys timed) of key → repaint over :data:`KEY_SESSION`.

    CPU time of this process (``time.process_time``): on a shared machine the wall
    time mostly measures the other processes; what the editor itself spends is the
    figure a player's idle machine would show.
    """
    return asyncio.run(_measure_keys(max(1, repeat)))


async def _measure_keys(repeat: int) -> tuple[float, float, int]:
    from armybuilder.core.paths import ListPath
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.screens.editor import EditorScreen
    from armybuilder.tui.session import open_file
    from armybuilder.tui.storage import Store
    from armybuilder.tui.widgets.panels import ListTree

    def units_shown() -> int | None:
        screen = app.screen
        return len(ListPath.parse("units").resolve(screen.session.army)) if isinstance(screen, EditorScreen) else None

    with tempfile.TemporaryDirectory(prefix="armybuilder-tui-bench-") as tmp:
        folder = Path(tmp)
        path = _sample_path(folder)
        store = Store(folder / "data")
        app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600, offer_recovery=False)
        times: list[float] = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.screen.query_one("#tree", ListTree).goto("units[0]")
            units = units_shown()  # the session adds a unit and removes it again
            for _ in range(repeat):
                for keys in KEY_SESSION:
                    for key in keys:
                        await pilot.pause()  # start from a settled screen
                        start = time.process_time()
                        await pilot.press(key)
                        await pilot._wait_for_screen()
                        app.screen._on_timer_update()
                        times.append(time.process_time() - start)
                if units_shown() != units:
                    raise LookupError(
                        f"the scripted key session no longer does what it says on {path.name} "
                        f"(it ends on {type(app.screen).__name__}); see KEY_SESSION"
                    )
                app.screen.query_one("#tree", ListTree).goto("units[0]")
        times.sort()
        return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.9))], len(times)
