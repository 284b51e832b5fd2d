"""A one-line key bar: the shown bindings of the focused place, as one ``Static``.

Textual's ``Footer`` removes and mounts one widget per key each time the focus moves
(its bindings change), and styling those widgets was the largest share of a focus
change in the editor (F2, ``/``, closing a dialog: 50-100 ms on a 2-core machine). This
bar draws the same keys as a single text and redraws only when that text changes.
A click on a key presses it, as in the footer.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widgets import Static


class KeyBar(Static):
    """The keys of the focused widget and its screen (``Binding.show``), one line."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
        text-wrap: nowrap;
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)
        self._shown: tuple = ()  # (keys, width) last drawn

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._redraw()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:
        if self.is_attached and screen is self.screen:
            self._redraw()

    def _keys(self) -> tuple[tuple[str, str, str, bool], ...]:
        """(key, shown key, description, enabled) of each shown binding, once per action."""
        seen: set[str] = set()
        out = []
        if self.app.ENABLE_COMMAND_PALETTE:  # first: at 80 columns the end is cut off
            out.append(("ctrl+p", "^p", "Palette", True))
            seen.add("command_palette")
        for _node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            out.append((binding.key.split(",")[0].strip(), self.app.get_key_display(binding), binding.description, enabled))
        return tuple(out)

    def on_resize(self, event) -> None:
        self._redraw()

    def _redraw(self) -> None:
        keys = self._keys()
        width = self.size.width
        if (keys, width) == self._shown:
            return
        self._shown = (keys, width)
        key_style = Style(bold=True, reverse=True)
        text = Text(no_wrap=True)
        for i, (key, shown, description, enabled) in enumerate(keys):
            piece = f" {shown} {description} "
            # a key that does not fit goes whole (the help, ?, lists them all); " …" says so
            if width and text.cell_len + len(piece) > width - (2 if i < len(keys) - 1 else 0):
                text.append(" …")
                break
            meta = Style(meta={"keybar-key": key})
            style = key_style if enabled else Style(dim=True)
            text.append(f" {shown} ", style=style + meta)
            text.append(f"{description} ", style=(Style() if enabled else Style(dim=True)) + meta)
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        key = event.style.meta.get("keybar-key")
        if key:
            event.stop()
            self.app.simulate_key(key)
