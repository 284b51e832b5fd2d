"""Why each list wins: its matchups, margins, game lengths, units and tier.

Built from a finished :class:`~.matrix.MetaMatrix`, for the JSON, the PDF and the
HTML page alike.  In a square matrix a matchup pools both seats (the list first
against the opponent, and second, counted from its side), as the standings do.

Tiers group the standings: a tier starts at the first list that is clearly
weaker than the tier's first list, its 95 % interval wholly below that list's and
its win rate at least :data:`TIER_GAP` behind.  The interval test keeps noise
from splitting a field; the gap keeps a field played with very many games (tiny
intervals) from splitting into a tier a list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .games import replay_command
from .tally import Standing, Tally, UnitFigures

if TYPE_CHECKING:
    from .matrix import MetaMatrix

#: win-rate points a list must trail its tier's first list by to start a tier
TIER_GAP = 0.05
#: matchups shown as a list's best and worst
SHOWN_MATCHUPS = 3


@dataclass
class Matchup:
    """A list against one opponent (both seats pooled in a square matrix)."""

    opponent: int  # column index
    tally: Tally
    replay_seed: int  # of the cell with the list playing first
    replay: list[str]  # the command that narrates that cell's first game

    def as_json(self, matrix: MetaMatrix) -> dict[str, Any]:
        other = matrix.cols[self.opponent]
        return {"opponent": other.path, "opponent_label": other.label, **self.tally.as_json(),
                "replay_seed": self.replay_seed, "replay": self.replay}


@dataclass
class ListProfile:
    index: int  # row index
    rank: int
    tier: int  # 1 for the strongest tier
    tally: Tally
    matchups: list[Matchup]  # best first
    units: list[UnitFigures]  # most points eliminated a game first

    def best(self, count: int = SHOWN_MATCHUPS) -> list[Matchup]:
        """The strongest matchups, strongest first (the better half when there are few)."""
        return self.matchups[: min(count, (len(self.matchups) + 1) // 2)]

    def worst(self, count: int = SHOWN_MATCHUPS) -> list[Matchup]:
        """The weakest matchups, weakest first (never one shown among the best)."""
        return list(reversed(self.matchups[len(self.best(count)) :]))[:count]


def tiers(standings: list[Standing], gap: float = TIER_GAP) -> list[int]:
    """The tier of each standing, in standings order."""
    out: list[int] = []
    leader: Tally | None = None
    tier = 0
    for s in standings:
        rate = s.tally.rate or 0.0
        if leader is None or (s.tally.interval[1] < leader.interval[0] and (leader.rate or 0.0) - rate >= gap):
            tier += 1
            leader = s.tally
        out.append(tier)
    return out


def _matchups(matrix: MetaMatrix) -> dict[int, list[Matchup]]:
    """Every row's matchups, best first, from one pass over the cells."""
    pooled: dict[int, dict[int, Tally]] = {i: {} for i in range(len(matrix.rows))}
    for (r, c), t in matrix.cells.items():
        pooled[r].setdefault(c, Tally()).add(t.wins, t.draws, t.losses, t.rounds, t.margin)
        if matrix.square and c != r:
            pooled[c].setdefault(r, Tally()).add_seen_from_second(t)
    out = {}
    for i, against in pooled.items():
        row = matrix.rows[i]
        items = []
        for j, tally in against.items():
            if (i, j) not in matrix.cells:
                continue  # met only as second list: no cell of this row to replay (never in a square matrix)
            seed = matrix.pairing_seed(i, j)
            items.append(Matchup(j, tally, seed, replay_command(row.path, matrix.cols[j].path, seed, matrix.game_options)))
        items.sort(key=lambda m: (-(m.tally.rate or 0.0), matrix.cols[m.opponent].label))
        out[i] = items
    return out


def profiles(matrix: MetaMatrix) -> list[ListProfile]:
    """Every row list's profile, in standings order (worked out once per matrix)."""
    if "profiles" in matrix.derived:
        return matrix.derived["profiles"]
    standings = matrix.standings()
    matchups = _matchups(matrix)
    out = []
    for s, tier in zip(standings, tiers(standings), strict=True):
        units = sorted(matrix.units.get(s.index, {}).values(), key=lambda u: (-u.mean_eliminated, u.name))
        out.append(ListProfile(s.index, s.rank, tier, s.tally, matchups[s.index], units))
    matrix.derived["profiles"] = out
    return out


def profile_json(matrix: MetaMatrix, p: ListProfile) -> dict[str, Any]:
    item = matrix.rows[p.index]
    return {
        "rank": p.rank, "tier": p.tier, "list": item.path, "label": item.label, "name": item.name, "player": item.player,
        **p.tally.as_json(),
        "best_matchups": [m.as_json(matrix) for m in p.best()],
        "worst_matchups": [m.as_json(matrix) for m in p.worst()],
        "units": [u.as_json() for u in p.units],
    }
