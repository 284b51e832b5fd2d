"""The Rag'Narok 2 BattleScribe importer: committed files, profile counts, hostile XML.

The tests that need the Confrontation reference data (beside the repository, in
``../shared/reference-data``) are skipped when it is absent, e.g. in a wheel test.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seed_texts import REFERENCE_DATA

from armybuilder.cli import main
from armybuilder.core.errors import InputError
from armybuilder.core.yamlio import load_document, to_plain
from armybuilder.systems.ragnarok2 import import_assignments as A
from armybuilder.systems.ragnarok2.catalog import Profile, R2Catalog
from armybuilder.systems.ragnarok2.importer import (
    convert,
    parse_abilities,
    parse_aspects,
    parse_weapon,
    parse_xml_bytes,
)

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (REFERENCE_DATA / "confrontation-c5").resolve()
CATALOG = ROOT / "catalog" / "ragnarok2"

needs_reference = pytest.mark.skipif(not REFERENCE.is_dir(), reason="reference data not present")

MAIN_PEOPLES = ("akkylannie", "alahan", "acheron", "tir-na-bor")


@pytest.fixture(scope="module")
def converted() -> dict[str, str]:
    if not REFERENCE.is_dir():
        pytest.skip("reference data not present")
    return convert(sorted(REFERENCE.glob("*.gst")) + sorted(REFERENCE.glob("*.cat")))


# --------------------------------------------------------------------------- committed output


@needs_reference
def test_committed_files_are_exactly_the_importer_output(converted):
    assert "miracles.yaml" in converted
    for people in MAIN_PEOPLES:
        assert f"profiles/{people}.yaml" in converted
    for rel, text in converted.items():
        committed = CATALOG / rel
        assert committed.is_file(), f"{rel} is produced by the importer but not committed"
        assert committed.read_text(encoding="utf-8") == text, (
            f"{rel} differs from the importer's output: run "
            "`armybuilder catalog import-bsdata ragnarok2 <reference files> -o catalog/ragnarok2`"
        )
    committed_profiles = {f"profiles/{p.name}" for p in (CATALOG / "profiles").glob("*.yaml")}
    assert committed_profiles == {rel for rel in converted if rel.startswith("profiles/")}


@needs_reference
def test_output_is_deterministic(converted):
    again = convert(sorted(REFERENCE.glob("*.cat"), reverse=True) + sorted(REFERENCE.glob("*.gst")))
    assert again == converted


def _reference_card_count(path: Path) -> int:
    """Distinct Profile Cards of a catalogue, counted independently with ElementTree.

    A card repeated with the same figures where BattleScribe nests an entry in another
    counts once; model entries are named by the selection, upgrades by their card.
    """
    root = ET.parse(path).getroot()
    ns = root.tag.split("}")[0] + "}"
    seen = set()
    for entry in root.iter(ns + "selectionEntry"):
        for card in entry.findall(f"{ns}profiles/{ns}profile"):
            if card.get("typeName") != "Profile Card":
                continue
            name = entry.get("name") if entry.get("type") in ("model", "unit") else card.get("name")
            figures = tuple((c.text or "").strip() for c in card.iter(ns + "characteristic"))
            seen.add((" ".join(name.split()).lower(), figures))
    return len(seen)


@pytest.fixture(scope="module")
def shipped() -> dict[str, R2Catalog]:
    """Each committed profiles file, validated alone as the catalogue loader does."""
    out = {
        path.stem: R2Catalog.model_validate(to_plain(load_document(path)))
        for path in sorted((CATALOG / "profiles").glob("*.yaml"))
    }
    if not out:
        pytest.skip("no imported profiles")
    return out


@pytest.fixture(scope="module")
def profiles(shipped) -> dict[str, Profile]:
    return {p.id: p for data in shipped.values() for p in data.profiles}


@needs_reference
@pytest.mark.parametrize("catalogue,people", sorted(A.PEOPLE_BY_CATALOGUE.items()))
def test_every_reference_profile_is_converted_and_valid(catalogue, people, shipped):
    source = REFERENCE / f"{catalogue}.cat"
    data = shipped[people]  # every converted profile validated in the fixture
    assert len(data.profiles) == _reference_card_count(source) > 0
    assert len({p.id for p in data.profiles}) == len(data.profiles)
    for p in data.profiles:
        assert p.people == people
        assert p.id.startswith(f"{people}-")
        assert "rank" in p.assigned  # CAT-D1: the reference data has no ranks
        assert p.source.startswith("reference-data: confrontation-c5/")


def test_four_peoples_at_least(profiles):
    peoples = {p.people for p in profiles.values()}
    assert set(MAIN_PEOPLES) <= peoples


def test_seed_mentions_win(profiles):
    """CAT-D1: Griffin conscripts have Power 1 (medium), Wolfen are Large."""
    assert profiles["akkylannie-griffin-conscript"].size == "medium"
    wolfen = [p for p in profiles.values() if "wolfen" in p.name.lower()]
    assert wolfen and all(p.size == "large" for p in wolfen)
    minotaurs = [p for p in profiles.values() if "minotaur" in p.name.lower()]
    assert minotaurs and all(p.size == "large" for p in minotaurs)
    # FAQ III: dwarves are Small, cavalry is Large
    assert profiles["tir-na-bor-soldier-of-the-plains"].size == "small"
    assert profiles["tir-na-bor-khor-on-razorback"].size == "large"
    assert profiles["alahan-mounted-knight-of-the-lion"].size == "large"


def test_figures_roles_and_mystics(profiles):
    archer = profiles["alahan-arcer-of-alahan"]
    assert (archer.cost, archer.mov, archer.att, archer.str_, archer.def_, archer.res) == (
        10,
        10,
        2,
        2,
        2,
        4,
    )
    assert archer.ranged is not None and (archer.ranged.strength, archer.ranged.long) == (3, 60)
    dwarf = profiles["tir-na-bor-soldier-of-the-plains"]
    assert dwarf.mov == 7.5
    bard = profiles["alahan-meliador-the-celestial-2nd"]
    assert bard.has_role("magician") and bard.power == 8
    assert bard.elements == ["air", "light"] and bard.path == "hermetism"
    assert bard.initiation_rank == 2
    sered = profiles["akkylannie-sered-templar-commander"]
    assert (
        sered.has_role("faithful")
        and sered.has_role("warrior-monk")
        and sered.has_role("commander")
    )
    assert sered.aspects is not None and sered.aspects.total == 4
    assert sered.cult == "light" and sered.faith_rank == "zealot"
    assert sered.ability_value("leadership") == 10
    skeleton = profiles["acheron-skeleton-warrior"]
    assert skeleton.fear == 5 and skeleton.cou is None and skeleton.has_role("living-dead")
    ballista = profiles["alahan-ballista-of-the-lion"]
    assert ballista.has_role("war-machine")
    musician = profiles["alahan-musician-of-alahan-1"]
    assert musician.has_role("musician") and not musician.has_role("commander")
    assert "roles" in musician.assigned


def test_misprints_are_corrected_and_said(profiles):
    agonn = profiles["alahan-agonn-the-ardent"]
    assert agonn.mov == 10 and "mov" in agonn.assigned and "misprint" in agonn.data_note and not agonn.note


# --------------------------------------------------------------------------- parsing helpers


def test_magic_entry_gives_power_elements_and_paths():
    abilities, mystic, _ = parse_abilities(
        "Light and Air Adept/Ermetism; Theurgy, Scout, Recovery/3"
    )
    assert abilities == ["scout", "recuperation/3"]
    assert mystic.elements == ["air", "light"] and mystic.paths == ["hermetism", "theurgy"]
    assert mystic.power_rank == 2


def test_faith_entry_and_misspellings():
    abilities, mystic, _ = parse_abilities(
        "Fanaticis; Harrassment; Faithful of Merin/12.5; Leardership/12,5"
    )
    assert abilities == ["fanaticism", "harassment", "leadership/12.5"]
    assert (mystic.faithful, mystic.cult, mystic.deity) == (True, "light", "Merin")


def test_aspects_are_read_in_cad_order():
    assert parse_aspects("0-1-2 (zealot)") == (
        {"alteration": 1, "creation": 0, "destruction": 2},
        "zealot",
    )
    assert parse_aspects("2\\1\\0") == ({"alteration": 1, "creation": 2, "destruction": 0}, None)
    assert parse_aspects("Brutal; Fierce") == (None, None)


def test_weapon_names():
    w = parse_weapon("Steam cannon: STR 10+2d6, 30/60/90", 0, 1)
    assert w is not None and (w.strength, w.short, w.medium, w.long) == (10, 30, 60, 90)
    assert "10+2d6" in w.name
    assert parse_weapon("Rifle: STR = 6. Range = 25/50/75", 0, 1) is not None
    assert parse_weapon("Mace: +2 STR", 0, 1) is None


# --------------------------------------------------------------------------- hostile input


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_doctype_and_entities_are_refused(tmp_path):
    bomb = b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">]>\n<catalogue name="x">&lol;</catalogue>'
    with pytest.raises(InputError) as err:
        convert([_write(tmp_path, "bomb.cat", bomb)])
    assert err.value.first.line == 2 and "bomb.cat" in str(err.value)


def test_broken_xml_names_file_and_line(tmp_path):
    broken = b'<?xml version="1.0"?>\n<catalogue name="x">\n  <selectionEntries>\n</catalogue>\n'
    with pytest.raises(InputError) as err:
        convert([_write(tmp_path, "broken.cat", broken)])
    assert err.value.first.line == 4 and "not well-formed" in err.value.first.message


def test_unexpected_structure(tmp_path):
    with pytest.raises(InputError, match="root element"):
        convert([_write(tmp_path, "x.cat", b"<html/>")])
    with pytest.raises(InputError, match="not mapped to a Rag'Narok 2 people"):
        convert([_write(tmp_path, "y.cat", b'<catalogue name="Orcs of Bran-O-Kor"/>')])
    card = (
        b'<catalogue name="Alahan Lions [C5]"><selectionEntries>'
        b'<selectionEntry name="Odd" type="model"><profiles>'
        b'<profile name="Odd" typeName="Profile Card"><characteristics/></profile>'
        b"</profiles></selectionEntry></selectionEntries></catalogue>"
    )
    with pytest.raises(InputError, match="no 'Mov' characteristic"):
        convert([_write(tmp_path, "z.cat", card)])


def test_cli_reports_bad_xml_without_traceback(tmp_path, capsys):
    bad = _write(tmp_path, "bad.cat", b"<catalogue name='x'><oops></catalogue>")
    assert (
        main(["catalog", "import-bsdata", "ragnarok2", str(bad), "-o", str(tmp_path / "out")]) == 2
    )
    captured = capsys.readouterr()
    assert "bad.cat:1" in captured.err + captured.out
    assert "Traceback" not in captured.err + captured.out
    assert not (tmp_path / "out").exists()


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_parse_or_fail_cleanly(data):
    try:
        parse_xml_bytes(data, "fuzz.cat")
    except InputError as exc:
        assert "fuzz.cat" in str(exc)


@needs_reference
def test_categories_need_the_game_system_file():
    """Tir-Na-Bor links its categories by id only: without the .gst the importer says so."""
    with pytest.raises(InputError, match=r"give the game system file \(\.gst\) too") as err:
        convert([REFERENCE / "Tir-Na-Bor Dwarves [C5].cat"])
    assert err.value.first.line is not None


def _reference_figures(path: Path) -> dict[str, tuple[str, str, str]]:
    """name → (Atk-Str, Def-Res, pts) straight from the XML, for a cross-check."""
    root = ET.parse(path).getroot()
    ns = root.tag.split("}")[0] + "}"
    out = {}
    for entry in root.iter(ns + "selectionEntry"):
        for card in entry.findall(f"{ns}profiles/{ns}profile"):
            if card.get("typeName") != "Profile Card":
                continue
            name = entry.get("name") if entry.get("type") in ("model", "unit") else card.get("name")
            chars = {c.get("name"): (c.text or "") for c in card.iter(ns + "characteristic")}
            costs = entry.findall(f"{ns}costs/{ns}cost")
            pts = next((c.get("value") for c in costs if c.get("name") == "pts"), "0")
            out.setdefault(
                " ".join(name.split()), (chars.get("Atk-Str", ""), chars.get("Def-Res", ""), pts)
            )
    return out


@needs_reference
@pytest.mark.parametrize("people", MAIN_PEOPLES)
def test_figures_match_the_reference_unless_assigned(people, profiles):
    catalogue = next(c for c, p in A.PEOPLE_BY_CATALOGUE.items() if p == people)
    figures = _reference_figures(REFERENCE / f"{catalogue}.cat")
    ours = [p for p in profiles.values() if p.people == people]
    assert len(ours) == len(figures)
    for p in ours:
        atk_str, def_res, pts = figures[p.name]
        printed = {}
        for text, keys in ((atk_str, ("att", "str")), (def_res, ("def", "res"))):
            m = re.match(r"^\s*(\d+)?\s*-\s*(\d+)?\s*$", text)
            for key, value in zip(keys, m.groups() if m else (None, None), strict=True):
                printed[key] = int(value) if value else None
        ours_figures = {"att": p.att, "str": p.str_, "def": p.def_, "res": p.res}
        for key, value in ours_figures.items():
            if key in p.assigned:
                assert printed[key] is None, (p.id, key)  # assigned only where the card is silent
            else:
                assert value == printed[key], (p.id, key)
        if "cost" not in p.assigned:
            assert p.cost == int(float(pts)), p.id


# --------------------------------------------------------------------------- synthetic catalogue

GST = b"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs" name="Confrontation [C5]" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <categoryEntries>
    <categoryEntry id="cat-char" name="Characters"/>
    <categoryEntry id="cat-troop" name="Troops"/>
  </categoryEntries>
  <sharedSelectionEntries>
    <selectionEntry id="bow" name="Bow: STR 3, 20/40/60" type="upgrade">
      <costs><cost name="pts" typeId="points" value="0"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</gameSystem>
"""


def _card(
    name: str, kind: str, category: str, cost: str, chars: dict[str, str], extra: str = ""
) -> str:
    cells = "".join(f'<characteristic name="{k}">{v}</characteristic>' for k, v in chars.items())
    return (
        f'<selectionEntry id="{name}" name="{name}" type="{kind}">'
        f'<profiles><profile name="{name}" typeName="Profile Card"><characteristics>{cells}'
        f"</characteristics></profile></profiles>"
        f'<categoryLinks><categoryLink id="l-{name}" targetId="{category}" primary="true"/></categoryLinks>'
        f"{extra}"
        f'<costs><cost name="pts" typeId="points" value="{cost}"/></costs></selectionEntry>'
    )


def _stats(**over: str) -> dict[str, str]:
    base = {
        "Mov": "10",
        "Ini": "2",
        "Atk-Str": "3-3",
        "Def-Res": "2-4",
        "Aim": "-",
        "Cou/Fea": "5 C",
        "Dis": "2",
    }
    base.update({"Pow": "", "Fervour": "", "Abilities": "Bravery"})
    base.update(over)
    return base


def test_synthetic_catalogue_gets_ranks_sizes_and_roles(tmp_path):
    bow_link = '<entryLinks><entryLink id="e1" targetId="bow" type="selectionEntry"/></entryLinks>'
    entries = "".join(
        [
            _card("Spearman of Alahan", "model", "cat-troop", "10", _stats()),
            _card("Archer of Alahan", "model", "cat-troop", "12", _stats(Aim="3"), bow_link),
            _card(
                "Musician of Alahan",
                "model",
                "cat-troop",
                "13",
                _stats(Abilities="Bravery, Leadership/10"),
            ),
            _card(
                "Knight of the Lion",
                "model",
                "cat-troop",
                "60",
                _stats(Mov="20", Abilities="War horse"),
            ),
            _card(
                "Sage the wise",
                "model",
                "cat-char",
                "45",
                _stats(Pow="4", Abilities="Light and Air Adept/Ermetism; Theurgy, Leadership/12,5"),
            ),
            _card(
                "Sage the wise (2nd)",
                "model",
                "cat-char",
                "125",
                _stats(Fervour="1-2-0 (zealot)", Abilities="Faithful of Arin/10"),
            ),
        ]
    )
    cat = (
        '<?xml version="1.0"?><catalogue id="c" name="Alahan Lions [C5]" '
        'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
        f"<selectionEntries>{entries}</selectionEntries></catalogue>"
    ).encode()
    out = convert(
        [_write(tmp_path, "sys.gst", GST), _write(tmp_path, "Alahan Lions [C5].cat", cat)]
    )
    assert list(out) == ["profiles/alahan.yaml"]
    assert out["profiles/alahan.yaml"].startswith("# Profiles of alahan")
    data = R2Catalog.model_validate(
        to_plain(load_document(_write(tmp_path, "out.yaml", out["profiles/alahan.yaml"].encode())))
    )
    by_id = {p.id: p for p in data.profiles}
    spear = by_id["alahan-spearman-of-alahan"]
    assert (spear.rank, spear.size, spear.roles, spear.abilities) == (
        "regular",
        "medium",
        [],
        ["bravery"],
    )
    archer = by_id["alahan-archer-of-alahan"]
    assert archer.ranged is not None and archer.ranged.name == "Bow" and "marksman" in archer.roles
    musician = by_id["alahan-musician-of-alahan"]
    assert musician.roles == ["musician"] and "roles" in musician.assigned
    knight = by_id["alahan-knight-of-the-lion"]
    assert (knight.rank, knight.size) == ("special", "large")
    sage = by_id["alahan-sage-the-wise"]
    assert sage.roles == ["character", "incarnate", "commander", "magician"]
    assert (sage.power, sage.elements, sage.path, sage.initiation_rank) == (
        4,
        ["air", "light"],
        "hermetism",
        2,
    )
    assert sage.rank == "elite" and sage.ability_value("leadership") == 12
    second = by_id["alahan-sage-the-wise-2nd"]
    assert second.rank == "living-legend" and "living-legend" in second.roles
    assert second.aspects is not None and (second.aspects.creation, second.aspects.alteration) == (
        1,
        2,
    )
    assert (second.cult, second.faith_rank) == ("light", "zealot")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_import_refuses_a_pipe_by_name_without_waiting_on_it(tmp_path, capsys):
    """A named pipe given as a BattleScribe file is refused at once, said for what it is."""
    pipe = tmp_path / "data.cat"
    os.mkfifo(pipe)
    assert main(["catalog", "import-bsdata", "ragnarok2", str(pipe), "-o", str(tmp_path / "out")]) == 2
    assert "not a regular file" in capsys.readouterr().err
