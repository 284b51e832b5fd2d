"""The shipped Rag'Narok 2 catalogue: its figures against the seeds and rules decisions.

These tests read the real ``catalog/ragnarok2`` folder (not the synthetic catalogue of
conftest.py), so a wrong figure, a lost people or a broken erratum shows up here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from seed_texts import SEEDS

from armybuilder.core.catalog import CatalogueSource, catalog_root, diff
from armybuilder.systems.ragnarok2.catalog import TACTIC_EFFECT_KEYS, R2Catalog
from armybuilder.systems.ragnarok2.engine.dice import R2_D1_COLUMNS

ROOT = Path(__file__).resolve().parents[2]

#: Every people of the seed's alliance tables, its alliance and its formation as the table
#: prints it, then as R2-D4 decides (the prose wins for Tir-Nâ-Bor and No-Dan-Kar).
SEED_PEOPLES = {
    "alahan": ("The Kingdom of Alahan", "Ways of Light", "close", "close"),
    "akkylannie": ("The Empire of Akkylannie", "Ways of Light", "close", "close"),
    "lanever": ("The Republic of Lanever", "Ways of Light", "close", "close"),
    "avagddu": ("The Barbarians of Avagddu", "Ways of Light", "scattered", "scattered"),
    "sphinx": ("The Utopia of the Sphinx", "Ways of Light", "close", "close"),
    "acheron": ("The Limbos of Acheron", "Meanders of Darkness", "scattered", "scattered"),
    "syharhalna": ("The Empire of Syharhalna", "Meanders of Darkness", "close", "close"),
    "ashinan": ("The Web of Ashinân", "Meanders of Darkness", "scattered", "scattered"),
    "caer-maed": ("The Seers of Caer Maed", "Meanders of Darkness", "scattered", "scattered"),
    "abyss": ("The Possessed of the Abyss", "Meanders of Darkness", "close", "close"),
    "ophidian-alliance": (
        "The Ophidian Alliance",
        "Meanders of Darkness",
        "scattered",
        "scattered",
    ),
    "quithayran": ("The Guardians of Quithayran", "Paths of Destiny", "scattered", "scattered"),
    "bran-o-kor": ("The Braves of Bran-Ô-Kor", "Paths of Destiny", "scattered", "scattered"),
    "yllia": ("The Children of Yllia", "Paths of Destiny", "scattered", "scattered"),
    "tir-na-bor": ("The Defenders of Tir-Nâ-Bor", "Paths of Destiny", "scattered", "close"),
    "no-dan-kar": ("The Rats of No-Dan-Kar", "Paths of Destiny", "scattered", "close"),
    "beast": ("The Disciples of the Beast", "Paths of Destiny", "scattered", "scattered"),
    "eagle": ("The Concord of the Eagle", "Paths of Destiny", "scattered", "scattered"),
    "behemoth": ("The Tribe of the Behemoth", "Paths of Destiny", "scattered", "scattered"),
}

#: Abilities (generic rules seed) and mystic skills (mystics seed) the seeds define.
SEED_ABILITIES = {
    "assault-fire", "born-killer", "bravery", "brutal", "brutish-charge", "concentration",
    "consciousness", "counter-attack", "fanaticism", "fierce", "hard-boiled", "implacable",
    "leadership", "living-dead", "master-strike", "mutagenic", "possessed", "regeneration",
    "reinforcement", "righteous", "scout", "sequence", "survival-instinct",
    "devotion", "spirit-of", "exalted", "loyal", "focus", "warrior-mage", "iconoclast",
    "illuminated", "insensitive", "arcane-mastery", "martyr", "warrior-monk", "piety",
    "recuperation", "thaumaturge",
}  # fmt: skip

SKULL_WARRIOR_HORNS = "horns-of-damnation"


@pytest.fixture(scope="module")
def shipped() -> CatalogueSource:
    return CatalogueSource("ragnarok2", R2Catalog, catalog_root() / "ragnarok2")


@pytest.fixture(scope="module")
def v100(shipped):
    return shipped.resolve("1.0.0")


@pytest.fixture(scope="module")
def v110(shipped):
    return shipped.resolve("1.1.0")


# --------------------------------------------------------------------------- versions


def test_both_versions_load_with_different_hashes(shipped, v100, v110):
    assert [v.version for v in shipped.versions()][:2] == ["1.0.0", "1.1.0"]
    assert shipped.manifest.id == "ragnarok2" and shipped.manifest.system == "ragnarok2"
    assert v100.hash != v110.hash
    assert v110.version == "1.1.0" and [h.version for h in v110.history][:2] == ["1.0.0", "1.1.0"]


def test_every_erratum_operation_cites_a_source(shipped):
    for _rel, erratum in shipped.errata:
        assert erratum.source
        for op in erratum.operations:
            assert op.note, f"{erratum.version}: {op.op} {op.path} has no source note"


def test_catalogue_check_finds_no_dangling_reference_nor_duplicate(shipped):
    for version in ("1.0.0", "1.1.0"):
        assert [str(p) for p in shipped.check(version)] == []


# --------------------------------------------------------------------------- tables


def test_contest_table_is_r2_d1_and_provisional(v100):
    contest = v100.data.tables.contest
    assert contest is not None and contest.provisional and contest.decision == "R2-D1"
    assert len(contest.columns) == 9
    assert [c.result for c in contest.columns] == [
        "6*",
        "6",
        "5+",
        "4+",
        "3+",
        "2+",
        "2+/5",
        "2+/4",
        "2+/3",
    ]
    bounds = [(c.low, c.high) for c in contest.columns]
    assert bounds == [
        (None, -13),
        (-12, -8),
        (-7, -4),
        (-3, -2),
        (-1, 1),
        (2, 3),
        (4, 7),
        (8, 12),
        (13, None),
    ]
    # The data and the engine's default reconstruction agree die for die.
    engine = [(c.success, c.reroll_from, c.halved) for c in R2_D1_COLUMNS]
    assert [(c.success, c.reroll_from, c.halved) for c in contest.columns] == engine


def test_contest_columns_cover_every_difference_once(v100):
    columns = v100.data.tables.contest.columns
    for difference in range(-40, 41):
        hits = [
            c
            for c in columns
            if (c.low is None or c.low <= difference) and (c.high is None or difference <= c.high)
        ]
        assert len(hits) == 1, difference


def test_tactical_table_figures(v100):
    table = v100.data.tables.tactical
    assert table.tactic_cost == 2 and table.per_complete_war_staff == 1
    rows = {r.label: r.points for r in table.rows}
    assert rows == {
        "Failure": [0, 1, 2, 3],
        "1-5": [1, 3, 5, 7],
        "6-10": [2, 4, 6, 8],
        "11-15": [3, 5, 7, 9],
        "16-20": [4, 6, 8, 10],
        "21+": [5, 7, 9, 11],
    }


def test_army_scheme_figures(v100):
    scheme = v100.data.tables.army_scheme
    assert scheme.decision == "R2-D3" and scheme.solo_unit_cost == 50
    rows = {r.category: (tuple(r.regiment), tuple(r.horde)) for r in scheme.rows}
    assert rows == {
        "army-corps": ((5, 20), (3, 12)),
        "shock-troops": ((3, 12), (1, 6)),
        "support": ((1, 10), (1, 6)),
    }


def test_ranks_map_to_the_scheme(v100):
    ranks = {r.id: (r.category, r.scheme) for r in v100.data.ranks}
    assert ranks == {
        "irregular": (1, "support"),
        "regular": (1, "army-corps"),
        "veteran": (2, "army-corps"),
        "creature": (2, "support"),
        "elite": (3, "shock-troops"),
        "special": (3, "shock-troops"),
        "living-legend": (4, None),
        "major-ally": (4, None),
    }


def test_power_wound_levels_fray_and_fear_tables(v100):
    t = v100.data.tables
    assert {s.size: (s.power, s.wound_levels) for s in t.sizes} == {
        "small": (1, 1), "medium": (1, 1), "large": (2, 2),
        "enormous": (3, 2), "colossal": (4, 2), "gigantic": (5, 2),
    }  # fmt: skip
    assert t.incarnate_wound_levels == 4
    assert [(r.ratio, r.value) for r in t.outcome_of_fray] == [
        (3, 4),
        (2, 6),
        (1, 8),
        (-2, 10),
        (-3, 12),
    ]
    assert [(r.ratio, r.value) for r in t.fear_balance] == [
        (3, 3),
        (2, 2),
        (1, 0),
        (-2, -2),
        (-3, -3),
    ]


def test_shooting_movement_orders_and_phases(v100):
    t = v100.data.tables
    assert {r.band: r.difficulty for r in t.shooting.ranges} == {
        "short": 4,
        "medium": 7,
        "long": 10,
    }
    assert sorted(m.modifier for m in t.shooting.modifiers) == [-2, -1, 1, 1, 2]
    assert {m.action: m.multiplier for m in t.movement} == {
        "March": 1,
        "Run": 2,
        "Engagement": 2,
        "Charge": 2,
    }
    actions = {o.id: [a.id for a in o.actions] for o in t.orders}
    assert actions["progress"] == ["stationary", "march", "run", "disengagement"]
    assert actions["assault"] == ["charge", "engagement"]
    assert set(actions["reaction"]) >= {
        "counter-charge",
        "withstand-charge",
        "retreat",
        "counter-magic",
        "censure",
    }
    assert [p.id for p in t.phases] == [
        "strategic",
        "activation",
        "combat",
        "mystic",
        "maintenance",
        "time-out",
    ]
    assert t.faith_recovery == {"devout": 1, "zealot": 2, "dean": 3, "avatar": 4}


def test_every_table_names_its_source(v100):
    t = v100.data.tables
    for name in ("contest", "tactical", "army_scheme", "shooting"):
        assert getattr(t, name).source.startswith(("seed", "mystics seed")), name
    for name, value in t:
        if (
            isinstance(value, list)
            and value
            or isinstance(value, dict)
            and value
            and name != "sources"
        ):
            assert t.sources.get(name), f"tables.{name} has no source"


def test_formats_carry_the_shares_of_r2_d7(v100):
    formats = {f.id: f for f in v100.data.formats}
    assert {k: f.limit for k, f in formats.items()} == {
        "1000-ap": 1000,
        "1500-ap": 1500,
        "2000-ap": 2000,
    }
    assert [f.id for f in v100.data.formats if f.default] == ["1000-ap"]
    assert all(f.character_share == 50 and f.war_machine_share == 25 for f in formats.values())


# --------------------------------------------------------------------------- peoples


def test_every_people_of_the_seed_exists_with_its_formation(v100, v110):
    for cat, column in ((v100, 2), (v110, 3)):
        for people_id, expected in SEED_PEOPLES.items():
            people = cat.get("peoples", people_id)
            assert people is not None, people_id
            assert (people.name, people.alliance) == expected[:2]
            assert people.formation == expected[column], (cat.version, people_id)
    militia = v110.get("peoples", "cadwallon-militia")
    assert militia is not None and militia.formation == "close"


def test_formation_conflict_is_recorded_as_note_and_decision(v100):
    assert any("Tir-Nâ-Bor" in n and "No-Dan-Kar" in n and "R2-D4" in n for n in v100.data.notes)
    decision = v100.get("decisions", "R2-D4")
    assert decision is not None and "Tir-Nâ-Bor" in decision.summary


def test_erratum_1_1_0_changes_only_what_it_says(v100, v110):
    changes = {(c.collection, c.entry, c.field or c.kind) for c in diff(v100.raw, v110.raw)}
    assert ("peoples", "tir-na-bor", "formation") in changes
    assert ("peoples", "no-dan-kar", "formation") in changes
    assert ("restrictions", "battle-toad", "added") in changes
    touched = {(collection, entry) for collection, entry, _ in changes}
    assert {c for c, _ in touched} <= {"peoples", "restrictions", "profiles"}


# --------------------------------------------------------------------------- FAQ errata


def test_battle_toad_never_leads_from_1_1_0(v100, v110):
    assert v100.get("restrictions", "battle-toad") is None
    toad = v110.get("restrictions", "battle-toad")
    assert toad is not None and toad.can_lead is False and toad.slot == "independent"
    assert "FAQ" in toad.source


def _skull_warriors(cat):
    return [
        p for p in cat.data.profiles if p.people == "acheron" and "crane warrior" in p.name.lower()
    ]


def test_horns_of_damnation_cost_17_for_skull_warriors_from_1_1_0(v100, v110):
    """FAQ XX.2: any skull warrior (crane warrior in the English reference data) may take the Horns
    of Damnation for 17 A.P. more."""
    warriors = _skull_warriors(v110)
    assert warriors, "the Acheron profiles have no skull (crane) warrior"
    for p in warriors:
        horns = [o for o in p.options if o.id == SKULL_WARRIOR_HORNS]
        assert [o.cost for o in horns] == [17], p.id
        before = v100.get("profiles", p.id)
        assert all(o.cost != 17 for o in before.options if o.id == SKULL_WARRIOR_HORNS)


def test_the_formation_erratum_changes_what_a_tir_na_bor_unit_may_hold(v100, v110):
    """Four dwarves are a legal army-corps horde at 1.0.0 (3-12) but too few for a regiment at 1.1.0 (5-20)."""
    from armybuilder.systems.ragnarok2.army import R2List, Troops, Unit
    from armybuilder.systems.ragnarok2.rules import run_rules

    boors = next(
        p.id
        for p in v110.data.profiles
        if p.people == "tir-na-bor" and p.rank == "regular" and not p.roles
    )

    def effective_findings(cat):
        army = R2List(
            catalogue=cat.version,
            format="1000-ap",
            name="t",
            people="tir-na-bor",
            units=[Unit(troops=Troops(profile=boors, count=4))],
        )
        return [f.message for f in run_rules(army, cat) if f.rule == "ragnarok2.unit.effective"]

    assert effective_findings(v100) == []
    (message,) = effective_findings(v110)
    assert "5 to 20" in message


def test_the_horns_of_damnation_add_17_points_to_a_skull_warrior(v110):
    from armybuilder.systems.ragnarok2.army import Member, member_cost

    warrior = _skull_warriors(v110)[0]
    plain = member_cost(v110, Member(profile=warrior.id))
    horned = member_cost(v110, Member(profile=warrior.id, options=[SKULL_WARRIOR_HORNS]))
    assert (plain, horned - plain) == (warrior.cost, 17)


# --------------------------------------------------------------------------- mystics, tactics


def test_six_rituals_and_six_communions_with_their_figures(v100):
    rituals = {r.id: (r.element, r.mana, r.difficulty, r.power) for r in v100.data.rituals}
    assert rituals == {
        "column-of-light": ("Light", 10, 10, 10),
        "downpour": ("Water", 13, 10, 20),
        "igneous-galvanisation": ("Fire", 5, 6, 14),
        "telluric-manipulation": ("Earth", 10, 10, 10),
        "teleportation": ("Air", 10, 10, 10),
        "terror": ("Darkness", 15, 12, 15),
    }
    communions = {
        c.id: (c.cult, c.fervor, tuple(c.aspects), c.difficulty, c.power)
        for c in v100.data.communions
    }
    assert communions == {
        "divine-anger": ("Universal", 15, ("destruction",), 10, 21),
        "divine-grace": ("Universal", 10, ("alteration",), 8, 16),
        "divine-hospice": ("Universal", 10, ("creation",), 8, 10),
        "divine-arsenal": ("Light", 10, ("creation", "destruction"), 6, 19),
        "oracle-of-destiny": ("Destiny", 13, ("alteration",), 8, 15),
        "weakness": ("Darkness", 10, ("destruction",), 8, 16),
    }


def test_four_provisional_tactics_with_simulator_effects(v100):
    tactics = {t.id: t for t in v100.data.tactics}
    assert set(tactics) == {"brutality", "change-of-plans", "rallying", "unfailing-wall"}
    for t in tactics.values():
        assert t.provisional and t.decision == "R2-D9"
        assert t.condition and t.pros and t.cons
        assert t.effects and set(t.effects) <= set(TACTIC_EFFECT_KEYS)
        assert sum(t.effects.values()) > 0, "pros help the unit"
        assert sum(t.cons_effects.values()) < 0, "cons hurt it"
    assert (
        tactics["unfailing-wall"].formation == "close"
        and tactics["unfailing-wall"].min_effective == 5
    )


def test_misspelt_tactic_effect_is_refused():
    with pytest.raises(ValidationError, match="atack_shift"):
        R2Catalog.model_validate(
            {
                "tactics": [
                    {
                        "id": "x",
                        "name": "X",
                        "condition": "c",
                        "pros": "p",
                        "cons": "c",
                        "effects": {"atack_shift": 1},
                    }
                ]
            }
        )


def test_provisional_decisions_match_the_provisional_data(v100):
    provisional = {d.id for d in v100.data.decisions if d.provisional}
    assert provisional == {"R2-D1", "R2-D9", "R2-C1", "R2-C2"}
    readings = {a.decision for a in v100.data.abilities if a.provisional}
    assert readings == {"R2-C2"}  # every provisional ability names its decision


# --------------------------------------------------------------------------- glossary


def test_every_seed_ability_and_mystic_skill_has_a_glossary_entry(v100):
    abilities = {a.id: a for a in v100.data.abilities}
    assert SEED_ABILITIES <= set(abilities)
    for ability_id in SEED_ABILITIES:
        entry = abilities[ability_id]
        assert entry.source.startswith(("seed:", "mystics seed:")), ability_id
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", entry.text.strip()) if s]
        assert 1 <= len(sentences) <= 3, ability_id


def _shingles(text: str, n: int = 7) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seeds are not beside the checkout")
@pytest.mark.parametrize("version", ["1.0.0", "1.1.0"])
def test_rule_texts_are_in_our_own_words(shipped, version):
    """No summary, table text, decision, note or erratum text repeats seven words in a row of the seeds."""
    v100 = shipped.resolve(version)
    seeds = set()
    for path in SEEDS.glob("*.txt"):
        seeds |= _shingles(path.read_text(encoding="utf-8"))
    texts = [(f"abilities[{a.id}]", a.text) for a in v100.data.abilities]
    texts += [(f"rituals[{r.id}]", r.text) for r in v100.data.rituals]
    texts += [(f"communions[{c.id}]", c.text) for c in v100.data.communions]
    texts += [(f"tactics[{t.id}]", f"{t.condition} {t.pros} {t.cons}") for t in v100.data.tactics]
    tables = v100.data.tables
    texts += [("tables.contest.rules", rule) for rule in tables.contest.rules]
    for order in tables.orders:
        texts.append((f"tables.orders[{order.id}]", order.text))
        texts += [
            (f"tables.orders[{order.id}][{a.id}]", f"{a.condition} {a.test} {a.text}")
            for a in order.actions
        ]
    texts += [(f"tables.phases[{p.id}]", " ".join(p.steps)) for p in tables.phases]
    texts += [(f"tables.mystic_rules[{r.id}]", " ".join([r.text, *r.steps])) for r in tables.mystic_rules]
    texts += [(f"decisions[{d.id}]", d.summary) for d in v100.data.decisions]
    texts += [(f"peoples[{p.id}]", p.note) for p in v100.data.peoples]
    texts += [("notes", note) for note in v100.data.notes]
    texts += [(f"restrictions[{r.id}]", r.text) for r in v100.data.restrictions]
    texts += [
        (f"profiles[{p.id}].options[{o.id}]", o.text)
        for p in _skull_warriors(v100)
        for o in p.options
    ]
    copied = [
        (where, sorted(" ".join(s) for s in _shingles(text) & seeds))
        for where, text in texts
        if _shingles(text) & seeds
    ]
    assert copied == []


# --------------------------------------------------------------------------- command line


def test_catalog_commands_on_the_shipped_catalogue(capsys):
    import json

    from armybuilder.cli import main

    assert main(["catalog", "versions", "ragnarok2", "--json"]) == 0
    versions = json.loads(capsys.readouterr().out)
    assert [v["version"] for v in versions][:2] == ["1.0.0", "1.1.0"]
    assert versions[0]["hash"] != versions[1]["hash"]

    assert main(["catalog", "show", "ragnarok2", "--version", "1.0.0", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["version"] == "1.0.0" and shown["hash"] == versions[0]["hash"]
    assert len(shown["data"]["tables"]["contest"]["columns"]) == 9

    assert main(["catalog", "diff", "ragnarok2", "1.0.0", "1.1.0", "--json"]) == 0
    diffed = json.loads(capsys.readouterr().out)
    assert {
        "collection": "peoples",
        "entry": "no-dan-kar",
        "kind": "changed",
        "field": "formation",
        "old": "scattered",
        "new": "close",
    } in diffed["changes"]
    (erratum,) = [e for e in diffed["errata"] if e["version"] == "1.1.0"]
    assert erratum["source"] and all(op["note"] for op in erratum["operations"])

    assert main(["catalog", "check", "ragnarok2"]) == 0
    out = capsys.readouterr().out
    assert "ragnarok2 1.0.0: ok" in out and "ragnarok2 1.1.0: ok" in out
