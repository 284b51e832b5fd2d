"""Where the editor keeps its own files: recent lists and recovery copies.

Everything lives under the user's data folder (platformdirs), or under the folder
named by ``ARMYBUILDER_DATA_DIR`` — tests and portable installs point it elsewhere
so a test run never touches a real user's recent lists.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from armybuilder.core.atomic import atomic_write_text

DATA_ENV = "ARMYBUILDER_DATA_DIR"
MAX_RECENT = 12


def data_dir() -> Path:
    """The user data folder (created lazily by the writers, never on read)."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("armybuilder", appauthor=False))


@dataclass(frozen=True)
class RecentList:
    path: str
    name: str
    system: str
    opened: float


@dataclass(frozen=True)
class Recovery:
    """An unsaved state left behind by an editor that did not close cleanly."""

    key: str
    file: Path  # the recovery copy (YAML text of the list)
    path: str | None  # the list's own file, None for a never-saved list
    name: str
    system: str
    written: float
    pid: int
    session: str = ""  # the editing session that wrote it
    started: float | None = None  # when that process started (tells a reused pid apart)
    base: str | None = None  # content hash of the list file that session had read

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.written))


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but belongs to someone else
        return True
    return True


def process_start(pid: int) -> float | None:
    """When process ``pid`` started (clock ticks since boot), where the OS tells (Linux).

    Recorded beside a recovery copy: after a crash the pid may be given to another
    program, which must not make the copy look owned by a live editor forever.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return float(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def _owner_alive(pid: int, started: float | None) -> bool:
    if not _pid_alive(pid):
        return False
    if started is None:
        return True
    now = process_start(pid)
    return now is None or now == started


class Store:
    """Recent lists and recovery copies of one user (one data folder)."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else data_dir()
        # The editor adds a list to the recent lists from a thread after its first paint
        # (Session.remember_later): each read-modify-write of the file is taken whole.
        self._recent_lock = threading.Lock()

    # -- recent lists ----------------------------------------------------------

    @property
    def recent_file(self) -> Path:
        return self.root / "recent.json"

    def recent(self) -> list[RecentList]:
        """Recent lists, newest first; files that disappeared are left out."""
        try:
            raw = json.loads(self.recent_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        out = []
        for item in raw if isinstance(raw, list) else []:
            try:
                entry = RecentList(str(item["path"]), str(item["name"]), str(item["system"]), float(item["opened"]))
            except (KeyError, TypeError, ValueError):
                continue
            if Path(entry.path).is_file():
                out.append(entry)
        return out

    def remember(self, path: Path, name: str, system: str) -> None:
        resolved = str(Path(path).resolve())
        with self._recent_lock:
            entries = [e for e in self.recent() if e.path != resolved]
            entries.insert(0, RecentList(resolved, name, system, time.time()))
            self._write_json(self.recent_file, [e.__dict__ for e in entries[:MAX_RECENT]])

    def forget(self, path: str) -> None:
        with self._recent_lock:
            self._write_json(self.recent_file, [e.__dict__ for e in self.recent() if e.path != path])

    # -- recovery copies -------------------------------------------------------

    @property
    def recovery_dir(self) -> Path:
        return self.root / "recovery"

    @staticmethod
    def recovery_key(path: Path | None, session: str) -> str:
        """One recovery slot per editing session and file.

        Two editors on one file each keep their own copy: neither overwrites nor
        deletes the other's, so a crash of one never costs the other's work.
        """
        basis = f"{Path(path).resolve() if path is not None else 'untitled'}\0{session}"
        return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:20]

    def write_recovery(
        self, key: str, text: str, path: Path | None, name: str, system: str, session: str = "", base: str | None = None
    ) -> Path:
        folder = self.recovery_dir
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{key}.yaml"
        atomic_write_text(target, text)
        meta = {
            "path": str(Path(path).resolve()) if path is not None else None,
            "name": name,
            "system": system,
            "written": time.time(),
            "pid": os.getpid(),
            "started": process_start(os.getpid()),
            "session": session,
            "base": base,
        }
        self._write_json(folder / f"{key}.json", meta)
        return target

    def claim_recovery(self, key: str, session: str) -> None:
        """Mark an orphaned copy as now owned by this process (the player recovered it)."""
        meta_file = self.recovery_dir / f"{key}.json"
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(meta, dict):
            meta.update(pid=os.getpid(), started=process_start(os.getpid()), session=session)
            self._write_json(meta_file, meta)

    def discard_recovery(self, key: str) -> None:
        for suffix in (".yaml", ".json"):
            with contextlib.suppress(OSError):
                (self.recovery_dir / f"{key}{suffix}").unlink()

    def recoveries(self, include_live: bool = False) -> list[Recovery]:
        """Recovery copies whose editor is gone (crashed or killed), newest first.

        Copies owned by another live editor process are skipped: that editor is still
        working on them.  The current process's own copies count as orphaned — an
        editor that is still open in this process removes them itself.
        """
        folder = self.recovery_dir
        if not folder.is_dir():
            return []
        out = []
        for meta_file in folder.glob("*.json"):
            key = meta_file.stem
            file = folder / f"{key}.yaml"
            try:
                meta: dict[str, Any] = json.loads(meta_file.read_text(encoding="utf-8"))
                item = Recovery(
                    key,
                    file,
                    meta.get("path"),
                    str(meta.get("name", "")),
                    str(meta.get("system", "")),
                    float(meta.get("written", 0)),
                    int(meta.get("pid", 0)),
                    str(meta.get("session") or ""),
                    float(meta["started"]) if meta.get("started") is not None else None,
                    str(meta["base"]) if meta.get("base") else None,
                )
            except (OSError, ValueError, TypeError):
                continue
            if not file.is_file():
                continue
            if not include_live and item.pid != os.getpid() and _owner_alive(item.pid, item.started):
                continue
            out.append(item)
        out.sort(key=lambda r: r.written, reverse=True)
        return out

    def recovery_for(self, path: Path, exclude: str = "") -> Recovery | None:
        """The newest copy of ``path`` left by a dead session (``exclude``: a session id)."""
        found = self.recoveries_for(path, exclude)
        return found[0] if found else None

    def recoveries_for(self, path: Path, exclude: str = "") -> list[Recovery]:
        """Every copy of ``path`` left by a dead editor, newest first."""
        resolved = str(Path(path).resolve())
        return [r for r in self.recoveries() if r.path == resolved and (not exclude or r.session != exclude)]

    # -- helpers -----------------------------------------------------------------

    def _write_json(self, target: Path, value: Any) -> None:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, json.dumps(value, indent=1, ensure_ascii=False))
        except Exception:  # noqa: BLE001 - bookkeeping must never stop the editor
            pass
