"""House catalogues (armybuilder.core.house): found, pinned, merged, fingerprinted, and what a
list keeps and is told when one is missing, changed or unusable.

The house catalogues are tests/house_data (every figure invented for the tests): Wolfen of
Yllia for Rag'Narok 2 (a people the bundled catalogue has no profile for) and Jomsvikings
for the Morpheus Engine.
"""

from __future__ import annotations

import os
import shutil

import pytest
from house_lists import HOUSE_DATA, JOMS_LIST, WOLF_LIST, house_folder, write_list

from armybuilder.core import house
from armybuilder.core.errors import InputError
from armybuilder.core.findings import Severity, is_legal
from armybuilder.core.house_paths import PATH_ENV, user_folder
from armybuilder.core.house_use import (
    HouseData,
    from_portable,
    house_findings,
    latest_pins,
    portable_houses,
    shared_catalogue,
)
from armybuilder.core.lists import list_fingerprint, load_list, read_list
from armybuilder.core.registry import get_system, system_ids

R2 = get_system("ragnarok2")
ME = get_system("morpheus-ragnarok")


def _wolf(tmp_path, monkeypatch, version: str | None = None):
    house_folder(tmp_path, monkeypatch)
    return write_list(tmp_path / "wolf.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia", version)


def _house_rule(findings):
    return [f for f in findings if f.rule == "ragnarok2.catalogue.house"]


def test_house_catalogues_are_found_in_the_user_folder_and_on_the_search_path(tmp_path, monkeypatch):
    root = house_folder(tmp_path, monkeypatch, "jomsvikings")
    shutil.copytree(HOUSE_DATA / "wolfen-of-yllia", user_folder() / "wolfen-of-yllia")
    assert [s.id for s in house.installed(R2)] == ["wolfen-of-yllia"]
    assert [s.id for s in house.installed(ME)] == ["jomsvikings"]
    assert {s.id for s in house.installed(known=system_ids(), lookup=get_system)} == {"wolfen-of-yllia", "jomsvikings"}
    assert house.installed() == []  # no system asked for, none known
    # the same id on the search path and in the user folder: the search path wins, as PATH does
    shutil.copytree(HOUSE_DATA / "wolfen-of-yllia", root / "wolfen-copy")
    assert [str(s.path) for s in house.installed(R2)] == [str(root / "wolfen-copy")]
    # a folder named directly (a house catalogue itself, not a folder of them)
    monkeypatch.setenv(PATH_ENV, str(root / "jomsvikings"))
    assert [s.id for s in house.installed(ME)] == ["jomsvikings"]


def test_a_list_pinning_a_house_catalogue_is_judged_with_its_entries(tmp_path, monkeypatch):
    lf = load_list(_wolf(tmp_path, monkeypatch))
    cat = R2.catalogue_for(lf.army)
    (use,) = cat.houses
    assert (use.id, use.version, use.status) == ("wolfen-of-yllia", "1.1.0", "ok")
    assert cat.get("profiles", "yllia-wolfen-warrior").cost == 16  # erratum 1.1.0 of the house catalogue
    assert cat.get("profiles", "alahan-agonn-the-ardent") is not None  # the bundled entries stay
    findings = R2.findings(lf.army, cat)
    assert is_legal(findings), [f.message for f in findings if f.severity is Severity.ERROR]
    assert R2.points(lf.army, cat).total == 729
    (said,) = _house_rule(findings)
    assert said.severity is Severity.INFO and said.where == "house[0]" and lf.line_of(said.where) == 5
    assert said.message.startswith("uses house catalogue wolfen-of-yllia 1.1.0 (Wolfen of Yllia (test data, invented figures))")
    # the army scheme reads house troops as bundled ones: a scattered people's army corps
    # holds 3 to 12 fighters, and 13 are refused
    too_many = lf.army.model_copy(deep=True)
    too_many.units[0].troops.count = 10
    assert any(f.rule == "ragnarok2.unit.effective" for f in R2.validate(too_many, cat))


def test_the_plain_reading_gives_the_same_findings_and_fingerprint(tmp_path, monkeypatch):
    path = _wolf(tmp_path, monkeypatch)
    rich, plain = load_list(path), read_list(path, plain=True)
    rich_cat, plain_cat = R2.catalogue_for(rich.army), R2.catalogue_for(plain.army)
    assert type(plain_cat.data).__module__.endswith(".plain") and plain_cat.hash == rich_cat.hash
    assert [f.message for f in R2.findings(rich.army)] == [f.message for f in R2.findings(plain.army)]
    assert list_fingerprint(rich.army, rich_cat) == list_fingerprint(plain.army, plain_cat)


def test_the_fingerprint_covers_the_house_data(tmp_path, monkeypatch):
    path = _wolf(tmp_path, monkeypatch)
    army = load_list(path).army
    before = list_fingerprint(army, R2.catalogue_for(army))
    bundled_only = list_fingerprint(army, R2.catalogue(army.catalogue))
    assert before != bundled_only
    profiles = tmp_path / "houses" / "wolfen-of-yllia" / "profiles.yaml"
    profiles.write_text(profiles.read_text(encoding="utf-8").replace("cost: 32", "cost: 33"), encoding="utf-8")
    cat = R2.catalogue_for(army)
    (use,) = cat.houses
    assert use.status == "changed" and use.hash != use.pinned_hash
    assert cat.get("profiles", "yllia-guardian-of-the-moon").cost == 33  # the data found is used, and said
    after = list_fingerprint(army, cat)
    assert after not in (before, bundled_only)
    (said,) = _house_rule(R2.findings(army, cat))
    assert said.severity is Severity.ERROR and "has changed since the list was pinned to it" in said.message
    # pinned again: legal, and a fingerprint of its own (the pin is part of the list)
    pins = latest_pins(R2, army)
    assert pins == [{"id": "wolfen-of-yllia", "version": "1.1.0", "hash": use.hash}]
    again = type(army).model_validate({**army.model_dump(), "house": pins})
    assert not _house_rule([f for f in R2.findings(again) if f.severity is not Severity.INFO])
    assert list_fingerprint(again, R2.catalogue_for(again)) not in (before, after)


def test_a_missing_house_catalogue_keeps_every_selection_and_says_so(tmp_path, monkeypatch):
    path = _wolf(tmp_path, monkeypatch)
    monkeypatch.delenv(PATH_ENV)
    lf = load_list(path)
    cat = R2.catalogue_for(lf.army)
    assert [(u.id, u.status) for u in cat.houses] == [("wolfen-of-yllia", "missing")]
    findings = R2.findings(lf.army, cat)
    missing = [f for f in findings if f.rule == "ragnarok2.catalogue.missing-entry"]
    assert len(missing) == 9 and "yllia-wolfen-warrior" in missing[0].message  # every house entry, kept
    (said,) = _house_rule(findings)
    assert said.severity is Severity.ERROR and "is not installed here" in said.message and str(user_folder()) in said.message
    # an edit and a save keep the pin and every unit
    lf.army = lf.army.model_copy(update={"name": "Renamed"})
    lf.save()
    text = path.read_text(encoding="utf-8")
    assert "id: wolfen-of-yllia" in text and text.count("yllia-wolfen-warrior") == 2 and "Renamed" in text
    # no fingerprint printed with the data can be matched without it
    monkeypatch.setenv(PATH_ENV, str(tmp_path / "houses"))
    assert list_fingerprint(lf.army, R2.catalogue_for(lf.army)) != list_fingerprint(lf.army, cat)


def test_a_version_that_is_not_installed_and_the_newer_version_note(tmp_path, monkeypatch):
    path = _wolf(tmp_path, monkeypatch, "1.0.0")
    army = load_list(path).army
    cat = R2.catalogue_for(army)
    assert cat.get("profiles", "yllia-wolfen-warrior").cost == 15  # the base version, before the erratum
    (said,) = _house_rule(R2.findings(army, cat))
    assert said.severity is Severity.INFO and "Version 1.1.0 is installed" in said.message
    future = type(army).model_validate({**army.model_dump(), "house": [{"id": "wolfen-of-yllia", "version": "2.0.0", "hash": "0" * 16}]})
    cat = R2.catalogue_for(future)
    assert cat.houses[0].status == "no-version" and cat.houses[0].detail == "installed: 1.0.0, 1.1.0"
    (said,) = _house_rule(R2.findings(future, cat))
    assert said.severity is Severity.ERROR and "(installed: 1.0.0, 1.1.0)" in said.message


def _broken_copy(tmp_path, monkeypatch, old: str, new: str):
    root = house_folder(tmp_path, monkeypatch, "wolfen-of-yllia")
    path = write_list(tmp_path / "wolf.yaml", WOLF_LIST, "ragnarok2", "wolfen-of-yllia")
    profiles = root / "wolfen-of-yllia" / "profiles.yaml"
    text = profiles.read_text(encoding="utf-8")
    assert old in text
    profiles.write_text(text.replace(old, new, 1), encoding="utf-8")
    return load_list(path).army


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("id: yllia-howler", "id: alahan-agonn-the-ardent", "adds profiles 'alahan-agonn-the-ardent', which the bundled Rag'Narok 2 catalogue 1.1.0 has already"),
    ("rank: elite", "rank: elit", "refers to unknown ranks id 'elit'"),
    ("id: yllia-howler", "id: yllia-wolfen-warrior", "profiles id 'yllia-wolfen-warrior' is used twice"),
    ("id: yllia-howler", "id: Yllia_Howler", "is not an id"),
    ("    cost: 15\n", "    cost: fifteen\n", "a whole number is needed here, not 'fifteen'"),
])
def test_a_house_catalogue_that_cannot_be_used_is_left_out_and_named(tmp_path, monkeypatch, old, new, reason):
    army = _broken_copy(tmp_path, monkeypatch, old, new)
    cat = R2.catalogue_for(army)
    (use,) = cat.houses
    assert use.status == "unusable" and reason in use.detail, use.detail
    assert cat.get("profiles", "yllia-pack-chieftain") is None  # none of its entries, not half of them
    assert cat.get("profiles", "alahan-agonn-the-ardent").people == "alahan"  # a bundled entry is never replaced
    (said,) = _house_rule(R2.findings(army, cat))
    assert said.severity is Severity.ERROR and "cannot be used" in said.message and "armybuilder catalog check" in said.message


def test_house_data_travels_to_another_process_as_validated_data(tmp_path, monkeypatch):
    army = load_list(_wolf(tmp_path, monkeypatch)).army
    cat = shared_catalogue(R2, army.catalogue, [army])
    sent = portable_houses(cat)
    assert [h["id"] for h in sent] == ["wolfen-of-yllia"]
    monkeypatch.delenv(PATH_ENV)  # the worker has no house catalogue folder
    there = from_portable(R2, army.catalogue, sent)
    assert there.get("profiles", "yllia-wolfen-warrior").cost == 16 and there.raw["profiles"] == cat.raw["profiles"]
    tampered = [{**sent[0], "entries": {"profiles": [{**sent[0]["entries"]["profiles"][0], "cost": "a lot"}]}}]
    with pytest.raises(ValueError, match="does not fit the schema"):
        HouseData.from_portable(R2, tampered[0])
    # a game between lists that use house catalogues nobody has is not played
    with pytest.raises(InputError, match="the games need every house catalogue"):
        shared_catalogue(R2, army.catalogue, [army])


def test_a_morpheus_war_clan_uses_a_house_catalogue_of_warriors(tmp_path, monkeypatch):
    house_folder(tmp_path, monkeypatch, "jomsvikings")
    lf = load_list(write_list(tmp_path / "joms.yaml", JOMS_LIST, "morpheus-ragnarok", "jomsvikings"))
    cat = ME.catalogue_for(lf.army)
    findings = ME.findings(lf.army, cat)
    assert is_legal(findings), [f.message for f in findings]
    assert ME.points(lf.army, cat).total == 650
    said = [f for f in findings if f.rule == "morpheus-ragnarok.catalogue.house"]
    assert [f.severity for f in said] == [Severity.INFO]
    assert house_findings(ME, lf.army, cat)[0].message.startswith("uses house catalogue jomsvikings 1.0.0")


# --------------------------------------------------------------------------- hostile folders


def _folder(tmp_path, files: dict[str, bytes | str]):
    folder = tmp_path / "hostile"
    for rel, data in files.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return folder


MANIFEST = "id: hostile\nsystem: ragnarok2\nname: Hostile\nversion: 1.0.0\ndate: '2026-12-01'\nsummary: s\n"


def test_a_fifo_a_folder_loop_and_deep_folders_are_never_followed(tmp_path):
    folder = _folder(tmp_path, {"catalogue.yaml": MANIFEST})
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    assert [rel for rel, _ in house.read_folder(folder)] == ["catalogue.yaml"]  # the linked folder is skipped
    os.mkfifo(folder / "fifo.yaml")
    with pytest.raises(InputError, match="FIFO|pipe"):
        house.read_folder(folder)
    (folder / "fifo.yaml").unlink()
    deep = folder / "a" / "b" / "c" / "d" / "e"
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text("profiles: []\n", encoding="utf-8")
    with pytest.raises(InputError, match="nested more than"):
        house.read_folder(folder)


def test_too_many_or_too_large_files_are_refused(tmp_path, monkeypatch):
    folder = _folder(tmp_path, {"catalogue.yaml": MANIFEST, **{f"f{i:03}.yaml": "profiles: []\n" for i in range(house.MAX_FILES)}})
    with pytest.raises(InputError, match=f"more than {house.MAX_FILES} files"):
        house.read_folder(folder)
    big = _folder(tmp_path / "big", {"catalogue.yaml": MANIFEST, "profiles.yaml": b"#" * (house.MAX_FILE_BYTES + 1)})
    with pytest.raises(InputError, match="refused"):
        house.read_folder(big)
    # an unreadable folder on the search path is skipped, never an error for the lists that do not use it
    monkeypatch.setenv(PATH_ENV, str(big))
    assert house.installed(R2) == []


def test_an_alias_bomb_and_binary_data_are_refused_with_their_file(tmp_path, monkeypatch):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    folder = _folder(tmp_path, {"catalogue.yaml": MANIFEST, "profiles.yaml": bomb, "glossary.yaml": b"\x00\x01\x02binary"})
    monkeypatch.setenv(PATH_ENV, str(folder))
    (source,) = house.installed(R2)
    with pytest.raises(InputError) as caught:
        source.data(source.latest)
    assert "hostile" in str(caught.value)
    pin = {"id": "hostile", "version": "1.0.0", "hash": "0" * 16}
    (use,) = house.game_catalogue(R2, "1.1.0", [pin]).houses
    assert use.status == "unusable"


def test_a_house_catalogue_with_a_broken_manifest_is_not_in_the_way_of_another(tmp_path, monkeypatch):
    path = _wolf(tmp_path, monkeypatch)
    broken = tmp_path / "houses" / "broken"
    broken.mkdir()
    (broken / "catalogue.yaml").write_text(MANIFEST.replace("id: hostile", "id: broken").replace("version: 1.0.0", "version: one"), encoding="utf-8")
    assert {s.house_id for s in house.installed(R2)} == {"wolfen-of-yllia", "broken"}
    army = load_list(path).army
    assert [u.status for u in R2.catalogue_for(army).houses] == ["ok"]
    pinned = type(army).model_validate({**army.model_dump(), "house": [*army.model_dump()["house"], {"id": "broken", "version": "1.0.0", "hash": "0" * 16}]})
    statuses = {u.id: (u.status, u.detail) for u in R2.catalogue_for(pinned).houses}
    assert statuses["wolfen-of-yllia"][0] == "ok" and statuses["broken"][0] == "unusable" and "version" in statuses["broken"][1]
