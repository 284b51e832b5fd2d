"""Frames of one game for its replay: the table and every unit where it stands, step by step."""

from __future__ import annotations


class Recorder:
    """Collects the frames of a replay (filled by :meth:`.battle.Battle.snapshot`)."""

    __slots__ = ("frames",)

    def __init__(self) -> None:
        self.frames: list = []
