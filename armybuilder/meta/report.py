"""The outputs of a meta run, in the order that keeps the most when something fails.

The machine-readable outputs come first (the results file is written as games
finish; then the JSON and the CSV), the renderings after (PDF, PNG, HTML page):
a rendering that fails, or is interrupted, loses none of the numbers, and says
so.  Each output is a *step*; a step that finished is recorded in
``REPORT.steps.json`` beside the report with a digest of the matrix it shows and
of the file it wrote, so ``--resume`` of a finished run renders nothing again, and
after a failed rendering it redoes only what failed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from armybuilder.core.atomic import atomic_write_text
from armybuilder.core.sanitize import safe_json

from .matrix import MetaMatrix

Render = Callable[[MetaMatrix, Path], None]


def _pdf(matrix: MetaMatrix, out: Path) -> None:
    from armybuilder.pdf.meta_report import write_meta_pdf

    write_meta_pdf(matrix, out)


def _png(matrix: MetaMatrix, out: Path) -> None:
    from armybuilder.pdf.meta_report import write_meta_png

    write_meta_png(matrix, out)


def _html(matrix: MetaMatrix, out: Path) -> None:
    from armybuilder.core.registry import get_system

    from .html_report import write_meta_html

    write_meta_html(matrix, out, out.with_suffix(".png"), get_system(matrix.system).name)


#: (suffix, what it is, how it is drawn), in the order they are written
RENDERINGS: list[tuple[str, str, Render]] = [(".pdf", "PDF report", _pdf), (".png", "PNG heat map", _png), (".html", "HTML page", _html)]


@dataclass
class Written:
    """What a call of :func:`write_outputs` did."""

    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # finished by an earlier run, for this very matrix
    failed: list[tuple[Path, str, BaseException]] = field(default_factory=list)
    payload: str = ""  # the JSON's text (``--json`` prints it)


def steps_path(stem: Path) -> Path:
    return stem.with_name(stem.name + ".steps.json")


def _file_digest(path: Path) -> str | None:
    try:
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    except OSError:
        return None


def _code_digest() -> str:
    """The renderers' code: a new armybuilder renders a finished matrix again."""
    from armybuilder.pdf import meta_pages, meta_report

    from . import analysis, html_report, palette

    digest = hashlib.sha256()
    for module in (meta_report, meta_pages, html_report, analysis, palette):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()


def _read_steps(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and isinstance(data.get("files"), dict) else {}


def write_outputs(matrix: MetaMatrix, stem: Path, resume: bool = False, renderings: list[tuple[str, str, Render]] | None = None) -> Written:
    """JSON and CSV, then each rendering; a failed rendering is reported, the others still run.

    With *resume*, a step recorded as finished for the same matrix (and renderer
    code), whose file is still the one it wrote, is not done again.
    """
    stem.parent.mkdir(parents=True, exist_ok=True)
    csv_text = matrix.as_csv()  # the cells alone: written even if working out the profiles failed
    try:
        payload = safe_json(matrix.as_json(), indent=2, ensure_ascii=False) + "\n"  # names from files: controls escaped
    except Exception:
        atomic_write_text(stem.with_suffix(".csv"), csv_text)
        raise
    matrix_digest = hashlib.sha256(payload.encode()).hexdigest()
    steps_file = steps_path(stem)
    steps = _read_steps(steps_file) if resume else {}
    same = steps.get("matrix") == matrix_digest
    code = None
    files: dict[str, str] = dict(steps["files"]) if same else {}
    done = Written(payload=payload)

    def finished(path: Path) -> bool:
        return resume and same and files.get(path.name) is not None and files.get(path.name) == _file_digest(path)

    def record(path: Path) -> None:
        files[path.name] = _file_digest(path) or ""
        atomic_write_text(steps_file, json.dumps({"matrix": matrix_digest, "renderer": code, "files": files}, indent=1) + "\n")

    for path, text in ((stem.with_suffix(".csv"), csv_text), (stem.with_suffix(".json"), payload)):
        if finished(path):
            done.kept.append(path)
            continue
        atomic_write_text(path, text)
        record(path)
        done.written.append(path)
    code = _code_digest()
    if steps.get("renderer") != code:
        same = False  # new drawing code: draw again
    for suffix, what, render in renderings if renderings is not None else RENDERINGS:
        path = stem.with_suffix(suffix)
        if finished(path):
            done.kept.append(path)
            continue
        try:
            render(matrix, path)
        except Exception as exc:  # noqa: BLE001 - reported; the numbers are safe already
            done.failed.append((path, what, exc))
            continue
        record(path)
        done.written.append(path)
    return done
