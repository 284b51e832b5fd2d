"""The Rattle and Rend warband model and its point counting.

A warband file looks like this (comments are kept when the program edits it)::

    system: rattle-and-rend
    catalogue: 1.0.0
    format: 12-points
    name: Vampire Court
    traits: [soothsayers, poisoners]     # exactly two distinct warband traits
    drive: compulsion
    groups:
      - {type: champion, champion_action: banishment}
      - {type: fighters, label: Thralls}
      - type: champion
        champion_action: crashing-wave
        attached_to: 1                   # index in groups (from 0): joins the Thralls
      - {type: ward, warding_reaction: detonate}
      - {type: heavy, heavy_trait: transport}
      - {type: fighters, transported_by: 4}   # starts inside the Transport Heavy

Attachments and transports point at another group by its index in ``groups``
(the same index the findings' ``groups[N]`` paths use); the editor renumbers them
when groups are removed or duplicated, so a hand-edited file and an edited one read
the same way.  A hand-written file may also name the group, by its label or, when
only one group has it, by its type (``attached_to: Fighters``, as the seed writes
"Attached to Fighters"); :func:`normalize` turns the name into the index.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from armybuilder.core.catalog import Strict
from armybuilder.core.system import ArmyListBase

# point counting and the warband's reading live in counting.py (no pydantic: validation
# reads plain mirrors); these names stay importable from here
from .counting import (  # noqa: F401
    OneOf,
    PointsBreakdown,
    Stats,
    as_index,
    attachment_target,
    breakdown,
    choices_of,
    counted_groups,
    effective_stats,
    find_group,
    group_cost,
    group_title,
    group_type,
    normalize,
    transport_capacity,
)


class Group(Strict):
    type: str  # id in group_types
    label: str = ""
    champion_action: OneOf = None  # Champions (RR-D1)
    heavy_trait: OneOf = None  # Heavies
    warding_reaction: OneOf = None  # Wards
    attached_to: int | str | None = Field(None, description="the group a Champion joins: index, label or type")
    transported_by: int | str | None = Field(None, description="the Heavy carrying this group at the start")
    notes: str = ""


class RRList(ArmyListBase):
    system: Literal["rattle-and-rend"] = "rattle-and-rend"
    traits: list[str] = Field(default_factory=list)
    drive: OneOf = None
    groups: list[Group] = Field(default_factory=list)
