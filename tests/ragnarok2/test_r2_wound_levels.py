"""The one Wound-level rule (systems/ragnarok2/health.py), source by source against the seeds.

The generic rules' *Health status* gives Size and Incarnate; the FAQ's *Fighter wound
racks* gives warrior-mage and warrior-monk Characters one more level, once.  Every
figure below is read from the seeds' text, and every place that counts Wound levels
(sheets, cards, roster, the editor's detail pane, the engine) must agree with the rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from seed_texts import SEEDS, seed_text

from armybuilder.core.lists import list_fingerprint, load_list
from armybuilder.core.system import EntryRef
from armybuilder.systems.ragnarok2 import SYSTEM
from armybuilder.systems.ragnarok2.engine import tables as engine_tables
from armybuilder.systems.ragnarok2.health import wound_level_reasons, wound_levels

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds are not beside the checkout")
GENERIC = seed_text("ragnarok2-generic-rules.txt")
FAQ = seed_text("ragnarok-faq.txt")


@pytest.fixture(scope="module")
def cat():
    return SYSTEM.catalogue()


def _health_status() -> dict[str, int]:
    """The seed's three lines under HEALTH STATUS: "All Short and Medium Size troops: 1;" ..."""
    section = GENERIC.split("HEALTH STATUS", 1)[1].split("POWER", 1)[0]
    return {m[1].strip(): int(m[2]) for m in re.finditer(r"- All (.+?): (\d+)[;.]", section)}


def _profile(cat, **where):
    return next(p for p in cat.data.profiles if all(getattr(p, k) == v for k, v in where.items() if k != "roles") and set(where.get("roles", ())) <= set(p.roles))


def _plain_troop(cat, size):
    return next(
        p for p in cat.data.profiles
        if p.size == size and not p.has_role("character") and not any(p.has_role(s) or p.has_ability(s) for s in ("warrior-mage", "warrior-monk"))
    )


def test_size_gives_the_seeds_wound_levels(cat):
    seed = _health_status()
    short_medium, large = seed["Short and Medium Size troops"], seed["Large Size troops or above"]
    assert (short_medium, large) == (1, 2)
    for size, expected in (("small", short_medium), ("medium", short_medium), ("large", large), ("enormous", large)):
        troop = _plain_troop(cat, size) if size != "enormous" else _profile(cat, size="enormous")
        assert wound_levels(cat.data.tables, troop) == expected, troop.id


def test_incarnate_characters_have_the_seeds_four_whatever_their_size(cat):
    incarnate = _health_status()["Incarnate Characters"]
    assert incarnate == 4
    for size in ("medium", "large"):
        p = next(p for p in cat.data.profiles if p.has_role("incarnate") and p.size == size and not any(p.has_role(s) for s in ("warrior-mage", "warrior-monk")))
        assert wound_levels(cat.data.tables, p) == incarnate, p.id


def test_warrior_mage_and_warrior_monk_characters_have_the_faqs_extra_level_once(cat):
    rack = FAQ.split("Fighter Wound Racks", 1)[1][:900]
    extra = int(re.search(r"sustain (\d+) more Wound", rack)[1])
    assert extra == 1 and "only benefits from one additional wound level" in rack
    tables = cat.data.tables
    characters = [p for p in cat.data.profiles if p.has_role("character") and any(p.has_role(s) or p.has_ability(s) for s in ("warrior-mage", "warrior-monk"))]
    assert len(characters) == 24  # the catalogue's warrior-mage and warrior-monk Characters
    for p in characters:
        base = tables.incarnate_wound_levels if p.has_role("incarnate") else next(s.wound_levels for s in tables.sizes if s.size == p.size)
        assert wound_levels(tables, p) == base + extra, p.id
    # both skills: still one level more
    sered = cat.get("profiles", "akkylannie-sered-templar-commander")
    both = sered.model_copy(update={"roles": [*sered.roles, "warrior-mage"], "abilities": [*sered.abilities, "warrior-mage"]})
    assert wound_levels(tables, both) == wound_levels(tables, sered) == 2
    # the FAQ's worked figure: a Large warrior-mage Character of four levels falls at the fifth Wound
    large = next(p for p in cat.data.profiles if p.has_role("incarnate") and p.size == "large")
    mage = large.model_copy(update={"roles": [*large.roles, "warrior-mage"]})
    assert "you must therefore inflict 5 Wounds" in rack and wound_levels(tables, mage) == 5
    # a troop (not a Character) with the skill keeps its Size's level
    troop = next(p for p in cat.data.profiles if not p.has_role("character") and p.has_role("warrior-mage"))
    assert wound_levels(tables, troop) == next(s.wound_levels for s in tables.sizes if s.size == troop.size)


def test_the_engine_counts_with_the_same_rule(cat):
    for p in cat.data.profiles:
        assert engine_tables.wound_levels(cat.data, p) == wound_levels(cat.data.tables, p), p.id


def test_cards_roster_and_detail_pane_show_the_rule():
    lf = load_list(Path("catalog/ragnarok2/samples/akkylannie-griffin-crusade.yaml"))
    cat = SYSTEM.catalogue_for(lf.army)
    sered = cat.get("profiles", "akkylannie-sered-templar-commander")
    card = next(c for c in SYSTEM.cards(lf.army, cat) if c.title == sered.name)
    assert "2 Wound levels" in card.subtitle and dict(card.stats)["WL"] == "2"
    roster = SYSTEM.roster(lf.army, cat, list_fingerprint(lf.army, cat))
    table = next(b for b in roster.blocks if hasattr(b, "rows") and any(r[0].startswith(sered.name) for r in b.rows))
    row = next(r for r in table.rows if r[0].startswith(sered.name))
    assert row[table.columns.index("WL")] == "2"
    detail = SYSTEM.detail(cat, EntryRef("profiles", sered.id))
    assert dict(detail.stats)["WL"] == "2"
    reasons = dict(detail.sections)["Wound levels"]
    assert reasons.startswith("2: ") and "warrior-monk Character: +1 (FAQ: II.3" in reasons
    assert wound_level_reasons(cat.data.tables, sered)[0].startswith("Medium Size: 1")


def test_the_sheets_print_all_three_sources(cat):
    sheets = SYSTEM.sheets(cat)
    table = next(b for b in sheets.blocks if hasattr(b, "columns") and "Wound levels" in b.columns)
    rows = {r[0]: r[2] for r in table.rows}
    assert rows["Medium"] == "1" and rows["Large"] == "2" and rows["Incarnate Character"] == "4"
    assert rows["Warrior-mage or warrior-monk Character"].startswith("+1")
