"""What each quick command imports, in a fresh process (start-up time is mostly imports).

``--version`` and ``catalog list`` (with the cache warm) load no game system, no
pydantic, no YAML parser and no numpy; ``validate`` loads only the system of its list
and neither numpy, the round-trip YAML parser, the TUI nor the PDF code.  Timings are
``armybuilder bench``'s business; these tests pin the imports that made them slow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from armybuilder.core import catalog_listing, registry
from armybuilder.core.catalog import catalog_root

PROBE = (
    "import contextlib, io, json, sys\n"
    "from armybuilder.cli import main\n"
    "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
    "    try:\n"
    "        code = main(sys.argv[1:])\n"
    "    except SystemExit as exc:  # --version exits through argparse\n"
    "        code = exc.code\n"
    "print(json.dumps({'code': code, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
)

HEAVY = ("numpy", "pydantic", "pydantic_core", "yaml", "ruamel", "textual", "rich", "reportlab")


def _run(cache, *argv: str, answers: bool = True) -> dict:
    """``answers=False``: the remembered answers of validate off, the catalogue cache on
    (ARMYBUILDER_NO_CACHE=answers): a list checked as if never seen."""
    env = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(cache)}
    env.pop("ARMYBUILDER_NO_CACHE", None)
    if not answers:
        env["ARMYBUILDER_NO_CACHE"] = "answers"
    env.pop("ARMYBUILDER_SYSTEMS", None)
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


#: armybuilder's stand-in for pydantic's plugin loader (see armybuilder/__init__.py): no pydantic code
STAND_IN = "pydantic.plugin._loader"


def _loaded(modules: list[str], *tops: str) -> list[str]:
    return [m for m in modules if m.split(".")[0] in tops and m != STAND_IN]


def test_version_imports_nothing_heavy(tmp_path):
    result = _run(tmp_path, "--version")
    assert _loaded(result["modules"], *HEAVY) == []
    assert not [m for m in result["modules"] if m.startswith("armybuilder.systems.")]


def test_catalog_list_reads_cached_listings_without_loading_a_system(tmp_path):
    first = _run(tmp_path, "catalog", "list")  # cold: the systems are loaded once, rows cached
    assert first["code"] == 0
    again = _run(tmp_path, "catalog", "list")
    assert again["out"] == first["out"]
    assert "Rag'Narok 2" in again["out"] and "Rattle and Rend" in again["out"]
    assert _loaded(again["modules"], *HEAVY) == []
    assert not [m for m in again["modules"] if m.startswith("armybuilder.systems.")]


def test_validate_loads_one_system_and_no_engine_ui_or_round_trip_parser(tmp_path):
    sample = catalog_root() / "ragnarok2" / "samples" / "alahan-lions.yaml"
    _run(tmp_path, "validate", str(sample))  # warm the catalogue cache
    result = _run(tmp_path, "validate", str(sample), answers=False)  # checked, not remembered
    assert result["code"] == 0 and "LEGAL" in result["out"]
    assert _loaded(result["modules"], "numpy", "ruamel", "textual", "rich", "reportlab") == []
    systems = {m.split(".")[2] for m in result["modules"] if m.startswith("armybuilder.systems.")}
    assert systems == {"ragnarok2"}
    for lazy in ("editing", "sheets", "engine", "importer"):  # the editor's, printer's and engine's code
        assert f"armybuilder.systems.ragnarok2.{lazy}" not in result["modules"]
    assert "armybuilder.core.shapes" not in result["modules"]
    assert "importlib.metadata" not in result["modules"]  # pydantic's plugin scan is off


@pytest.mark.parametrize("system_id", [s for s in registry.BUNDLED_SYSTEMS if registry.get_system(s).plain_module])
def test_a_checked_validate_imports_no_pydantic(tmp_path, system_id):
    """A sound list checked afresh (no remembered answer) against a cached
    catalogue is read into the plain mirrors (core/plain.py): pydantic is never imported.
    A list pydantic must word an error for still gets it, at its line and column."""
    samples = [item for _, item in registry.get_system(system_id).source.samples()]
    _run(tmp_path, "validate", str(samples[0]))  # warm the catalogue cache
    for sample in samples:
        result = _run(tmp_path, "validate", str(sample), answers=False)
        assert result["code"] in (0, 1) and "fingerprint" in result["out"], result["out"]
        assert _loaded(result["modules"], "pydantic", "pydantic_core", "annotated_types") == [], sample
        assert f"armybuilder.systems.{registry.KNOWN_SYSTEMS[system_id].rpartition('.')[2]}.plain" in result["modules"]
    broken = tmp_path / "broken.yaml"
    broken.write_text(Path(str(samples[0])).read_text(encoding="utf-8") + "colour: red\n", encoding="utf-8")
    result = _run(tmp_path, "validate", str(broken), answers=False)
    assert result["code"] == 2 and "broken.yaml:" in result["out"] and "colour" in result["out"]
    assert _loaded(result["modules"], "pydantic")  # pydantic words the refusal


def test_a_remembered_validate_imports_neither_pydantic_nor_a_yaml_parser(tmp_path):
    """A list checked before (same bytes, catalogue and code) is answered from the findings
    cache: no pydantic, no YAML parser, no game system, identical output."""
    sample = catalog_root() / "ragnarok2" / "samples" / "alahan-lions.yaml"
    checked = _run(tmp_path, "validate", str(sample))
    assert _loaded(checked["modules"], "pydantic", "yaml")  # the first run did check it
    result = _run(tmp_path, "validate", str(sample))
    assert result["code"] == 0 and result["out"] == checked["out"]
    assert _loaded(result["modules"], *HEAVY) == []
    assert not [m for m in result["modules"] if m.startswith("armybuilder.systems.")]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_listing_is_believed_only_while_its_files_are_unchanged(cache_dir, monkeypatch):
    first = catalog_listing.catalogue_rows()
    loads = []
    real = registry.get_system
    monkeypatch.setattr(registry, "get_system", lambda system_id: loads.append(system_id) or real(system_id))
    assert catalog_listing.catalogue_rows() == first
    # the toy system of the tests lives outside the package: listed from its files too
    assert loads == [] or set(loads) <= {s for s in registry.KNOWN_SYSTEMS if not registry.KNOWN_SYSTEMS[s].startswith("armybuilder.")}
    loads.clear()
    # a changed manifest, erratum or system module: the digest differs, the system is loaded again
    monkeypatch.setattr(catalog_listing, "_digest", lambda *args: "changed")
    assert catalog_listing.catalogue_rows() == first
    assert set(loads) == set(registry.KNOWN_SYSTEMS)


def test_an_edited_listing_is_never_believed(cache_dir):
    catalog_listing.catalogue_rows()
    path = cache_dir / "ragnarok2-listing.json"
    tag, payload = path.read_bytes().split(b"\n", 1)
    path.write_bytes(tag + b"\n" + payload.replace(b"Rag'Narok 2", b"Forged game"))
    assert catalog_listing.cached_row("ragnarok2", registry.KNOWN_SYSTEMS["ragnarok2"]) is None
    assert "Forged game" not in json.dumps(catalog_listing.catalogue_rows())


def test_the_editor_reading_a_list_round_trip_does_not_import_pyyaml(tmp_path):
    sample = catalog_root() / "ragnarok2" / "samples" / "alahan-lions.yaml"
    code = (
        "import json, sys\n"
        "from armybuilder.core.lists import load_list\n"
        "load_list(sys.argv[1])\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {**os.environ, "ARMYBUILDER_CACHE_DIR": str(tmp_path)}
    # The first start reads the catalogue's YAML with libyaml (read only), the next ones its cache.
    first = subprocess.run([sys.executable, "-c", code, str(sample)], capture_output=True, text=True, env=env, check=True).stdout
    assert "yaml" in json.loads(first.strip().splitlines()[-1])
    out = subprocess.run([sys.executable, "-c", code, str(sample)], capture_output=True, text=True, env=env, check=True).stdout
    modules = json.loads(out.strip().splitlines()[-1])
    assert "ruamel.yaml" in modules  # the round trip the editor needs
    assert _loaded(modules, "yaml", "numpy", "reportlab") == []  # libyaml's fast path is for read-only reads


def _python(code: str, **env_changes: str | None) -> str:
    env = {**os.environ}
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout.strip()


MODEL = (
    "import sys\n"
    "from pydantic import BaseModel\n"
    "class A(BaseModel):\n"
    "    x: int\n"
    "assert A(x='1').x == 1\n"
    "print(type(A.__pydantic_validator__).__name__, 'importlib.metadata' in sys.modules,"
    " getattr(sys.modules['pydantic.plugin._loader'], '__file__', None) is not None)\n"
)


def test_pydantic_plugins_are_off_without_their_entry_point_scan():
    # armybuilder's processes: plain validators, and importlib.metadata never imported
    assert _python("import armybuilder\n" + MODEL, PYDANTIC_DISABLE_PLUGINS=None) == "SchemaValidator False False"
    # what the stand-in answers is what pydantic's own loader answers with plugins off
    assert _python(
        "from pydantic.plugin._loader import get_plugins\nprint(tuple(get_plugins()))", PYDANTIC_DISABLE_PLUGINS="__all__"
    ) == "()"
    # a user who turns plugins back on gets pydantic's own loader
    assert _python("import armybuilder\n" + MODEL, PYDANTIC_DISABLE_PLUGINS="false").endswith("True True")
