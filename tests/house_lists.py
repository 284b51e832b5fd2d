"""Shared by the house catalogue tests: the test house catalogues (tests/house_data, every
figure invented for the tests) copied where a test may change them, and lists built on them."""

from __future__ import annotations

import shutil
from pathlib import Path

from armybuilder.core.house_paths import PATH_ENV

HOUSE_DATA = Path(__file__).resolve().parent / "house_data"

WOLF_LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.1.0
house:
  - id: wolfen-of-yllia
    version: {version}
    hash: {hash}
format: 1000-ap
name: Pack of the silver moon
people: yllia
units:
  - name: Warriors
    troops: {{profile: yllia-wolfen-warrior, count: 9, leader: true}}
    members:
      - {{profile: yllia-pack-chieftain, commander_in_chief: true}}
      - {{profile: yllia-howler}}
      - {{profile: yllia-totem-bearer}}
  - name: Hunters
    troops: {{profile: yllia-wolfen-hunter, count: 10}}
    members:
      - {{profile: yllia-moon-priestess, miracles: [howl-of-yllia]}}
  - name: Guardians
    troops: {{profile: yllia-guardian-of-the-moon, count: 5, leader: true}}
  - name: More warriors
    troops: {{profile: yllia-wolfen-warrior, count: 8}}
tactics: [brutality]
"""

JOMS_LIST = """\
armybuilder: 1
system: morpheus-ragnarok
catalogue: 1.0.0
house:
  - id: jomsvikings
    version: {version}
    hash: {hash}
format: 800-glory
name: Oath of Jomsborg
warriors:
  - {{type: jomsviking-oathkeeper, jarl: true, equipment: [oath-axe, light-leathers]}}
  - {{type: jomsviking, equipment: [oath-axe, shield]}}
  - {{type: jomsviking, equipment: [oath-axe, shield]}}
  - {{type: jomsviking, equipment: [spear, shield]}}
  - {{type: jomsviking, equipment: [spear, shield]}}
  - {{type: bondi, equipment: [spear, shield]}}
  - {{type: bondi, equipment: [spear, shield]}}
god_powers:
  - {{power: thunderous-blows}}
"""


def house_folder(tmp_path: Path, monkeypatch, *names: str) -> Path:
    """A copy of the named test house catalogues (all by default) in a folder named by
    ARMYBUILDER_CATALOG_PATH, as ``--catalog`` names one."""
    root = tmp_path / "houses"
    for name in names or tuple(p.name for p in HOUSE_DATA.iterdir() if p.is_dir()):
        shutil.copytree(HOUSE_DATA / name, root / name)
    monkeypatch.setenv(PATH_ENV, str(root))
    return root


def write_list(path: Path, text: str, system_id: str, house_id: str, version: str | None = None) -> Path:
    """``text`` pinned to the installed ``house_id`` at ``version`` (its latest by default)."""
    from armybuilder.core.house import find
    from armybuilder.core.registry import get_system

    source = find(get_system(system_id), house_id)
    assert source is not None, f"{house_id} is not installed"
    version = version or source.latest
    path.write_text(text.format(hash=source.resolve(version).hash, version=version), encoding="utf-8")
    return path
