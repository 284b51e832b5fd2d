"""One package per game system, each exposing ``SYSTEM``, a :class:`GameSystem`."""
