"""A bare Textual app that shows one screen, for driving a screen alone with Pilot.

Shared by the TUI tests of several folders (imported by basename, ``from
screen_host import Host``; the root conftest puts tests/ on ``sys.path``).
"""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen


class Host(App):
    """A bare app that shows one screen (the editor wires the real ones)."""

    def __init__(self, screen: Screen) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)
