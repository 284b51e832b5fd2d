"""core/ and systems/ stay free of UI and PDF libraries (design.md: Layers)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_core_and_systems_import_no_ui_or_pdf_library():
    code = (
        "import sys, pkgutil, importlib\n"
        "import armybuilder.core, armybuilder.systems\n"
        "for pkg in (armybuilder.core, armybuilder.systems):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich', 'reportlab'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""


def test_import_linter_contract_holds():
    linter = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(linter)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
