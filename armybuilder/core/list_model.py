"""The fields every list file has, whatever its system: the pydantic base of list models.

Kept apart from :mod:`armybuilder.core.system` (which still offers ``ArmyListBase``,
imported on first use) so that a list read through its plain mirror
(:mod:`armybuilder.core.plain`) never imports pydantic.
"""

from __future__ import annotations

import datetime
import re
from typing import Annotated

from pydantic import AfterValidator, Field

from .catalog_models import Strict

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(value: str) -> str:
    """A name printed in a header: one line, no control characters, no outer spaces."""
    if _CONTROL.search(value):
        raise ValueError("must be one line of text without control characters")
    return value.strip()


#: the type of player, team and event
OneLine = Annotated[str, Field(max_length=120), AfterValidator(one_line)]

#: the type of ``round``: 1 to 99
Round = Annotated[int, Field(ge=1, le=99)]


class HousePin(Strict):
    """A house catalogue a list uses, pinned as the bundled one is (:mod:`.house`): its id,
    version and content hash.  Shapes are bounded here and judged by the house code, which
    says in a finding what does not match (no pattern: the plain mirror reads it as is)."""

    id: str = Field(max_length=80)
    version: str = Field(max_length=40)
    hash: str = Field(max_length=64)


class ArmyListBase(Strict):
    """Fields every list file has, whatever its system."""

    armybuilder: int = Field(1, description="list file format version")
    system: str
    catalogue: str = Field(description="catalogue version the list is pinned to")
    house: list[HousePin] = Field(
        default_factory=list, max_length=8,
        description="house catalogues the list uses (a player's own data), each pinned",
    )
    format: str = Field(description="id of a format preset of the catalogue")
    limit: int | None = Field(
        None, gt=0, le=1_000_000,
        description="the player's own point limit, in place of the format's (its other rules stay)",
    )
    name: str = "Unnamed list"
    notes: str = ""
    # tournament fields (core/organiser.py): optional, printed on rosters, not fingerprinted
    player: OneLine = ""
    team: OneLine = ""
    event: OneLine = ""
    date: datetime.date | None = None
    round: Round | None = None
