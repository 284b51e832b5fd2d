"""Cards a player can play from: every characteristic, every effect, sizes readable at the table."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from armybuilder.core.lists import load_list
from armybuilder.core.system import Roster
from armybuilder.pdf.roster import render_roster

SAMPLES = {p.stem: p for p in Path("catalog").glob("*/samples/*.yaml")}


def _cards(stem: str):
    lf = load_list(SAMPLES[stem])
    return lf, lf.system.cards(lf.army, lf.system.catalogue_for(lf.army))


def _card(cards, title: str):
    return next(c for c in cards if c.title == title)


def _text(card) -> str:
    return " ".join(f"{h}. {b}" for h, b in card.text) + " " + card.subtitle + " " + " ".join(f"{k} {v}" for k, v in card.stats)


def test_r2_cards_carry_mystic_and_health_characteristics_and_their_units():
    _, cards = _cards("alahan-lions")
    sardar = _text(_card(cards, "Sardar the pure"))
    assert "Element: Light" in sardar and "path: Hermetism" in sardar and "initiation rank 1" in sardar
    assert "1 Wound level" in sardar and "unit 3, Archers" in sardar
    valdenar = _text(_card(cards, "Valdenar, prince of Doriman"))
    assert "aura reaches 15 cm" in valdenar and " X cm" not in valdenar  # the placeholder filled in
    _, cards = _cards("akkylannie-griffin-crusade")
    chaplain = _text(_card(cards, "Chaplain of the temple"))
    assert "Aspects: Alteration" in chaplain and "cult:" in chaplain and "faith rank:" in chaplain


def test_r2_effects_not_in_the_seeds_are_marked_and_sources_are_short():
    _, cards = _cards("alahan-lions")
    agonn = _card(cards, "Agonn the ardent (2nd)")
    fencer = dict(agonn.text)["Fencer"]
    assert fencer.startswith("Effect not in the seeds")
    for card in cards:
        assert ".cat" not in card.footer and "line " not in card.footer


def test_ritual_and_communion_cards_are_complete():
    _, cards = _cards("alahan-lions")
    ritual = next(c for c in cards if c.kind == "ritual")
    assert dict(ritual.text)["Target"] and {"Mana", "Diff.", "Range", "Duration", "Power"} <= dict(ritual.stats).keys()
    _, cards = _cards("akkylannie-griffin-crusade")
    communion = next(c for c in cards if c.kind == "communion")
    assert "Target" in dict(communion.text) and "Effect" in dict(communion.text)


def test_steam_cannon_strength_is_not_contradicted():
    _, cards = _cards("tir-na-bor-plains-guard")
    bombardier = next(c for c in cards if c.title.startswith("Dwarf bombardier"))
    heading, body = next((h, b) for h, b in bombardier.text if h.startswith("Ranged weapon"))
    assert heading == "Ranged weapon: Steam cannon" and body.startswith("STR 10+2d6;")


def test_morpheus_cards_print_size_shields_and_filled_values():
    _, cards = _cards("ravens-of-hrafnsey")
    jarl = cards[0]
    stats = dict(jarl.stats)
    assert stats["SIZE"] == "2" and "Warrior 1" in jarl.subtitle
    shield = dict(jarl.text)["Shield: Shield"]
    assert "Size against Overwhelm" in shield and "shields" not in shield
    _, cards = _cards("wolves-of-the-fjord")
    tactician = next(b for c in cards for h, b in c.text if h.startswith("Tactician"))
    assert "(x)" not in tactician
    power = next(c for c in cards if c.kind == "god-power")
    assert "Godspark" in dict(power.stats)


def _sizes(data: bytes, skip: int) -> list[tuple[float, str]]:
    out: list[tuple[float, str]] = []
    for page in PdfReader(io.BytesIO(data)).pages[skip:]:

        def visit(text, cm, tm, font, size):
            if text.strip():
                out.append((round(size * abs(tm[3]) * abs(cm[3]), 2), text.strip()))

        page.extract_text(visitor_text=visit)
    return out


@pytest.mark.parametrize("stem", sorted(SAMPLES))
@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_no_card_text_is_printed_smaller_than_six_and_a_half_points(stem, paper):
    _, cards = _cards(stem)
    data = render_roster(Roster("cards only", (), True, (), ()), cards, paper)
    sizes = [s for s, text in _sizes(data, skip=1) if not text.startswith("Page ")]  # the page footer is 7 pt
    # Letter shrinks the faces by a few per cent; the body text is set at 7 pt or more
    floor = 6.5 * (0.93 if paper == "Letter" else 1.0)
    assert min(sizes) >= floor - 0.01, sorted(set(sizes))[:5]
