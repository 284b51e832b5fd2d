"""``catalog check DIR`` (armybuilder.core.house_checks): every mistake of a house catalogue
written by hand, at its file, line, column and field, in one run; and the skeletons of
``catalog new``, which check clean but for their example entries."""

from __future__ import annotations

import shutil
import textwrap

import pytest
from house_lists import HOUSE_DATA

from armybuilder.core import house
from armybuilder.core.errors import InputError
from armybuilder.core.house_checks import check_folder
from armybuilder.core.house_files import write_skeleton
from armybuilder.core.registry import get_system

R2 = get_system("ragnarok2")


def _copy(tmp_path, name="wolfen-of-yllia"):
    folder = tmp_path / name
    shutil.copytree(HOUSE_DATA / name, folder)
    return folder


def _lines(report):
    return [str(i) for i in report.issues]


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("name", ["wolfen-of-yllia", "jomsvikings"])
def test_the_test_house_catalogues_check_clean(tmp_path, name):
    report = check_folder(_copy(tmp_path, name))
    assert report.issues == [] and report.source is not None and report.source.id == name


def test_schema_mistakes_are_all_said_at_their_place(tmp_path):
    folder = _copy(tmp_path)
    profiles = folder / "profiles.yaml"
    _edit(profiles, "    att: 5\n", "    att: 5a\n")  # the warrior's ATT (line 11)
    _edit(profiles, "    cou: 5\n    dis: 2\n    abilities: [moon-fury, survival-instinct]", "    courage: 5\n    dis: 2\n    abilities: [moon-fury, survival-instinct]")
    _edit(profiles, "  - id: yllia-wolfen-hunter", "  - id: Yllia_Hunter")
    _edit(profiles, "  - id: yllia-howler", "  - id: alahan-agonn-the-ardent")
    _edit(profiles, "  - id: yllia-totem-bearer", "  - id: yllia-pack-chieftain")
    lines = _lines(check_folder(folder))
    label = str(profiles)
    assert f"error: {label}:11:10: profiles[0] (yllia-wolfen-warrior).att: a whole number is needed here, not '5a'" in lines
    assert any(line.startswith(f"error: {label}:15:14: profiles[0] (yllia-wolfen-warrior).courage: unknown field") for line in lines), lines
    assert any(f"{label}:19:9: profiles[1].id: 'Yllia_Hunter' is not an id" in line for line in lines), lines
    assert any("profiles[4].id: the bundled Rag'Narok 2 catalogue has profiles 'alahan-agonn-the-ardent' already (version 1.0.0)" in line for line in lines), lines
    assert any("profiles[5].id: id 'yllia-pack-chieftain' is used twice in profiles (also at" in line for line in lines), lines
    assert all(line.startswith("error: ") for line in lines) and len(lines) == 5


def test_references_to_nothing_and_figures_out_of_range(tmp_path):
    folder = _copy(tmp_path)
    profiles = folder / "profiles.yaml"
    _edit(profiles, "    people: yllia\n", "    people: ylia\n")
    _edit(profiles, "abilities: [moon-fury, survival-instinct]", "abilities: [moon-fury, survival-instnct]")
    _edit(profiles, "    att: 5\n", "    att: 55\n")
    report = check_folder(folder)
    lines = _lines(report)
    label = str(profiles)
    assert f"error: {label}:5:13: profiles[yllia-wolfen-warrior].people: refers to unknown peoples id 'ylia' (neither the bundled catalogue nor this one has it)" in lines
    assert f"error: {label}:17:28: profiles[yllia-wolfen-warrior].abilities[1]: refers to unknown abilities id 'survival-instnct' (neither the bundled catalogue nor this one has it)" in lines
    assert f"warning: {label}:11:10: profiles[yllia-wolfen-warrior].att: att 55 is outside the range of the bundled profiles (0 to 8): check it against the card" in lines
    assert (len(report.errors), len(report.warnings)) == (2, 1)


def test_what_a_house_catalogue_cannot_change(tmp_path):
    folder = _copy(tmp_path)
    (folder / "extra.yaml").write_text(textwrap.dedent("""\
        formats:
          - {id: 1200-ap, name: 1200 A.P., limit: 1200}
        tables:
          familiar_cost: 5
        """), encoding="utf-8")
    (folder / "errata" / "0.9.0.yaml").write_text(textwrap.dedent("""\
        version: 0.9.0
        date: '2026-11-01'
        summary: older than the base
        source: test
        operations: []
        """), encoding="utf-8")
    lines = _lines(check_folder(folder))
    extra = str(folder / "extra.yaml")
    assert f"error: {extra}:1:1: formats: a house catalogue cannot add formats: they stay the bundled catalogue's" in lines
    assert any(line.startswith(f"error: {extra}:3:1: tables: a house catalogue only adds entries") for line in lines), lines
    assert any("erratum 0.9.0 is not newer than the base catalogue 1.0.0" in line for line in lines), lines


def test_an_erratum_that_fails_and_a_manifest_without_an_id_of_its_own(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder / "errata" / "1.1.0.yaml", "profiles[yllia-wolfen-warrior].cost", "profiles[yllia-wolfen-warior].cost")
    lines = _lines(check_folder(folder))
    assert any("erratum 1.1.0, operation 1 (set profiles[yllia-wolfen-warior].cost): no entry with id 'yllia-wolfen-warior'" in line for line in lines), lines
    _edit(folder / "catalogue.yaml", "id: wolfen-of-yllia", "id: ragnarok2")
    lines = _lines(check_folder(folder))
    assert any(f"{folder / 'catalogue.yaml'}:3:5: id: 'ragnarok2' is a bundled catalogue's id" in line for line in lines), lines
    _edit(folder / "catalogue.yaml", "version: 1.0.0", "version: one")
    lines = _lines(check_folder(folder))
    assert any(f"{folder / 'catalogue.yaml'}:6:10: version: String should match pattern" in line for line in lines), lines


def test_texts_with_control_characters_and_long_names_are_warned_of(tmp_path):
    folder = _copy(tmp_path)
    _edit(folder / "profiles.yaml", "name: Howler", 'name: "Howler\\e[31m ' + "o" * 60 + '"')
    lines = _lines(check_folder(folder))
    assert any("profiles[4].name: this text holds control characters" in line and line.startswith("warning") for line in lines), lines
    assert any("profiles[4].name: a name of 72 characters is cut" in line for line in lines), lines


def test_a_second_check_sees_what_was_fixed(tmp_path):
    """The merged catalogue is remembered by the content of what is merged, never by a
    house's id and version alone (an early build judged a fixed catalogue by its old data)."""
    folder = _copy(tmp_path)
    _edit(folder / "profiles.yaml", "    people: yllia\n", "    people: ylia\n")
    assert len(check_folder(folder).errors) == 1
    _edit(folder / "profiles.yaml", "    people: ylia\n", "    people: yllia\n")
    house._combined.clear()  # a new process: only the authenticated cache remains
    assert check_folder(folder).issues == []


@pytest.mark.parametrize(("system_id", "people", "files"), [
    ("ragnarok2", "yllia", ["catalogue.yaml", "profiles.yaml", "glossary.yaml"]),
    ("morpheus-ragnarok", None, ["catalogue.yaml", "warriors.yaml", "equipment.yaml"]),
])
def test_the_skeleton_checks_clean_but_for_its_examples(tmp_path, system_id, people, files):
    folder = tmp_path / "new"
    system = get_system(system_id)
    written = write_skeleton(system, folder, people, house_id="my-house", name="My house")
    assert [p.name for p in written] == files
    report = check_folder(folder)
    assert report.errors == [] and report.warnings, _lines(report)
    assert all("still the skeleton's example entry" in str(w) for w in report.warnings)
    with pytest.raises(InputError, match="--force"):
        write_skeleton(system, folder, people, house_id="my-house")


def test_no_skeleton_where_a_system_has_no_faction_data_to_add(tmp_path):
    with pytest.raises(InputError, match="no house catalogue skeleton for Rattle and Rend"):
        write_skeleton(get_system("rattle-and-rend"), tmp_path / "x", None)
    with pytest.raises(InputError, match="unknown people 'wolfen'"):
        write_skeleton(R2, tmp_path / "x", "wolfen")
