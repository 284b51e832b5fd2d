"""The state of one list being edited: current model, undo/redo, save, recovery.

Kept free of Textual so the editing logic can be tested and benchmarked on its own.
List models are treated as immutable values: every edit produces a new model and the
previous one is pushed on the undo stack, so undo is a pointer move, never a re-parse.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from armybuilder.core.atomic import atomic_write_bytes, content_digest
from armybuilder.core.catalog import Catalogue
from armybuilder.core.errors import InputError
from armybuilder.core.findings import Finding, sort_findings
from armybuilder.core.lists import (
    HEADER,
    ListFile,
    list_from_doc,
    load_list,
    new_list_file,
    same_file,
    written_content,
)
from armybuilder.core.system import ArmyListBase, GameSystem
from armybuilder.core.textfile import read_bytes
from armybuilder.core.upgrade import newer_version, newer_version_finding
from armybuilder.core.yamlio import decode_text, dump_document, merge_into, new_document, parse_text

from . import workspace
from .storage import Store

MAX_UNDO = 500


@dataclass(frozen=True)
class Snapshot:
    army: ArmyListBase
    selected: str


@dataclass
class Session:
    listfile: ListFile
    store: Store | None = None
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    selected: str = ""
    suggested_name: str = ""  # file name offered by "save as" (a sample's own name)
    #: opened from a recovery copy: its first undo step goes back to the file on disk
    recovered: bool = False

    def __post_init__(self) -> None:
        self.army: ArmyListBase = self.listfile.army
        self.saved_army: ArmyListBase | None = self.listfile.army if self.listfile.path else None
        self.undo_stack: list[Snapshot] = []
        self.redo_stack: list[Snapshot] = []
        self.recovery_key = Store.recovery_key(self.listfile.path, self.session_id)
        # True once the copy in our slot is ours (written by us, or the one we recovered);
        # a crash copy the player chose to keep for later is never deleted behind his back
        self.owns_recovery = False
        # render() merges into the round-trip document: the recovery writer (a worker
        # thread) and a save must not do it at the same time
        self._render_lock = threading.RLock()
        # (list, catalogue hash, findings): a house catalogue may change under the same list
        self._findings_cache: tuple[ArmyListBase, str, list[Finding]] | None = None
        # opened for the editor's start: added to the recent lists once drawn (remember_later)
        self.remember_pending = False

    def remember_later(self) -> None:
        """Add the list to the recent lists in a thread of its own.

        Bookkeeping the player does not see, kept out of the editor's start: the recent
        lists are saved atomically (fsync of the file and its folder), ~20 ms of waiting
        on a shared disk. Not a daemon thread: a program leaving at once still finishes
        the write.
        """
        if not self.remember_pending or self.store is None or self.path is None:
            return
        self.remember_pending = False
        threading.Thread(
            target=self.store.remember, args=(self.path, self.army.name, self.system.id), name="remember-list"
        ).start()

    # -- derived ---------------------------------------------------------------------

    @property
    def system(self) -> GameSystem:
        return self.listfile.system

    @property
    def path(self) -> Path | None:
        return self.listfile.path

    @property
    def cat(self) -> Catalogue:
        """The catalogue the current list is pinned to (resolved versions are cached)."""
        return self.system.catalogue_for(self.army)

    def catalogue_check(self) -> None:
        """Resolve the pinned catalogue now, so its errors surface before the editor opens."""
        _ = self.cat

    @property
    def dirty(self) -> bool:
        return self.saved_army is None or self.army != self.saved_army

    def findings(self) -> list[Finding]:
        """Validation of the current list, plus a cheap note when a newer catalogue exists.

        The full upgrade impact (two validations and a catalogue diff) is computed only
        when the player opens the upgrade dialog, keeping edits fast.
        """
        cat = self.cat
        if self._findings_cache is not None and self._findings_cache[0] is self.army and self._findings_cache[1] == cat.hash:
            return self._findings_cache[2]
        found = list(self.system.validate(self.army, cat))
        newer = newer_version_finding(self.system, self.army, impact=False)
        if newer is not None:
            found.append(newer)
        if self.army.house:  # which house catalogues the list uses, or why it cannot
            from armybuilder.core.house_use import house_findings

            found += house_findings(self.system, self.army, cat)
        found = sort_findings(found)
        self._findings_cache = (self.army, cat.hash, found)
        return found

    def newer_version(self) -> str | None:
        return newer_version(self.system, self.army)

    # -- edits -----------------------------------------------------------------------------

    def apply(self, path: str, action: str, args: dict[str, Any]) -> str:
        """Apply one edit of the protocol; returns the path to select. ValueError if refused."""
        new, select = self.system.apply(self.army, self.cat, path, action, args)
        self.replace(new, select)
        return select

    def replace(self, army: ArmyListBase, select: str | None = None) -> None:
        """Make ``army`` the current list, remembering the previous one for undo."""
        if army == self.army:
            if select is not None:
                self.selected = select
            return
        self.undo_stack.append(Snapshot(self.army, self.selected))
        del self.undo_stack[:-MAX_UNDO]
        self.redo_stack.clear()
        self.army = army
        if select is not None:
            self.selected = select

    def undo(self) -> bool:
        if not self.undo_stack:
            return False
        self.redo_stack.append(Snapshot(self.army, self.selected))
        snap = self.undo_stack.pop()
        self.army, self.selected = snap.army, snap.selected
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        self.undo_stack.append(Snapshot(self.army, self.selected))
        snap = self.redo_stack.pop()
        self.army, self.selected = snap.army, snap.selected
        return True

    # -- files -------------------------------------------------------------------------------

    def content(self) -> dict[str, Any]:
        """What is written: the canonical content, plus every key the user wrote himself.

        ``list_content`` leaves out values equal to their default; a key the player
        typed (``communions: []  # no priest``) would then vanish with its comment on
        the first save.  Keys present in the loaded document are therefore kept, with
        the current model's value.
        """
        return written_content(self.army, self.listfile.doc)

    def render(self, army: ArmyListBase | None = None) -> str:
        """The YAML text of the current list (the user's comments and layout kept)."""
        with self._render_lock:
            army = army if army is not None else self.army
            self.listfile.army = army
            doc = self.listfile.doc
            content = written_content(army, doc)
            if isinstance(doc, CommentedMap):
                merge_into(doc, content)
            else:
                self.listfile.doc = new_document(content, HEADER)
            return dump_document(self.listfile.doc)

    def save(self, path: Path | None = None, *, overwrite: bool = False) -> Path:
        """Atomic save; the recovery copy is dropped once the list is safely on disk.

        Saving to the list's own file refuses (``SaveConflict``) when the file changed
        since it was read or last saved, unless ``overwrite``: the editor then asks
        whether to reload, overwrite or save elsewhere.
        """
        with self._render_lock:
            old_key = self.recovery_key
            target = Path(path) if path is not None else self.listfile.path
            if target is None:
                raise InputError.at("this list has no file name yet")
            target = workspace.confine(target) if workspace.active() else target
            army = self.army
            data = self.render(army).encode("utf-8")
            checked = not overwrite and same_file(target, self.listfile.path)
            atomic_write_bytes(target, data, self.listfile.disk_hash if checked else None)
            self.listfile.path = target
            self.listfile.disk_hash = content_digest(data)
            self.saved_army = army
            if self.store is not None:
                if self.owns_recovery:
                    self.store.discard_recovery(old_key)
                self.store.remember(target, army.name, self.system.id)
            self.owns_recovery = False
            self.recovery_key = Store.recovery_key(target, self.session_id)
            return target

    def reload(self) -> None:
        """Take the file as it is on disk now; the edits made here stay undoable (ctrl+z)."""
        if self.listfile.path is None:
            raise InputError.at("this list has no file to reload")
        fresh = load_list(self.listfile.path)
        with self._render_lock:
            self.listfile.doc = fresh.doc
            self.listfile.disk_hash = fresh.disk_hash
            self.replace(fresh.army)
            self.saved_army = fresh.army
            self.listfile.army = fresh.army

    def write_recovery(self) -> Path | None:
        """Write the unsaved state to the recovery copy of the session (nothing if clean).

        Safe to call from a worker thread: the list models are immutable values and
        the document is only touched under the render lock.
        """
        if self.store is None:
            return None
        with self._render_lock:
            if not self.dirty:
                self.discard_recovery()
                return None
            army = self.army
            self.owns_recovery = True
            return self.store.write_recovery(
                self.recovery_key, self.render(army), self.path, army.name, self.system.id, self.session_id,
                self.listfile.disk_hash,
            )

    def discard_recovery(self) -> None:
        with self._render_lock:
            if self.store is not None and self.owns_recovery:
                self.store.discard_recovery(self.recovery_key)
                self.owns_recovery = False


# --------------------------------------------------------------------------- opening


def open_file(path: Path, store: Store | None = None, remember: bool = True) -> Session:
    """The list at ``path``, added to the recent lists now (``remember``) or by
    :meth:`Session.remember_later` once the editor is drawn."""
    session = Session(load_list(path), store)
    if store is not None:
        if remember:
            store.remember(path, session.army.name, session.system.id)
        else:
            session.remember_pending = True
    return session


def open_text(text: str, label: str, path: Path | None, store: Store | None = None) -> Session:
    """A list from text (a bundled sample or a recovery copy); ``path`` is where it saves."""
    lf = list_from_doc(parse_text(text, label), label, path)
    return Session(lf, store, suggested_name=Path(label).name if label.endswith((".yaml", ".yml")) else "")


def open_recovery(recovery_file: Path, path: Path | None, store: Store | None = None, base: str | None = None) -> Session:
    """The recovered state, unsaved (dirty) and bound to the list's own file.

    ``base`` is the hash of the file the crashed editor had read: if the file changed
    since (another editor saved it), saving the recovered list asks first.
    """
    text = decode_text(read_bytes(recovery_file), str(recovery_file))
    session = open_text(text, str(recovery_file), path, store)
    session.listfile.disk_hash = base
    session.saved_army = None
    session.recovered = True
    if path is not None and path.is_file():
        try:
            session.saved_army = load_list(path).army
        except Exception:  # noqa: BLE001 - the file on disk may be the broken one
            session.saved_army = None
    if session.saved_army is not None and session.saved_army != session.army:
        # the recovered edits are one undo step: ctrl+z gives back the list as on disk
        session.undo_stack.append(Snapshot(session.saved_army, ""))
    return session


def new_session(
    system: GameSystem, faction: str | None, format: str | None, name: str, path: Path | None, store: Store | None = None,
    limit: int | None = None,
) -> Session:
    """A new list; ``limit`` is the player's own point limit in place of the format's."""
    from armybuilder.core.house_use import new_list_catalogue

    # a faction offered by a house catalogue ("yllia@wolfen-of-yllia") pins that catalogue
    faction, pins, cat = new_list_catalogue(system, faction)
    army = system.new_list(cat, faction=faction, format=format, name=name, limit=limit)
    if pins:
        army = type(army).model_validate({**army.model_dump(), "house": pins})
    return Session(new_list_file(army, path), store)
