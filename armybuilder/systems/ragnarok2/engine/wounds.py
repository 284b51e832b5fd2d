"""Dealing Wounds to eliminate as many fighters as possible (seed: Dealing the wounds)."""

from __future__ import annotations

from typing import Any

from .state import Group


def wound_one_group(g: Group, wounds: int, in_contact: int, scattered: bool) -> tuple[int, int]:
    """allocate_wounds() for one kind of fighter, in closed form (the hot path): the wounded one
    first, then whole fighters within reach, the rest on one survivor. Returns (eliminated, Wounds
    lost). (min()/max() written out: builtin calls cost more than the tests here.)"""
    wl = g.wound_levels
    cap = g.count
    if not scattered and in_contact < cap:
        cap = in_contact if in_contact > 0 else 0
    killed = 0
    if g.damage and cap > 0 and wounds >= wl - g.damage:
        wounds -= wl - g.damage
        g.damage = 0
        killed = 1
    if cap > killed:
        more = wounds // wl
        if cap - killed < more:
            more = cap - killed
        killed += more
        wounds -= more * wl
    g.count -= killed
    if wounds and g.count > 0 and cap > killed:
        g.damage += wounds  # < wl - damage here: a wounded survivor
        wounds = 0
    return killed, wounds


def allocate_wounds(
    groups: list[Group], wounds: int, in_contact: int, scattered: bool
) -> tuple[int, list[tuple[Group, int]], int]:
    """Deal *wounds* to eliminate as many fighters as possible (seed: Dealing the wounds).

    Fighters in contact (the first *in_contact* of the unit, independents first)
    take the Wounds; the surplus spreads to the others only if the unit is
    scattered, else it is lost.  The fighter with the fewest Wound levels left is
    always finished first, which maximises the eliminations.  Returns
    (eliminated, [(group, eliminated)], Wounds lost).  Mutates the groups.
    """
    live = []
    for h in groups:
        if h.count > 0:
            live.append(h)
    if len(live) == 1:
        g: Any = live[0]
        killed, lost = wound_one_group(g, wounds, in_contact, scattered)
        return killed, ([(g, killed)] if killed else []), lost
    killed = 0
    # Eliminations per group: (first_g, first_n) while one group only is hit (the usual case),
    # then a dict by id(group).
    first_g: Group | None = None
    first_n = 0
    per_group: dict[int, int] | None = None  # by the group's index in *groups*
    reach = in_contact
    while wounds > 0 and (reach > 0 or scattered):
        # The fighter closest to death (fewest Wound levels left); troops before Characters.
        # (Tuple order on (levels left, character), written out: this loop is hot.)
        g = None
        need, g_char = 1 << 30, True
        for h in live:
            if h.count > 0:
                left = h.wound_levels - h.damage
                if left < need or (left == need and h.character < g_char):
                    g, need, g_char = h, left, h.character
        if g is None:
            break
        if wounds < need:
            g.damage += wounds
            wounds = 0
            break
        wounds -= need
        g.count -= 1
        wl = g.wound_levels
        # Then as many fresh fighters of that group as stay the cheapest to finish.  When the one
        # finished was unwounded (need == wl), g's fresh fighters are the argmin above, so they are
        # the cheapest: the scan below is only needed after finishing a wounded fighter.
        cheapest = True
        if g.damage:
            g.damage = 0
            # (Ties go to the group listed first, as the one-at-a-time greedy would do.)
            gi = live.index(g)
            for i, h in enumerate(live):
                if h is g or h.count == 0:
                    continue
                left = h.wound_levels - h.damage
                if left > wl or (left == wl and (h.character > g_char or (h.character == g_char and i > gi))):
                    continue  # (left, character) > (wl, g's), or equal and listed after g
                cheapest = False
                break
        n = 1
        reach -= 1
        if cheapest:
            more = wounds // wl
            if g.count < more:
                more = g.count
            if not scattered and reach < more:
                more = reach
            if more > 0:
                g.count -= more
                wounds -= more * wl
                n += more
                reach -= more
        killed += n
        if first_g is None:
            first_g, first_n = g, n
        elif per_group is None and g is first_g:
            first_n += n
        else:
            if per_group is None:
                per_group = {groups.index(first_g): first_n}
            gi = groups.index(g)
            per_group[gi] = per_group.get(gi, 0) + n
    if per_group is None:
        return killed, ([(first_g, first_n)] if first_g is not None else []), wounds
    return killed, [(g, per_group[i]) for i, g in enumerate(groups) if i in per_group], wounds


