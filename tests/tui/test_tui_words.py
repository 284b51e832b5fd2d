"""The words the editor shows: no raw values (None, True, False), "an Atgeir", "1 unit",
and names cut with an ellipsis in the tree rather than cropped bare."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from armybuilder.core.checks import a_or_an
from armybuilder.core.lists import parse_list
from armybuilder.core.registry import get_system
from armybuilder.core.system import OutlineNode
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.session import open_file
from armybuilder.tui.widgets.panels import ListTree, node_label

RAW = re.compile(r"(?<![\w-])(None|True|False)(?![\w-])")
A_BEFORE_VOWEL = re.compile(r"(?<![\w'])[aA] (?=[AEIOUaeiou]\w)(?!u[ns][ie]|use|one|Euro)")
ONE_PLURAL = re.compile(r"(?<![\d.,+])\b1 (?!A\.P\.|is\b|was\b|has\b)([a-z]+s)\b")


def _bad(text: str) -> str:
    for rx, what in ((RAW, "a raw value"), (A_BEFORE_VOWEL, "'a' before a vowel"), (ONE_PLURAL, "1 with a plural")):
        if rx.search(text):
            return what
    return ""


def _walk(nodes):
    for n in nodes:
        yield n
        yield from _walk(n.children)


@pytest.mark.parametrize("system_id", ["ragnarok2", "rattle-and-rend", "morpheus-ragnarok"])
def test_program_words_of_every_system(system_id):
    system = get_system(system_id)
    cat = system.catalogue()
    problems = []

    def check(where: str, text: str) -> None:
        what = _bad(text)
        if what:
            problems.append(f"{where}: {what}: {text[:120]!r}")

    for e in system.browse(cat):
        d = system.detail(cat, e.ref)
        check(f"detail {e.ref.id}", f"{d.subtitle} | {d.cost}")
        for label, value in d.stats:
            check(f"stat {e.ref.id}", f"{label} {value}")
        for heading, _ in d.sections:
            check(f"section {e.ref.id}", heading)
    for name, item in system.source.samples():
        army = parse_list(item.read_text(encoding="utf-8"), name).army
        c = system.catalogue_for(army)
        # lists of one: "1 unit", not "1 units"
        for field in ("units", "groups", "warriors", "tactics"):
            if getattr(army, field, None):
                army = army.model_copy(update={field: getattr(army, field)[:1]})
        for st in system.status(army, c):
            check("status", f"{st.label} {st.value}")
        for f in system.validate(army, c):
            check(f"finding {f.rule}", f.message)
        nodes = list(_walk(system.outline(army, c)))
        for path in [""] + [n.path for n in nodes]:
            for a in system.actions(army, c, path):
                check(f"edit {a.id}", a.label)
                for p in a.params:
                    check(f"field {a.id}", f"{p.label} {p.help}")
                    for ch in p.choices:
                        check(f"choice of {a.id}", f"{ch.detail} | {ch.refused}")
        for n in nodes:
            check("tree", f"{n.detail}")
    assert not problems, "\n".join(problems[:20])


def test_a_or_an():
    assert a_or_an("Atgeir") == "an Atgeir"
    assert a_or_an("spear") == "a spear"
    assert a_or_an("unit") == "a unit" and a_or_an("Elite guard") == "an Elite guard"


def test_node_label_cuts_the_name_with_an_ellipsis_and_keeps_the_cost():
    node = OutlineNode("units[3].members[0]", "Kal-Nur, Hammer of the Deep King", "character", 120, None, ())
    label = node_label(node, 24).plain
    assert label.startswith("Kal-Nur, Hammer") and "…" in label and label.endswith("120")
    assert len(label) <= 24
    assert node_label(node).plain == "Kal-Nur, Hammer of the Deep King  120  character"  # room enough: whole


LIST = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.1.0
format: 1000-ap
name: Dawn patrol
people: lions
units:
  - name: The very long name of a unit that no terminal of eighty columns can show whole
    troops: {profile: spearman, count: 10}
"""


async def test_tree_shows_an_ellipsis_at_80_columns(r2, store, tmp_path: Path):
    path = tmp_path / "dawn.yaml"
    path.write_text(LIST, encoding="utf-8")
    app = ArmyBuilderApp(open_file(path, store), store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tree = app.screen.query_one(ListTree)
        lines = [tree.render_line(y).text for y in range(tree.size.height)]
        long = next(line for line in lines if "The very long" in line)
        assert "…" in long and "eighty columns can show whole" not in long
        assert all(line.rstrip() == line.rstrip()[: tree.size.width] for line in lines)


def test_a_troop_option_is_named_in_the_tree_not_by_its_id():
    system = get_system("ragnarok2")
    cat = system.catalogue()
    troops = next(p for p in cat.data.profiles if p.options and not p.has_role("character") and p.people == "abyss")
    option = troops.options[0]
    text = f"""\
armybuilder: 1
system: ragnarok2
catalogue: {cat.version}
format: 1000-ap
name: Options
people: abyss
units:
  - troops: {{profile: {troops.id}, count: 3, options: [{option.id}]}}
"""
    army = parse_list(text).army
    (units, *_rest) = system.outline(army, cat)
    (troop_line,) = units.children[0].children
    assert option.name in troop_line.detail and option.id not in troop_line.detail.split(", ")
