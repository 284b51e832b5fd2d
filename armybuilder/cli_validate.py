"""``armybuilder validate`` and ``fingerprint``: one file or a batch, the remembered answers
of the findings cache, and the process pool for large batches."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from armybuilder.cli_common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    _err,
    _err_block,
    _json,
    _out,
    _out_block,
    _sound_catalogue,
    expand_paths,
)
from armybuilder.core.errors import InputError

Outcome = tuple[str, dict[str, Any], str]  # (legal/invalid/unreadable, JSON entry, text block)


def validate_one(path: Path) -> Outcome:
    """Validate one file: (status, JSON entry, text block); status is legal/invalid/unreadable."""
    return _checked(path)[0]


def _checked(path: Path, data: bytes | None = None) -> tuple[Outcome, bool]:
    """One file's outcome, and whether it may be remembered (an internal error may not:
    it is a bug, to be reported afresh, not replayed). ``data``: the file's bytes, when
    already read (the answer then describes exactly them)."""
    from armybuilder.core.findings import is_legal
    from armybuilder.core.lists import list_fingerprint, read_list
    from armybuilder.core.sanitize import visible

    shown = visible(path)  # a file name is text from anybody too
    try:
        # read-only: libyaml's fast path, the round trip's answers
        lf = read_list(path, data, plain=True)  # no pydantic unless the list needs its words
        cat = _sound_catalogue(lf)
        findings = lf.system.findings(lf.army, cat)
        points = lf.system.points(lf.army, cat)
        fp = list_fingerprint(lf.army, cat)
        own_limit = lf.system.limit_note(lf.army, cat)
    except InputError as exc:
        entry = {"path": str(path), "readable": False, "valid": False, "error": str(exc)}
        return ("unreadable", entry, f"{shown}: UNREADABLE\n  " + str(exc).replace("\n", "\n  ")), True
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - one bad file must not stop a folder run
        if os.environ.get("ARMYBUILDER_DEBUG"):
            raise
        message = visible(f"{path}: internal error: {type(exc).__name__}: {exc} (please report it)")
        entry = {"path": str(path), "readable": False, "valid": False, "error": message}
        return ("unreadable", entry, f"{shown}: UNREADABLE\n  {message}"), False
    ok = is_legal(findings)
    entries = []
    for f in findings:
        line = f.line if f.line is not None else lf.line_of(f.where)
        entries.append({"rule": f.rule, "severity": str(f.severity), "message": f.message, "where": f.where, "line": line, "source": f.source})
    entry = {
        "path": str(path),
        "system": lf.system.id,
        "catalogue_version": lf.army.catalogue,
        "valid": ok,
        "points": points.total,
        "limit": points.limit,
        "limit_note": own_limit,
        "fingerprint": fp,
        "findings": entries,
    }
    houses = ""
    if cat.houses:  # data the bundled catalogue lacks: the organiser sees it at once
        entry["house"] = [u.as_json() for u in cat.houses]
        houses = ", " + "; ".join(u.words() for u in cat.houses)
    status = ("LEGAL only at the list's own limit" if own_limit else "LEGAL") if ok else "NOT LEGAL"
    head = (
        f"{shown}: {status} — {lf.system.name}, catalogue {visible(lf.army.catalogue)}{visible(houses)}, "
        f"{points.total:g}/{points.limit} {points.unit}" + (f"; {visible(own_limit)};" if own_limit else ",") + f" fingerprint {fp}"
    )
    lines = [head]
    for e in entries:
        at = f" (line {e['line']})" if e["line"] else ""
        lines.append(f"  {e['severity']:<7} {visible(e['rule'])}{at}: {visible(e['message'])}")
    return (("legal" if ok else "invalid"), entry, "\n".join(lines)), True


#: A job of a validation run: a file, and its cache key and bytes when the cache is on.
Job = tuple[Path, "str | None", "bytes | None"]


def _validate_job(job: Job) -> tuple[Outcome, bool]:
    """Validate one file (from the bytes its cache key names, when the cache is on): its
    outcome, and whether it may be stored."""
    path, key, data = job
    return _checked(path, data)


def _cached_outcome(value: Any) -> Outcome | None:
    """A stored validate answer, if it has the shape this code writes."""
    if isinstance(value, list) and len(value) == 3 and value[0] in ("legal", "invalid", "unreadable"):
        if isinstance(value[1], dict) and isinstance(value[2], str):
            return value[0], value[1], value[2]
    return None


def _cache_on(args: argparse.Namespace) -> bool:
    if getattr(args, "no_cache", False):
        return False  # without importing the cache's code
    from armybuilder.core.findings_cache import disabled_by_environment

    return not disabled_by_environment()


#: Below this many files one process is quicker than starting workers.
PARALLEL_VALIDATION_FROM = 64


def _validate_all(paths: list[Path], use_cache: bool = False) -> list[Outcome]:
    """Validate in order; remembered answers are replayed, and a big batch of the rest (an
    organiser's folder) is spread over the cores.

    Parsing YAML and importing the models dominate the cost, so with the findings cache on
    a file whose answer is stored (same bytes, catalogue, code: see core/findings_cache.py)
    is not checked again; the others are validated, by worker processes when there are many,
    and results come back in file order.
    """
    outcomes: list[Outcome | None] = [None] * len(paths)
    todo: list[tuple[int, Job]] = []
    for i, path in enumerate(paths):
        key = data = None
        if use_cache:
            from armybuilder.core import findings_cache

            data = findings_cache.file_bytes(path)
            key = findings_cache.entry_key("validate", path, data) if data is not None else None
            if key is not None and (hit := _cached_outcome(findings_cache.lookup(key))) is not None:
                outcomes[i] = hit
                continue
        todo.append((i, (path, key, data)))
    answers: list[tuple[str, Any]] = []
    for (i, (_, key, _)), (outcome, cacheable) in zip(todo, _run_jobs([job for _, job in todo]), strict=True):
        outcomes[i] = outcome
        if key is not None and cacheable:
            answers.append((key, list(outcome)))
    if answers:  # one append per bucket file for the whole run, by this process
        from armybuilder.core import findings_cache

        findings_cache.store_answers(answers)
        findings_cache.evict()
    return [outcome for outcome in outcomes if outcome is not None]


def _run_jobs(jobs: list[Job]) -> list[tuple[Outcome, bool]]:
    workers = min(os.cpu_count() or 1, 4)
    if len(jobs) < PARALLEL_VALIDATION_FROM or workers < 2:
        return [_validate_job(job) for job in jobs]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context = multiprocessing.get_context(method)
    # The first file is validated here: forked workers then inherit its imports, list
    # validator and catalogue instead of each building them again.
    first = _validate_job(jobs[0])
    chunk = max(8, len(jobs) // (workers * 4))
    from armybuilder.core.lifetime import end_with_parent

    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=end_with_parent, initargs=(os.getpid(),)) as pool:
        return [first, *pool.map(_validate_job, jobs[1:], chunksize=chunk)]


def add_validate_parsers(commands: Any, only: str | None = None) -> None:
    """The ``validate`` and ``fingerprint`` sub-parsers (``only``: that one)."""
    if only in (None, "validate"):
        p = commands.add_parser("validate", help="validate list files, folders or globs")
        p.add_argument("lists", nargs="+")
        p.add_argument("--format", choices=["text", "json"], default="text")
        p.add_argument("--no-cache", action="store_true", help="check everything afresh: no remembered answers, no cached catalogue (also ARMYBUILDER_NO_CACHE=1; =answers keeps the catalogue's)")
        p.set_defaults(func=cmd_validate)
    if only in (None, "fingerprint"):
        p = commands.add_parser("fingerprint", help="print a list's fingerprint")
        p.add_argument("list")
        p.add_argument("--no-cache", action="store_true", help="compute it afresh, the catalogue too (also ARMYBUILDER_NO_CACHE=1)")
        p.set_defaults(func=cmd_fingerprint)


def cmd_validate(args: argparse.Namespace) -> int:
    from armybuilder.core.catalog_cache import bypassed

    with bypassed(args.no_cache):  # --no-cache: every cache, the catalogue's included
        return _validate_command(args)


def _validate_command(args: argparse.Namespace) -> int:
    outcomes = _validate_all(list(expand_paths(args.lists)), _cache_on(args))
    results = [entry for _, entry, _ in outcomes]
    text_blocks = [block for _, _, block in outcomes]
    legal = sum(status == "legal" for status, _, _ in outcomes)
    invalid = sum(status == "invalid" for status, _, _ in outcomes)
    unreadable = sum(status == "unreadable" for status, _, _ in outcomes)
    total = len(results)
    summary = f"{total} lists, {legal} legal, {invalid} with errors" + (f", {unreadable} unreadable" if unreadable else "")
    if args.format == "json":
        _json({"files": results, "summary": {"lists": total, "legal": legal, "invalid": invalid, "unreadable": unreadable}}, indent=2, ensure_ascii=False)
    else:
        for block in text_blocks:
            _out_block(block)  # lines whose every field passed visible() (_checked)
        _out(summary)
    if total == 0:
        _err("no list files found")
        return EXIT_UNREADABLE
    if unreadable:
        return EXIT_UNREADABLE
    return EXIT_INVALID if invalid else EXIT_OK


# --------------------------------------------------------------------------- lists


def cmd_fingerprint(args: argparse.Namespace) -> int:
    """A list's fingerprint; with the findings cache on, a remembered one (or its refusal)."""
    from armybuilder.core.catalog_cache import bypassed

    with bypassed(args.no_cache):  # --no-cache: every cache, the catalogue's included
        return _fingerprint_command(args)


def _fingerprint_command(args: argparse.Namespace) -> int:
    path = Path(args.list)
    key = data = None
    if _cache_on(args):
        from armybuilder.core import findings_cache

        data = findings_cache.file_bytes(path)
        key = findings_cache.entry_key("fingerprint", path, data) if data is not None else None
        hit = findings_cache.lookup(key) if key is not None else None
        if isinstance(hit, list) and len(hit) == 2 and hit[0] in ("ok", "error") and isinstance(hit[1], str):
            if hit[0] == "error":  # printed as main() prints an InputError
                _err_block(f"error: {hit[1]}")
                return EXIT_UNREADABLE
            _out(hit[1])
            return EXIT_OK
    from armybuilder.core.lists import list_fingerprint, read_list

    try:
        lf = read_list(args.list, plain=True)
        fp = list_fingerprint(lf.army, _sound_catalogue(lf))
    except InputError as exc:
        if key is not None and data is not None:
            from armybuilder.core import findings_cache

            findings_cache.store(key, path, data, ["error", str(exc)])
        raise
    if key is not None and data is not None:
        from armybuilder.core import findings_cache

        findings_cache.store(key, path, data, ["ok", fp])
    _out(fp)
    return EXIT_OK
