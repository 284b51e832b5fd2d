"""The editor's files: save, save as (asking before replacing), conflicts with changes on
disk, reload, catalogue upgrade, exports (PDF roster, cards, sheets, text) and the
engine screens (odds, playtest, meta) opened on the list.

A mixin of :class:`~armybuilder.tui.screens.editor.EditorScreen`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.timer import Timer

from armybuilder.core.atomic import SaveConflict
from armybuilder.core.errors import InputError
from armybuilder.core.outputs import as_list_path

from .. import prefs, workspace

if TYPE_CHECKING:
    from ..session import Session

if TYPE_CHECKING:  # the screen the mixin is part of, for the type checker only
    from textual.screen import Screen as _Screen
else:
    _Screen = object

EXPORT_KINDS = (
    ("roster", "PDF roster"),
    ("roster-cards", "PDF roster with reference cards"),
    ("summary", "One-page tournament summary (PDF)"),
    ("summary-text", "One-page tournament summary (text, 80 columns)"),
    ("sheets", "PDF reference sheets of the game"),
    ("text", "Text roster (forums, organisers)"),
)
#: exports that print the list (and its fingerprint): they must match a file on disk
LIST_EXPORTS = frozenset({"roster", "roster-cards", "summary", "summary-text", "text"})
#: printed in place of the fingerprint when the player exports unsaved edits
UNSAVED = "UNSAVED — does not match any file"


class FilesMixin(_Screen):
    """Saving, exporting and the engine screens of the editor screen."""

    session: Session
    _recovery_timer: Timer | None
    refresh_all: Callable[..., None]
    refresh_status: Callable[[], None]
    after_edit: Callable[[str | None], None]
    _remember_edit: Callable[[str], None]

    def action_save(self, then: Callable[[], None] | None = None) -> None:
        from .modals import PathPrompt

        s = self.session
        if s.path is None:
            folder = prefs.lists_dir(self._prefs_root())
            default = str(folder / (s.suggested_name or _slug(s.army.name) + ".yaml"))

            def check(path: Path) -> str | None:
                if not path.parent.is_dir() and path.parent == folder:
                    path.parent.mkdir(parents=True, exist_ok=True)  # the documented default folder
                if not path.parent.is_dir():
                    return f"no folder {workspace.shown(path.parent)}"
                return None

            def chosen(path: Path | None) -> None:
                if path is not None:
                    self._save_as(as_list_path(path), then)  # "my-army" means my-army.yaml

            self.app.push_screen(PathPrompt("Save the list as", default, check), chosen)
            return
        self._save_to(None, then)

    def _save_as(self, path: Path, then: Callable[[], None] | None = None) -> None:
        """Save under ``path``, asking first if that replaces another existing file."""
        from armybuilder.core.lists import same_file

        from .modals import Confirm

        if not (path.exists() or path.is_symlink()) or same_file(path, self.session.path):
            self._save_to(path, then)
            return
        body = Text()
        body.append(workspace.shown(path), style="bold")
        body.append(" exists already. Replace it with this list?")

        def chosen(key: str | None) -> None:
            if key == "replace":
                self._save_to(path, then, overwrite=True)
            elif key == "other":
                self.action_save_as()

        self.app.push_screen(
            Confirm("Replace the file?", body, (("cancel", "Cancel", "primary"), ("replace", "Replace it", "error"), ("other", "Another name…", "default"))),
            chosen,
        )

    def _ask_conflict(self, exc: SaveConflict, then: Callable[[], None] | None) -> None:
        """The file changed since it was read: reload it, overwrite it, or save elsewhere."""
        from .modals import Confirm

        body = Text()
        body.append(str(exc))
        body.append(
            "\n\nReload: take the file as it is now (your edits stay in undo, ctrl+z)."
            "\nOverwrite: replace it with your list (the other changes are lost)."
            "\nSave elsewhere: keep both."
        )

        def chosen(key: str | None) -> None:
            if key == "reload":
                self.action_reload()
            elif key == "overwrite":
                self._save_to(None, then, overwrite=True)
            elif key == "elsewhere":
                self.action_save_as()

        self.app.push_screen(
            Confirm(
                "The file changed on disk",
                body,
                (("elsewhere", "Save elsewhere…", "primary"), ("reload", "Reload", "default"),
                 ("overwrite", "Overwrite", "error"), ("cancel", "Cancel", "default")),
            ),
            chosen,
        )

    def action_reload(self) -> None:
        try:
            self.session.reload()
        except InputError as exc:
            self.notify(str(exc), title="cannot reload", severity="error", markup=False)
            return
        self.refresh_all(self.session.selected)
        self.notify("reloaded from disk (ctrl+z brings your edits back)", markup=False)

    def _save_to(self, path: Path | None, then: Callable[[], None] | None = None, overwrite: bool = False) -> None:
        try:
            target = self.session.save(path, overwrite=overwrite)
        except SaveConflict as exc:
            self._ask_conflict(exc, then)
            return
        except InputError as exc:
            self.notify(str(exc), title="not saved", severity="error", markup=False)
            return
        if self._recovery_timer is not None:
            self._recovery_timer.stop()
            self._recovery_timer = None
        self.refresh_status()
        if path is not None:
            prefs.put("lists_dir", str(Path(target).parent.resolve()), self._prefs_root())
        self.notify(f"saved {workspace.shown(target)}", markup=False)
        if then is not None:
            then()

    def action_save_as(self) -> None:
        from .modals import PathPrompt

        s = self.session
        default = str(s.path) if s.path else str(prefs.lists_dir(self._prefs_root()) / (_slug(s.army.name) + ".yaml"))

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._save_as(as_list_path(path))  # "my-army" means my-army.yaml

        self.app.push_screen(PathPrompt("Save the list as", default, lambda p: None if p.parent.is_dir() else f"no folder {workspace.shown(p.parent)}"), chosen)

    def action_upgrade(self) -> None:
        from armybuilder.core.upgrade import upgrade_impact

        from .modals import Confirm

        s = self.session
        newer = s.newer_version()
        pins = None
        if s.army.house:  # house catalogues move to their installed latest (or their data now)
            from armybuilder.core.errors import InputError
            from armybuilder.core.house_use import latest_pins

            try:
                pins = latest_pins(s.system, s.army)
            except InputError as exc:
                self.notify(f"cannot move the house catalogues: {exc.first.message}", severity="error", markup=False)
                if newer is None:
                    return
                pins = None
        impact = upgrade_impact(s.system, s.army, newer or s.army.catalogue, house=pins)
        if not impact.moves:
            self.notify(f"catalogue {s.army.catalogue} is the latest version" + (" and the house catalogues are as pinned" if s.army.house else ""))
            return
        body = Text("\n".join(impact.lines()))
        moves = [f"catalogue {impact.to_version}"] if impact.from_version != impact.to_version else []
        moves += [f"house catalogue {h}" for h in impact.house]
        what = ", ".join(moves)

        def chosen(key: str | None) -> None:
            if key == "yes":
                s.replace(impact.moved, s.selected)
                self._remember_edit(f"Upgrade to {what}")
                self.after_edit(s.selected)
                self.notify(f"list moved to {what} (ctrl+z to undo)")

        self.app.push_screen(
            Confirm(f"Upgrade to {what}?", body, (("yes", "Upgrade", "primary"), ("no", "Keep", "default"))),
            chosen,
        )

    def _prefs_root(self):
        return getattr(getattr(self.app, "store", None), "root", None)

    def export_folder(self) -> Path:
        return prefs.export_dir(Path(getattr(self.app, "export_dir", Path("exports"))), self._prefs_root())

    def export_target(self, kind: str, folder: Path | None = None) -> Path:
        """The file an export of ``kind`` writes (shown in full before writing)."""
        s = self.session
        folder = folder or self.export_folder()
        stem = s.path.stem if s.path else _slug(s.army.name)
        name = {
            "sheets": f"{s.system.id}-sheets.pdf",
            "text": f"{stem}.txt",
            "roster-cards": f"{stem}-cards.pdf",
            "summary": f"{stem}-summary.pdf",
            "summary-text": f"{stem}-summary.txt",
        }.get(kind, f"{stem}.pdf")
        return folder / name

    def action_export(self) -> None:
        from .modals import Menu

        def chosen(key: str | None) -> None:
            if key is not None:
                self.export_checked(key)

        folder = self.export_folder()
        self.app.push_screen(
            Menu("Export", [(k, label) for k, label in EXPORT_KINDS], f"into {workspace.shown(folder)} (the next step shows the file and lets you change it)"),
            chosen,
        )

    def action_export_summary(self) -> None:
        """The one-page tournament summary (PDF), straight from its key."""
        self.export_checked("summary")

    def export_checked(self, kind: str) -> None:
        """Export ``kind``; a printed list must match the file: with unsaved edits, ask to
        save first (the fingerprint then matches the saved file) or to print it marked
        UNSAVED in place of the fingerprint."""
        s = self.session
        if kind not in LIST_EXPORTS or not s.dirty:
            self.ask_export_path(kind)
            return
        from .modals import Confirm

        body = Text()
        body.append("The list has edits that are not saved. ", style="bold")
        body.append(
            "The fingerprint printed on a roster is what the organiser checks against your file "
            "(armybuilder fingerprint), so it must be the file's.\n\n"
            "Save and export: save the list, then export it (the fingerprints match).\n"
            f"Export unsaved: print \"{UNSAVED}\" in place of the fingerprint."
        )

        def chosen(key: str | None) -> None:
            if key == "save":
                self.action_save(then=lambda: self.ask_export_path(kind))
            elif key == "unsaved":
                self.ask_export_path(kind, unsaved=True)

        self.app.push_screen(
            Confirm(
                "Save before exporting?",
                body,
                (("save", "Save and export", "primary"), ("unsaved", "Export unsaved", "warning"), ("cancel", "Cancel", "default")),
            ),
            chosen,
        )

    def ask_export_path(self, kind: str, unsaved: bool = False) -> None:
        """Show the full target path; the player may change it. The folder is remembered."""
        from .modals import PathPrompt

        def check(path: Path) -> str | None:
            if path.is_dir():
                return f"{workspace.shown(path)} is a folder: add a file name"
            return None

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            path = path.resolve()
            prefs.put("export_dir", str(path.parent), self._prefs_root())
            self.confirm_export(kind, path, unsaved)

        label = dict(EXPORT_KINDS)[kind]
        self.app.push_screen(
            PathPrompt(
                f"Export: {label}", str(self.export_target(kind).resolve()), check,
                hint="enter writes the file; edit the path to choose another folder or name",
            ),
            chosen,
        )

    def confirm_export(self, kind: str, path: Path, unsaved: bool = False) -> None:
        """Export to ``path``, asking first when that replaces a file: in stronger words when
        the file is the list itself or a .yaml file (core/outputs.py)."""
        from armybuilder.core.outputs import output_conflict

        from .modals import Confirm

        conflict = output_conflict(path, [self.session.path] if self.session.path else [])
        if conflict is None and not path.exists():
            self.export(kind, path, unsaved=unsaved)
            return
        body = Text()
        body.append(workspace.shown(path), style="bold")
        body.append(f": {conflict}. Write the export there anyway?" if conflict else " exists already. Replace it with the export?")

        def answered(key: str | None) -> None:
            if key == "replace":
                self.export(kind, path, unsaved=unsaved)
            elif key == "other":
                self.ask_export_path(kind, unsaved=unsaved)

        title = "Replace a list file?" if conflict else "Replace the file?"
        self.app.push_screen(
            Confirm(title, body, (("cancel", "Cancel", "primary"), ("replace", "Replace it", "error"), ("other", "Another name…", "default"))),
            answered,
        )

    def export(self, kind: str, target: Path | None = None, unsaved: bool = False) -> None:
        """Render in a worker thread (ReportLab takes a moment) and notify the path.

        ``unsaved``: the list differs from its file; the roster prints :data:`UNSAVED` in
        place of the fingerprint and says so first, and so does the message.
        """
        import dataclasses

        from armybuilder.core.system import Paragraph

        s = self.session
        army, system, cat = s.army, s.system, s.cat
        out = target or self.export_target(kind)
        paper = getattr(self.app, "paper", "A4")
        unsaved = unsaved and kind in LIST_EXPORTS

        def work() -> Path:
            from armybuilder.core.lists import list_fingerprint

            workspace.confine(out)
            out.parent.mkdir(parents=True, exist_ok=True)
            if kind == "sheets":
                from armybuilder.pdf.sheets import write_sheets

                write_sheets(system.sheets(cat), out, paper=paper)
                return out
            roster = system.roster(army, cat, UNSAVED if unsaved else list_fingerprint(army, cat))
            if unsaved:
                warning = Paragraph(f"{UNSAVED}: this list has edits that were not saved; save it and export again", "error")
                roster = dataclasses.replace(roster, fingerprint=UNSAVED, blocks=(warning, *roster.blocks))
            if kind in ("summary", "summary-text"):
                from armybuilder.core.summary import build_summary, render_summary_text

                summary = build_summary(system, army, cat, roster)
                if unsaved:
                    summary = dataclasses.replace(summary, status=f"{UNSAVED} · {summary.status}", fingerprint=UNSAVED)
                if kind == "summary-text":
                    from armybuilder.core.atomic import atomic_write_text

                    atomic_write_text(out, render_summary_text(summary))
                    return out
                from armybuilder.pdf.summary import write_summary

                write_summary(summary, out, paper=paper)
                return out
            if kind == "text":
                from armybuilder.core.atomic import atomic_write_text
                from armybuilder.core.text_roster import render_text

                atomic_write_text(out, render_text(roster))
                return out
            from armybuilder.pdf.roster import write_roster

            write_roster(roster, system.cards(army, cat) if kind == "roster-cards" else None, out, paper=paper)
            return out

        def run() -> None:
            try:
                out = work()
            except Exception as exc:  # noqa: BLE001 - any failure becomes a visible message
                self.app.call_from_thread(
                    self.notify, f"export failed: {type(exc).__name__}: {exc}", severity="error", markup=False
                )
                return
            shown = workspace.shown(out.resolve())
            if unsaved:
                self.app.call_from_thread(
                    self.notify, f"exported {shown}: {UNSAVED} (save, then export again)",
                    title="Exported UNSAVED", severity="warning", markup=False, timeout=12,
                )
            else:
                self.app.call_from_thread(self.notify, f"exported {shown}", title="Export done", markup=False, timeout=10)
            self.app.call_from_thread(self.app.exported, out)  # type: ignore[attr-defined]

        self.notify("exporting…")
        self.run_worker(run, thread=True, group="export", name=f"export-{kind}")

    def set_paper(self, paper: str) -> None:
        self.app.paper = paper  # type: ignore[attr-defined]
        self.notify(f"PDF exports now use {paper} paper")

    def _external_screen(self, module: str) -> Any:
        """The Screen class of a panel opened from the editor, imported when first opened
        (the editor starts without them); None for a panel this build does not have."""
        if module == "odds":
            from .odds import OddsScreen

            return OddsScreen
        if module == "playtest":
            from .playtest import PlaytestScreen

            return PlaytestScreen
        if module == "meta":
            from .meta import MetaScreen

            return MetaScreen
        if module == "suggest":
            from .suggest import SuggestScreen

            return SuggestScreen
        return None

    def action_odds(self) -> None:
        # the odds screen starts on the unit under the cursor and follows the list as it is edited
        self._open_external("odds", "odds panel", follow=True)

    def action_playtest(self) -> None:
        self._open_external("playtest", "playtest screen")

    def action_meta(self) -> None:
        self._open_external("meta", "meta screen")

    def action_suggest(self) -> None:
        screen_class = self._external_screen("suggest")
        if screen_class is None:
            self.notify("the suggest screen is not available in this build", severity="warning")
            return
        s = self.session
        self.app.push_screen(screen_class(s.system, s.army, s.cat, path=s.path, on_apply=self._apply_suggestion))

    def _apply_suggestion(self, base: Any, edit: Any) -> None:
        """A suggestion chosen on the Suggest screen: one undoable edit, if the list is still the one
        it was found for."""
        if self.session.army != base:
            self.notify("the list changed since the suggestions were found: run them again", severity="warning")
            return
        try:
            self.apply(edit.path, edit.action, dict(edit.args))  # type: ignore[attr-defined]
        except ValueError as exc:
            self.notify(f"not applied: {exc}", severity="error", markup=False)
            return
        self.notify(f"applied: {edit.words} (ctrl+z undoes it)", markup=False, timeout=8)

    def _open_external(self, module: str, what: str, follow: bool = False) -> None:
        screen_class = self._external_screen(module)
        if screen_class is None:
            self.notify(f"the {what} is not available in this build", severity="warning")
            return
        s = self.session
        try:
            self.app.push_screen(screen_class(s.system, s.army, s.cat, session=s) if follow else screen_class(s.system, s.army, s.cat))
        except Exception as exc:  # noqa: BLE001 - a broken panel must not lose the list
            self.notify(f"cannot open the {what}: {exc}", severity="error", markup=False)

    def action_close_list(self) -> None:
        self.app.close_editor(self)  # type: ignore[attr-defined]


def _slug(name: str) -> str:
    import re

    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "army-list"
