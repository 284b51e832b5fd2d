"""Command palette (ctrl+p): every action of the current screen, searchable."""

from __future__ import annotations

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider


class ScreenCommands(Provider):
    """Asks the screen the palette was opened on for its ``palette_commands``."""

    def _commands(self):
        screen = self.screen
        getter = getattr(screen, "palette_commands", None)
        if getter is None:
            return []
        try:
            return getter()
        except Exception:  # noqa: BLE001 - a palette must open even if a screen is half-built
            return []

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(Text(name), callback, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, text=name, help=help_text)
