"""Do the players use what a war clan has? Every God power of the catalogue, and the abilities
whose use is a choice (Taunt, Healer, Tactician, Focus, Clash), each in a clan built around it,
played against the same clan whose player may not use it (``armybuilder bench --options``); and
each bundled sample with all its God powers against the same clan without them.

God powers cost no Glory: a clan should never do worse with them than without them, so the with
against without win rate's 95 % interval must hold 50 % or lie above it; and each option must be
used in some games.
"""

from __future__ import annotations

from collections.abc import Callable

from armybuilder.core.catalog import Catalogue
from armybuilder.core.credibility import OptionFigure
from armybuilder.core.playtest import game_rngs, load_sample, sample_names, wilson_interval
from armybuilder.core.registry import get_system

from ..army import GodPowerPick, WarClan
from .ai import WarlordPolicy
from .battle import Battle
from .policy import BrawlerPolicy, Policy

#: abilities whose use is the player's choice, and the sample clan that has them
ABILITIES = (("taunt", "wolves-of-the-fjord"), ("healer", "ravens-of-hrafnsey"), ("tactician", "wolves-of-the-fjord"),
             ("focus", "ravens-of-hrafnsey"), ("clash", "wolves-of-the-fjord"))  # fmt: skip


def built_around(cat: Catalogue) -> list[tuple[str, str, WarClan]]:
    """(option id, label, a clan built around it): each sample with all its powers ("powers"), the
    Ravens with each power alone, the samples with their abilities."""
    system = get_system("morpheus-ragnarok")
    samples: dict[str, WarClan] = {n: load_sample(system, n) for n in sample_names(system)}  # type: ignore[misc]
    out: list[tuple[str, str, WarClan]] = []
    for clan in samples.values():
        out.append(("powers", f"{clan.name}: all its God powers", clan))
    ravens = samples["ravens-of-hrafnsey"]
    for power in cat.data.god_powers:
        clan = ravens.model_copy(update={"god_powers": [GodPowerPick(power=power.id)], "name": f"Ravens with {power.name}"})
        out.append((power.id, f"God power {power.name}", clan))
    for ability, sample in ABILITIES:
        out.append((ability, f"ability {ability} ({samples[sample].name})", samples[sample]))
    return out


def measure(cat: Catalogue, option: str, label: str, clan: WarClan, games: int, seed: int) -> OptionFigure:
    """``clan`` with ``option`` against the same clan whose player may not use it, ``games`` games,
    the sides swapped every other game."""
    wins = 0.0
    used = 0
    for i, rng in enumerate(game_rngs(seed, 0, games)):
        swapped = i % 2 == 1
        free, barred = WarlordPolicy(), WarlordPolicy(frozenset({option}))
        record = Battle(cat, clan, clan, rng, False, (barred, free) if swapped else (free, barred)).play()
        mine = 1 if swapped else 0
        wins += 1.0 if record.winner == mine else 0.5 if record.winner is None else 0.0
        counts = record.used[mine]
        if option == "powers":
            used += any(p.power in counts for p in clan.god_powers)
        else:
            used += counts.get(option, 0) > 0
    return OptionFigure(option, label, clan.name, games, used, wins / games, wilson_interval(wins, games))


def option_study(cat: Catalogue, games: int, seed: int) -> list[OptionFigure]:
    return [measure(cat, option, label, clan, games, seed) for option, label, clan in built_around(cat)]


def matchup(cat: Catalogue, first: WarClan, second: WarClan, games: int, seed: int) -> list[str]:
    """Why one clan beats another: the pairing with the default players, with God powers forbidden
    to both, with the yardstick player on both sides and crossed (the lists' own strength against
    the players' part), and each model's survival and Glory taken with the default players."""
    from armybuilder.core.playtest import run_playtest

    lines = [f"{first.name} against {second.name}, {games} games each (seed {seed}; win rate of the first, a draw counts half)"]

    def rate(players: tuple[Callable[[], Policy], Callable[[], Policy]], label: str) -> None:
        wins = 0.0
        for rng in game_rngs(seed, 0, games):
            record = Battle(cat, first, second, rng, False, (players[0](), players[1]())).play()
            wins += 1.0 if record.winner == 0 else 0.5 if record.winner is None else 0.0
        low, high = wilson_interval(wins, games)
        lines.append(f"  {label:<44} {100 * wins / games:5.1f} % ({100 * low:.1f}–{100 * high:.1f} %)")

    def powerless() -> Policy:
        return WarlordPolicy(frozenset({"powers"}))

    rate((WarlordPolicy, WarlordPolicy), "default players (warlord)")
    rate((powerless, powerless), "no God powers on either side")
    rate((BrawlerPolicy, BrawlerPolicy), "yardstick players (brawler) on both sides")
    rate((WarlordPolicy, BrawlerPolicy), f"warlord ({first.name}) against brawler")
    rate((BrawlerPolicy, WarlordPolicy), f"brawler ({first.name}) against warlord")
    summary = run_playtest(first, second, games, seed=seed)
    lines.append("  per model with the default players (survival, Glory it took a game):")
    for u in summary.units:
        lines.append(f"    [{(first if u.side == 0 else second).name[:18]}] {u.name:<36} {u.points:>4g} Glory  {100 * u.survival_rate:5.1f} %  {u.mean_eliminated:6.1f}")
    return lines


if __name__ == "__main__":  # python -m armybuilder.systems.morpheus.engine.options [GAMES]: the samples' matchup
    import sys

    system = get_system("morpheus-ragnarok")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    ravens, wolves = (load_sample(system, name) for name in ("ravens-of-hrafnsey", "wolves-of-the-fjord"))
    print("\n".join(matchup(system.catalogue(), ravens, wolves, n, 5)))  # type: ignore[arg-type]
