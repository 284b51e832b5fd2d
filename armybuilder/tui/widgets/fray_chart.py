"""One direction of the fray view as text: the headline figures and the "at least k" chart.

Why apart from the widget: it is a pure function of the fray payload (the JSON of
``armybuilder odds ragnarok2 --fray``, see docs/commands.md) and of a width, so tests can read the
numbers it shows and check that no line is wider than the panel at 80 and 120 columns.

Every name in it comes from a list file: names are made visible (control characters
escaped) and placed in a Rich ``Text``, never parsed as markup, and cut to their column
with an ellipsis (measured in terminal cells, so wide characters do not break the columns).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text

from armybuilder.core.sanitize import visible

from ..cut import cut_words

#: the figures of one side: fighters, P(rout), mean fighters lost, mean A.P. lost
COLUMNS = (("fighters", 9), ("routs", 8), ("mean lost", 10), ("A.P. lost", 10))
COMPACT = (("size", 5), ("routs", 7), ("lost", 6), ("A.P.", 7))  # under 48 cells
MIN_BAR, MAX_BAR = 6, 30
NAME_CELLS = 26  # names wider than this are cut (the figures stay near their name)
LIKELIEST = 5  # rows of the most likely results
SHOWN_TAIL = 0.0005  # rows of the chart stop once both sides' P(at least k) is below 0.05 %


def fit(text: str, cells: int) -> str:
    """``text`` made exactly ``cells`` wide: padded, or cut with an ellipsis."""
    if cells <= 0:
        return ""
    if cell_len(text) <= cells:
        return text + " " * (cells - cell_len(text))
    cut = cut_words(text, cells)
    return cut + " " * (cells - cell_len(cut))


def wrapped(text: str, cells: int) -> str:
    """``text`` on as many lines of ``cells`` as it needs, broken between words (a title
    names two units and whether one charges: every word of it counts)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, max(cells, 10), break_on_hyphens=False)) or text


def pct(p: float) -> str:
    """A probability as ``" 60.0%"``: six cells, at most ``100.0%``."""
    return f"{100 * max(0.0, min(1.0, p)):5.1f}%"


def bar_width(width: int) -> int:
    """Bar length so that ``"≥k  " + 2 × (bar + " 60.0%") + gap`` fits ``width`` cells."""
    return max(MIN_BAR, min(MAX_BAR, (width - 4 - 2 * 7 - 2) // 2))


def _bar(p: float, width: int, out: Text) -> None:
    filled = round(max(0.0, min(1.0, p)) * width)
    out.append("█" * filled, style="green")
    out.append("·" * (width - filled), style="dim")
    out.append(" " + pct(p))


def fray_text(payload: dict[str, Any], title: str, mine: str, width: int) -> Text:
    """One direction of a fray, ``width`` cells wide at most.

    ``mine`` is ``"attacker"`` or ``"defender"``: which side of the payload is the player's
    unit, shown first in the table and on the left of the chart.
    """
    theirs = "defender" if mine == "attacker" else "attacker"
    sides = [payload[mine], payload[theirs]]
    names = [visible(str(s.get("unit", "?"))) for s in sides]
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    out.append(wrapped(visible(title), width) + "\n", style="bold")

    columns = COLUMNS if width >= 48 else COMPACT
    size, rout, lost, ap = (cells for _, cells in columns)
    name_cells = max(8, min(NAME_CELLS, width - size - rout - lost - ap))
    out.append(fit("", name_cells) + "".join(f"{label:>{cells}}" for label, cells in columns) + "\n", style="dim")
    for side, name in zip(sides, names, strict=True):
        out.append(fit(name, name_cells))
        out.append(f"{side.get('fighters', 0):>{size}}")
        out.append(f"{pct(float(side.get('p_rout', 0.0))):>{rout}}", style="bold")
        out.append(f"{float(side.get('expected_losses', 0.0)):>{lost}.2f}")
        out.append(f"{float(side.get('expected_ap_eliminated', 0.0)):>{ap}.1f}\n")
    for side, name in zip(sides, names, strict=True):
        for character in side.get("characters", []):
            label = f"{visible(str(character.get('name', '?')))} ({name})"
            cells = max(8, width - 7)
            line = fit(f"{label} falls", cells) if cell_len(label) + 6 <= cells else fit(label, cells - 6) + " falls"
            out.append(line + " " + pct(float(character.get("p_falls", 0.0))) + "\n")
    fought = [float(p) for p in payload.get("implacable_combats", [])]
    for r, p in enumerate(fought, 1):  # the Implacable combats after the outcome (their losses are above)
        label = "Implacable combat fought" + ("" if len(fought) == 1 else f", round {r}")
        out.append(fit(label, max(8, width - 7)) + " " + pct(p) + "\n")

    bar = bar_width(width)
    block = bar + 7
    out.append("\n")
    out.append("at least k fighters lost\n", style="bold")
    out.append("    " + fit(names[0], block) + "  " + fit(names[1], block).rstrip() + "\n", style="dim")
    tails = [list(map(float, side.get("at_least", [1.0]))) for side in sides]
    for k in range(1, max(len(t) for t in tails)):
        shown = [t[k] if k < len(t) else 0.0 for t in tails]
        if k > 1 and max(shown) < SHOWN_TAIL:
            break
        out.append(f"≥{k:<3}", style="dim")
        for i, t in enumerate(tails):
            if i:
                out.append("  ")
            if k < len(t):
                _bar(t[k], bar, out)
            else:
                out.append(" " * block)
        out.rstrip()
        out.append("\n")
    if max(len(t) for t in tails) <= 1:
        out.append("no fighter to lose\n", style="dim")
    _likeliest(payload.get("joint_losses", []), mine, names, width, out)
    out.append("\n")
    out.append(fit("routs: chance the unit routs; mean lost, A.P. lost:", width).rstrip() + "\n", style="dim")
    out.append(fit("expected fighters and A.P. lost, rout included", width).rstrip(), style="dim")
    return out


def _likeliest(joint: list[dict[str, Any]], mine: str, names: list[str], width: int, out: Text, rows: int = LIKELIEST) -> None:
    """The most likely pairs (my losses, theirs) of the joint distribution, most likely first."""
    theirs = "defender" if mine == "attacker" else "attacker"
    best = sorted(joint, key=lambda cell: -float(cell.get("p", 0.0)))[:rows]
    if not best:
        return
    cells = max(6, min(22, (width - 10) // 2))
    out.append("\n")
    out.append("most likely results (fighters lost)\n", style="bold")
    out.append(fit(names[0], cells) + "  " + fit(names[1], cells) + "  chance\n", style="dim")
    for cell in best:
        mine_lost, their_lost = int(cell.get(mine, 0)), int(cell.get(theirs, 0))
        out.append(f"  {mine_lost:<{cells - 2}}    {their_lost:<{cells - 2}}  {pct(float(cell.get('p', 0.0)))}\n")


__all__ = ["bar_width", "fit", "fray_text", "pct"]
