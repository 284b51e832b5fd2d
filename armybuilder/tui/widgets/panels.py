"""The editor's panels: catalogue browser, list tree, detail, status bar, findings.

Every piece of user or catalogue text goes through ``rich.text.Text`` objects, never
through markup parsing: a list called ``[bold]x[/]`` must show those very characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from armybuilder.core.checks import plural
from armybuilder.core.findings import Finding, Severity
from armybuilder.core.paths import ancestors
from armybuilder.core.sanitize import visible
from armybuilder.core.system import BrowserEntry, Detail, OutlineNode, StatusItem

from ..cut import cut_words
from ..safe_text import safe_text

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
SEVERITY_MARK = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}


def fmt_cost(cost: float | None) -> str:
    if cost is None:
        return ""
    return f"{cost:g}"


# --------------------------------------------------------------------------- browser


def parse_query(query: str) -> tuple[list[str], dict[str, str]]:
    """Split a search into words and ``facet:value`` filters (``rank:elite spear``)."""
    words: list[str] = []
    facets: dict[str, str] = {}
    query = query.lstrip("/")  # the key that opened the search may land in the box
    for token in query.lower().split():
        key, sep, value = token.partition(":")
        if sep and key and value:
            facets[key] = value
        else:
            words.append(token)
    return words, facets


def facet_parts(value: str) -> list[str]:
    """A facet value as single values ("commander, leader" is two roles)."""
    return [v.strip() for v in value.split(",") if v.strip()]


def filter_entries(
    entries: Sequence[BrowserEntry], query: str, chosen: dict[str, str]
) -> list[BrowserEntry]:
    """Entries matching every word of ``query`` and every chosen facet value."""
    words, typed = parse_query(query)
    out = []
    for e in entries:
        hay = e.search or e.name.lower()
        if any(w not in hay for w in words):
            continue
        # an entry without a value for a facet (a tactic has no people) is never hidden by it
        if any(e.facets.get(k) and v not in facet_parts(e.facets[k]) for k, v in chosen.items()):
            continue
        if any(v not in e.facets.get(k, "").lower() for k, v in typed.items()):
            continue
        out.append(e)
    if words:  # entries whose name holds the words first ("veteran" finds Veteran of…,
        # not every profile of rank Veteran), catalogue order otherwise
        out.sort(key=lambda e: not all(w in e.name.lower() for w in words))
    return out


def filter_problems(entries: Sequence[BrowserEntry], query: str) -> list[str]:
    """Why a typed ``facet:value`` filter can match nothing, in words (empty when fine).

    A filter such as ``cost:<20`` or ``people:acheron`` that matches nothing would otherwise
    show 0 results without a reason; the player is told which filters exist and which values
    a facet has.
    """
    _, typed = parse_query(query)
    if not typed:  # nothing typed to explain (every refilter, the first paint's too)
        return []
    known: dict[str, set[str]] = {}
    for e in entries:
        for k, v in e.facets.items():
            if v:
                known.setdefault(k, set()).update(p.lower() for p in facet_parts(v))
    out = []
    for key, value in typed.items():
        if key not in known:
            out.append(f"no filter '{key}:' (filters: {', '.join(f'{k}:' for k in sorted(known))})")
        elif not any(value in v for v in known[key]):
            sample = ", ".join(sorted(known[key])[:6])
            out.append(f"no {key} matches '{value}' (e.g. {sample})")
    return out


def entry_prompt(e: BrowserEntry, room: int | None = None) -> Text:
    """An entry's line: its name, cost, kind and rank.  Given ``room`` (cells), the line
    breaks between words and never inside the cost ("44 A.P." stays on one line)."""
    extra = [e.kind] if e.kind != "profile" else []
    extra += [v for k, v in e.facets.items() if v and k in ("rank", "category") and v != e.kind]
    if e.facets.get("data", "").startswith("house"):  # a house catalogue's entry (core/house_use.py): first, seen on narrow screens
        extra.insert(0, "house")
    # (piece, style, separator before it): the pieces a line may break between
    # (escaped here: the only line breaks are the layout's own)
    pieces = [(visible(word), "bold" if e.kind == "profile" else "", " ") for word in e.name.split(" ")]
    if e.cost:
        pieces.append((visible(str(e.cost)), "green", "  "))
    pieces += [(visible(x), "dim", "  " if i == 0 else " · ") for i, x in enumerate(extra)]
    text = Text()
    used = 0
    for i, (piece, style, sep) in enumerate(pieces):
        if i:
            if room is not None and used + len(sep) + cell_len(piece) > room:
                text.append("\n")
                used = 0
            else:
                text.append(sep, style=style if sep == " " else "")
                used += len(sep)
        text.append(piece, style=style)
        used += cell_len(piece)
    return safe_text(text, lines=True)


class SearchBox(Input):
    """The catalogue search: arrows move the results, Enter adds the highlighted entry,
    and ``/`` (the key that opens the search) starts a new search instead of typing."""

    BINDINGS = [
        Binding("down", "move(1)", "Next", show=False, tooltip="move the results (also up, pageup, pagedown)"),
        Binding("up", "move(-1)", "Previous", show=False, tooltip="move the results up"),
        Binding("pagedown", "move(10)", show=False),
        Binding("pageup", "move(-10)", show=False),
        Binding("slash", "restart", "New search", show=False, priority=True, tooltip="in the box: start a new search"),
    ]

    def action_move(self, step: int) -> None:
        entries = self.screen.query_one("#entries", OptionList)
        if entries.option_count:
            current = entries.highlighted if entries.highlighted is not None else -1
            entries.highlighted = max(0, min(entries.option_count - 1, current + step))

    def action_restart(self) -> None:
        self.value = ""


class EntryList(OptionList):
    """Catalogue entries; Enter adds the highlighted entry where the list cursor is."""

    BINDINGS = [
        Binding("enter", "select", "Add to list", show=True, tooltip="add the highlighted entry at the list's cursor (also from the search box)"),
        Binding("f", "screen.filters", "Filters", show=True, tooltip="filters on this game's facets (people, rank… or kind, group…)"),
    ]

    async def _on_click(self, event) -> None:
        # first click shows the entry's detail; a click on the highlighted one adds it
        clicked = event.style.meta.get("option")
        if clicked is not None and clicked != self.highlighted:
            event.prevent_default()
            self.highlighted = clicked


class Browser(Vertical):
    """Incremental search over ``GameSystem.browse`` entries with facet filters."""

    class EntryHighlighted(Message):
        def __init__(self, entry: BrowserEntry | None) -> None:
            super().__init__()
            self.entry = entry

    class EntryChosen(Message):
        def __init__(self, entry: BrowserEntry) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.entries: list[BrowserEntry] = []
        self.shown: list[BrowserEntry] = []
        self.chosen: dict[str, str] = {}

    def compose(self):
        yield SearchBox(placeholder="/ search (rank:elite), ⏎ adds", id="search", compact=True)
        yield Static("", id="filters", markup=False)
        yield EntryList(id="entries")

    def set_entries(self, entries: list[BrowserEntry]) -> None:
        self.entries = entries
        example = self.filter_example()
        self.query_one("#search", Input).placeholder = f"/ search ({example}), ⏎ adds" if example else "/ search, ⏎ adds"
        self.refilter()

    def facet_names(self) -> list[str]:
        """The facets this system's entries have (people, rank… or kind, group…), in order."""
        return list(dict.fromkeys(k for e in self.entries for k, v in e.facets.items() if v))

    def filter_example(self) -> str:
        """A typed filter in this system's own words ("rank:elite", "kind:weapon")."""
        from collections import Counter

        seen: dict[str, Counter[str]] = {}
        for e in self.entries:
            for k, v in e.facets.items():
                if not v:
                    continue
                # most values are one word: split only lists ("commander, leader")
                for part in facet_parts(v) if "," in v else (v.strip(),):
                    if part and " " not in part:
                        counts = seen.get(k)
                        if counts is None:  # not setdefault: that builds a Counter per value
                            counts = seen[k] = Counter()
                        counts[part.lower()] += 1
        if not seen:
            return ""
        key = max(seen, key=lambda k: len(seen[k]))  # the facet that tells entries apart most
        return f"{key}:{seen[key].most_common(1)[0][0]}"

    def facet_values(self) -> dict[str, list[str]]:
        values: dict[str, set[str]] = {}
        for e in self.entries:
            for k, v in e.facets.items():
                values.setdefault(k, set()).update(facet_parts(v or ""))
        return {k: sorted(v) for k, v in values.items()}

    def set_filters(self, chosen: dict[str, str]) -> None:
        self.chosen = {k: v for k, v in chosen.items() if v}
        self.refilter()

    def refilter(self) -> None:
        query = self.query_one("#search", Input).value
        self.shown = filter_entries(self.entries, query, self.chosen)
        self._fill_entries(0)
        problems = filter_problems(self.entries, query)
        if problems:
            self.query_one("#filters", Static).update(Text("; ".join(problems), style="bold yellow"))
            return
        label = f"{len(self.shown)} of {len(self.entries)}"
        if self.chosen:
            label += " · " + ", ".join(f"{k}: {v}" for k, v in self.chosen.items()) + " (f: change)"
        else:
            label += " · f: filters"
        self.query_one("#filters", Static).update(Text(label, style="dim"))

    def _fill_entries(self, highlighted: int | None) -> None:
        """The shown entries, each laid out for the column's width."""
        options = self.query_one("#entries", EntryList)
        room = options.scrollable_content_region.width
        self._laid_out_for = room
        options.clear_options()
        options.add_options([Option(entry_prompt(e, room if room > 10 else None), id=str(i)) for i, e in enumerate(self.shown)])
        if self.shown and highlighted is not None:
            options.highlighted = min(highlighted, len(self.shown) - 1)

    _laid_out_for = 0

    def on_resize(self, event) -> None:
        """A new width: the entries' lines break again where they fit."""
        room = self.query_one("#entries", EntryList).scrollable_content_region.width
        if room != self._laid_out_for and self.shown:
            self._fill_entries(self.query_one("#entries", EntryList).highlighted)

    def current(self) -> BrowserEntry | None:
        options = self.query_one("#entries", EntryList)
        if options.highlighted is None or options.highlighted >= len(self.shown):
            return None
        return self.shown[options.highlighted]

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "search":
            event.stop()
            self.refilter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":
            event.stop()
            entry = self.current()  # one Enter adds the highlighted entry; the box keeps focus
            if entry is not None:
                self.post_message(self.EntryChosen(entry))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "entries":
            event.stop()
            self.post_message(self.EntryHighlighted(self.current()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "entries":
            event.stop()
            entry = self.current()
            if entry is not None:
                self.post_message(self.EntryChosen(entry))


# --------------------------------------------------------------------------- list tree


def _cut(text: str, room: int) -> str:
    """``text`` in at most ``room`` cells, whole words only ("Kal-Nur, Hammer of …")."""
    return cut_words(text, room) if room > 0 else ""


def node_label(node: OutlineNode, room: int | None = None) -> Text:
    """The tree line of ``node``: name, cost, detail. Given ``room`` (cells), the detail loses
    words first (or goes), then the name, each ending " …", so the cost stays in view."""
    # escaped before Rich sees them: ``Text`` silently drops BEL, BS, VT, FF and CR
    label, shown_detail = visible(node.label), visible(node.detail)
    name, cost, detail = label, f"  {fmt_cost(node.cost)}" if node.cost is not None else "", f"  {shown_detail}" if shown_detail else ""
    if room is not None and len(name) + len(cost) + len(detail) > room:
        kept = cut_words(detail[2:], room - len(name) - len(cost) - 2, inside=False) if detail and len(name) + len(cost) + 4 <= room else ""
        if kept:
            detail = "  " + kept
        else:
            detail = ""
            if len(name) + len(cost) > room:
                name = _cut(name, max(room - len(cost), min(room, 8)))
                if len(name) + len(cost) > room:
                    cost = ""
    text = Text(name, style="bold" if node.children or "." not in node.path else "", no_wrap=True)
    if cost:
        text.append(cost, style="green")
    if detail:
        text.append(detail, style="dim")
    return safe_text(text)


class ListTree(Tree[str]):
    """The list as a tree of ``OutlineNode``; node data is the list path."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Edits here", show=True, tooltip="the edits allowed here (a menu)"),
        Binding("a", "screen.add_here", "Add", show=True, tooltip="add here (unit, member, tactic…)"),
        Binding("delete", "screen.remove_here", "Remove", show=True, tooltip="remove the selected unit, member or entry"),
        Binding("r", "screen.rename_here", "Rename", show=True),
        Binding("n", "screen.notes_here", "Notes", show=True),
        Binding("plus,equals_sign", "screen.step_count(1)", "+1", show=True, tooltip="one more trooper (Enter, then the count, to type it)"),
        Binding("minus", "screen.step_count(-1)", "−1", show=True, tooltip="one trooper fewer"),
        Binding("home", "first_line", "Top", show=False, tooltip="the first line of the list"),
        Binding("end", "last_line", "Bottom", show=False, tooltip="the last line of the list"),
        Binding("left_square_bracket", "unit(0)", "First unit", show=False, tooltip="the first unit (group, warrior)"),
        Binding("right_square_bracket", "unit(-1)", "Last unit", show=False, tooltip="the last unit (group, warrior)"),
    ]

    def __init__(self, **kwargs) -> None:
        # a Text root label: a str is parsed as markup, which loads rich's emoji table
        super().__init__(Text("list"), **kwargs)
        self.show_root = False
        self.auto_expand = False
        self.guide_depth = 3
        self.by_path: dict[str, TreeNode[str]] = {}
        self._items: dict[str, OutlineNode] = {}  # path -> its outline entry (for fitting labels)
        self.outline: tuple[OutlineNode, ...] | None = None
        self.collapsed: set[str] = set()

    async def _on_click(self, event) -> None:
        # first click moves the cursor; a click on the cursor's node opens its edits
        meta = event.style.meta
        if "line" in meta and not meta.get("toggle", False) and meta["line"] != self.cursor_line:
            event.prevent_default()
            self.cursor_line = meta["line"]

    def _on_tree_node_collapsed(self, event: Tree.NodeCollapsed) -> None:
        if event.node.data is not None:
            self.collapsed.add(event.node.data)

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        if event.node.data is not None:
            self.collapsed.discard(event.node.data)

    @staticmethod
    def _shape(outline: tuple[OutlineNode, ...]) -> tuple:
        """Paths and nesting only: equal shapes can be updated label by label."""

        def walk(items: Iterable[OutlineNode]) -> tuple:
            return tuple((item.path, bool(item.children), walk(item.children)) for item in items)

        return walk(outline)

    def show(self, outline: Iterable[OutlineNode], select: str | None) -> None:
        """Show ``outline``; relabel in place when only labels changed, else rebuild.

        Relabelling keeps Textual from re-laying out the whole tree on every edit
        (a count or an option changes labels, not the shape), which keeps edits fast.
        """
        outline = tuple(outline)
        if outline != self.outline:
            old, self.outline = self.outline, outline
            self._items = {}
            stack = list(outline)
            while stack:
                item = stack.pop()
                self._items.setdefault(item.path, item)
                stack.extend(item.children)
            if old is not None and self._shape(old) == self._shape(outline):
                self._relabel(old, outline)
            else:
                self._rebuild(outline)
        if select is not None:
            self.goto(select)

    def _relabel(self, old: tuple[OutlineNode, ...], new: tuple[OutlineNode, ...]) -> None:
        for before, after in zip(old, new, strict=True):
            if before != after:
                node = self.by_path.get(after.path)
                if node is not None and (before.label, before.detail, before.cost) != (after.label, after.detail, after.cost):
                    node.set_label(node_label(after))
                self._relabel(before.children, after.children)

    def _rebuild(self, outline: tuple[OutlineNode, ...]) -> None:
        with self.app.batch_update():
            self.clear()
            self.by_path = {}

            def add(parent: TreeNode[str], item: OutlineNode) -> None:
                if item.children:
                    child = parent.add(node_label(item), data=item.path, expand=item.path not in self.collapsed)
                    for sub in item.children:
                        add(child, sub)
                else:
                    child = parent.add_leaf(node_label(item), data=item.path)
                self.by_path.setdefault(item.path, child)

            for item in outline:
                add(self.root, item)

    def _depth(self, node: TreeNode[str]) -> int:
        """How many levels under the root's children the node sits (its guides' indent)."""
        depth = 0
        parent = node.parent
        while parent is not None and parent is not self.root:
            depth += 1
            parent = parent.parent
        return depth

    def render_label(self, node: TreeNode[str], base_style, style) -> Text:
        """The node's line cut to the tree's width with an ellipsis (Textual crops it bare)."""
        text = super().render_label(node, base_style, style)
        item = self._items.get(node.data) if node.data is not None else None
        if item is None:
            return text
        depth = self._depth(node)
        own = node.label
        prefix_len = text.cell_len - (own.cell_len if isinstance(own, Text) else len(own))
        room = self.scrollable_content_region.width - depth * self.guide_depth - prefix_len
        if room <= 0 or text.cell_len - prefix_len <= room:
            return text
        label = node_label(item, room)
        label.stylize(style)
        prefix = text[:prefix_len]
        return Text.assemble(prefix, label)

    def get_label_width(self, node: TreeNode[str]) -> int:
        """What ``render_label`` gives, counted without building the styled line.

        Textual asks for the width of every line whenever the tree is rebuilt (the first
        paint, an edit that changes its shape); only a line too long for the pane is
        built, to count its cut.
        """
        own = node.label
        width = own.cell_len if isinstance(own, Text) else len(own)
        if node.allow_expand:
            width += cell_len(self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE)
        if node.data is None or node.data not in self._items:
            return width
        depth = self._depth(node)
        if width <= self.scrollable_content_region.width - depth * self.guide_depth:
            return width
        return super().get_label_width(node)

    def action_first_line(self) -> None:
        self.cursor_line = 0
        self.scroll_to_line(0)

    def action_last_line(self) -> None:
        self.cursor_line = max(0, self.last_line)
        self.scroll_to_line(self.cursor_line)

    def action_unit(self, which: int) -> None:
        """The first (``0``) or last (``-1``) entry of the list's first part: its units,
        groups or warriors, whatever the game calls them (the outline's first node)."""
        first = (self.outline or (None,))[0]
        if first is None:
            return
        target = first.children[which].path if first.children else first.path
        self.goto(target)
        self.scroll_to_line(self.cursor_line)

    def goto(self, path: str) -> bool:
        """Move the cursor to ``path`` or its nearest shown ancestor."""
        for probe in ancestors(path):
            node = self.by_path.get(probe)
            if node is not None:
                parent = node.parent
                while parent is not None:
                    if not parent.is_expanded and parent is not self.root:
                        parent.expand()
                    parent = parent.parent
                if self.cursor_node is not node:
                    _ = self.last_line  # build the lines so the node knows its line
                    self.move_cursor(node)
                return probe == path
        return False

    def current_path(self) -> str:
        node = self.cursor_node
        return node.data if node is not None and node.data is not None else ""

    def node_of(self, path: str) -> OutlineNode | None:
        def find(items: Iterable[OutlineNode]) -> OutlineNode | None:
            for item in items:
                if item.path == path:
                    return item
                found = find(item.children)
                if found is not None:
                    return found
            return None

        return find(self.outline or ())


# --------------------------------------------------------------------------- detail


def detail_text(d: Detail) -> Text:
    text = Text()
    text.append(d.title, style="bold")
    if d.cost:
        text.append(f"   {d.cost}", style="green")
    text.append("\n")
    if d.subtitle:
        text.append(d.subtitle + "\n", style="dim italic")
    if d.stats:
        text.append("\n")
        line = Text()
        for label, value in d.stats:
            piece = f"{label} {value}"
            if line.cell_len + len(piece) + 2 > 60 and line.plain:
                text.append_text(line)
                text.append("\n")
                line = Text()
            line.append(label + " ", style="bold cyan")
            line.append(value + "  ")
        if line.plain:
            text.append_text(line)
            text.append("\n")
    for heading, body in d.sections:
        text.append("\n")
        text.append(heading + "\n", style="bold")
        text.append(body + "\n")
    return text


class DetailPane(VerticalScroll):
    def compose(self):
        yield Static("", id="detail-body", markup=False)

    shown: Text | None = None

    def show(self, content: Text | str) -> None:
        text = safe_text(content, lines=True)
        if self.shown is not None and text.plain == self.shown.plain and text.spans == self.shown.spans:
            return
        self.shown = text
        self.query_one("#detail-body", Static).update(text)
        self.scroll_home(animate=False)


# --------------------------------------------------------------------------- status and findings


STATUS_SEPARATOR = "  │  "


def status_text(items: Sequence[StatusItem], extra: Sequence[tuple[str, str]] = (), width: int | None = None) -> Text:
    """The status bar's items, "  │  " between them.  With ``width`` (the bar's cells), an
    item that would not fit on the line starts the next one: a line never begins with the
    separator, and no item is split across lines unless it is wider than the bar alone."""
    pieces: list[Text] = []
    for item in items:
        piece = Text()
        piece.append(item.label + " ", style="bold")
        piece.append(item.value, style={True: "green", False: "bold red", None: ""}[item.ok])
        pieces.append(safe_text(piece))
    pieces += [safe_text(Text(label, style=style)) for label, style in extra]
    text = Text()
    line = 0  # cells on the current line
    for piece in pieces:
        if text.plain:
            if width is not None and line + len(STATUS_SEPARATOR) + piece.cell_len > width:
                text.append("\n")
                line = 0
            else:
                text.append(STATUS_SEPARATOR, style="dim")
                line += len(STATUS_SEPARATOR)
        text.append_text(piece)
        line += piece.cell_len
    return text


class StatusBar(Static):
    shown: Text | None = None

    def show(self, text: Text, *, lines: bool = False) -> None:
        """Update only on change: an unchanged bar costs nothing to redraw.  ``lines``: the
        text's line feeds are its own (``status_text`` escaped each item already)."""
        text = safe_text(text, lines=lines)
        if self.shown is not None and text.plain == self.shown.plain and text.spans == self.shown.spans:
            return
        self.shown = text
        self.update(text)


def finding_prompt(f: Finding, line: int | None = None, place: str = "") -> Text:
    """The finding, then where it is in words ("Kal-Nur in unit 4, Hammers") and its YAML line."""
    text = Text(no_wrap=False)
    text.append(SEVERITY_MARK[f.severity] + " ", style=SEVERITY_STYLE[f.severity])
    text.append(f.message)
    if f.where or line:
        where = place or f.where
        text.append(f"  — {where}" + (f", line {line}" if line else ""), style="dim")
    return safe_text(text)


class FindingsList(OptionList):
    """Findings of the current list; Enter jumps to the finding's place in the tree."""

    BINDINGS = [Binding("enter", "select", "Go to place", show=True, tooltip="jump to the place in the list where the fix happens")]

    class Jump(Message):
        def __init__(self, finding: Finding) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.findings: list[Finding] = []
        self._with_lines = False

    def show(self, findings: list[Finding], line_of=None, place_of=None) -> None:
        """Show ``findings``; ``line_of(where)`` gives the line in the file, when known,
        ``place_of(where)`` the place in words."""
        with_lines = line_of is not None
        if findings == self.findings and self.option_count and with_lines == self._with_lines:
            return
        self.findings = list(findings)
        self._with_lines = with_lines
        old = self.highlighted
        self.clear_options()
        if findings:

            def line(f: Finding) -> int | None:
                if f.line is not None or line_of is None or not f.where:
                    return f.line
                try:
                    return line_of(f.where)
                except Exception:  # noqa: BLE001 - a position is a hint, never a failure
                    return None

            def place(f: Finding) -> str:
                if place_of is None or not f.where:
                    return ""
                try:
                    return place_of(f.where)
                except Exception:  # noqa: BLE001 - words are a courtesy, the path still shows
                    return ""

            self.add_options([Option(finding_prompt(f, line(f), place(f)), id=str(i)) for i, f in enumerate(findings)])
            self.highlighted = min(old or 0, len(findings) - 1)
        else:
            self.add_option(Option(Text("✔ no findings: the list is legal", style="green"), disabled=True))
        errors = sum(1 for f in findings if f.severity is Severity.ERROR)
        warnings = sum(1 for f in findings if f.severity is Severity.WARNING)
        self.border_title = f"Findings: {plural(errors, 'error')}, {plural(warnings, 'warning')}" if findings else "Findings"

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = event.option_index
        if 0 <= index < len(self.findings):
            self.post_message(self.Jump(self.findings[index]))
