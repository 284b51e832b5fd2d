"""Saves on a full disk and saves killed half way never leave a half-written list.

The disk is a real one: a small tmpfs mounted for the test where the test may mount
(root, as CI runs), filled to the last block.  Where no file system can be mounted, the
same scenarios run in a child process whose file size limit (``RLIMIT_FSIZE``) makes the
kernel refuse the write past it, which the save meets the same way (a write that fails
half way).  ``kill -9`` is sent to a child process paused in the middle of its write.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from armybuilder.core.atomic import atomic_write_bytes
from armybuilder.core.errors import InputError
from armybuilder.core.inplace import recover, safety_copy_path
from armybuilder.core.textfile import read_bytes

SAMPLE = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"
DISK = 256 * 1024


@contextlib.contextmanager
def _tmpfs(folder: Path, size: int):
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", f"ab-{uuid.uuid4().hex[:8]}", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.fixture
def disk(tmp_path):
    """A real file system of DISK bytes, or None where none can be mounted."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        yield None
        return
    with _tmpfs(tmp_path / "disk", DISK) as folder:
        yield folder


def _fill(folder: Path, leave: int) -> None:
    """Fill ``folder``'s file system until about ``leave`` bytes are free."""
    free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
    with open(folder / "filler", "wb") as handle:
        with contextlib.suppress(OSError):
            handle.write(b"\0" * max(0, free - leave))
            handle.flush()
    assert os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize <= leave + 4096


def _linked(folder: Path, data: bytes) -> tuple[Path, Path]:
    a, b = folder / "lions.yaml", folder / "lions-link.yaml"
    a.write_bytes(data)
    os.link(a, b)
    return a, b


OLD = SAMPLE.read_bytes()
NEW = OLD.replace(b"name: Lions of the dawn", b"name: Lions of the long dusk") * 12  # well past one block


def _scenarios(folder: Path) -> None:
    """Every case of a save meeting a full disk; each leaves the old bytes, and says so."""
    # 1. no room even for the safety copy: a hard-linked file is refused untouched
    a, b = _linked(folder, OLD)
    _fill(folder, 0)
    with pytest.raises(InputError, match="not saved: the disk is full.*the file is unchanged"):
        atomic_write_bytes(a, NEW)
    assert a.read_bytes() == OLD and b.read_bytes() == OLD and os.stat(a).st_nlink == 2
    assert not safety_copy_path(a).exists() and sorted(p.name for p in folder.iterdir()) == ["filler", "lions-link.yaml", "lions.yaml"]
    # 2. room for the copy but not for the longer text: the reservation fails, nothing written
    (folder / "filler").unlink()
    _fill(folder, len(OLD) + 16384)
    with pytest.raises(InputError, match="not saved: the disk is full.*more bytes were needed; the file is unchanged"):
        atomic_write_bytes(a, NEW)
    assert a.read_bytes() == OLD and b.read_bytes() == OLD and not safety_copy_path(a).exists()
    # 3. the same on a file with one link: the temporary copy fails, the rename never happens
    os.unlink(b)
    with pytest.raises(InputError, match="not saved: the disk is full; the file is unchanged"):
        atomic_write_bytes(a, NEW)
    assert a.read_bytes() == OLD and sorted(p.name for p in folder.iterdir()) == ["filler", "lions.yaml"]
    # 4. room again: the linked save goes through, both names see it
    (folder / "filler").unlink()
    os.link(a, b)
    atomic_write_bytes(a, NEW)
    assert a.read_bytes() == NEW == b.read_bytes() and os.stat(a).st_ino == os.stat(b).st_ino


def test_a_full_disk_never_leaves_a_half_written_list(disk, tmp_path):
    if disk is not None:
        _scenarios(disk)
        return
    # No file system to mount: the kernel's file size limit stands in for the full disk.
    folder = tmp_path / "limited"
    folder.mkdir()
    script = textwrap.dedent(f"""
        import resource, signal, sys
        from pathlib import Path
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({len(OLD) + 8192}, resource.RLIM_INFINITY))
        from armybuilder.core.atomic import atomic_write_bytes
        from armybuilder.core.errors import InputError
        a = Path({str(folder)!r}) / "lions.yaml"
        try:
            atomic_write_bytes(a, {NEW!r})
        except InputError as exc:
            print(exc)
    """)
    a, b = _linked(folder, OLD)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "not saved" in done.stdout and "the file is unchanged" in done.stdout, done.stdout + done.stderr
    assert a.read_bytes() == OLD == b.read_bytes() and not safety_copy_path(a).exists()


#: A child that saves ``NEW`` over a file and stops half way through the write it is
#: told to stop in (``os.pwrite`` for the in-place rewrite, ``write`` of the temporary
#: file for a rename), telling the parent, which then kills it.
KILLED = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from armybuilder.core.atomic import atomic_write_bytes
    target, where, new = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]).read_bytes()

    def stop():
        sys.stdout.write("stopped\\n"); sys.stdout.flush()
        time.sleep(120)

    if where == "in-place":
        real = os.pwrite
        def pwrite(fd, data, offset):
            if len(data) == len(new):  # the new text (not the safety copy's read back)
                real(fd, bytes(data[: len(data) // 2]), offset)
                stop()
            return real(fd, data, offset)
        os.pwrite = pwrite
    else:
        import tempfile
        made = tempfile.mkstemp
        def mkstemp(*args, **kwargs):
            fd, name = made(*args, **kwargs)
            os.write(fd, new[: len(new) // 2])
            stop()
            return fd, name
        tempfile.mkstemp = mkstemp
    atomic_write_bytes(target, new)
""")


def _kill_during_write(tmp_path: Path, where: str, linked: bool) -> Path:
    a = tmp_path / "lions.yaml"
    a.write_bytes(OLD)
    if linked:
        os.link(a, tmp_path / "lions-link.yaml")
    (tmp_path / "new.bin").write_bytes(NEW)
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(a), where, str(tmp_path / "new.bin")],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "stopped\n"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    return a


def test_kill_9_in_the_middle_of_an_in_place_rewrite_is_undone_by_the_next_reader(tmp_path):
    a = _kill_during_write(tmp_path, "in-place", linked=True)
    torn = a.read_bytes()
    assert torn not in (OLD, NEW) and safety_copy_path(a).exists()  # the kill did land mid-write
    assert read_bytes(a) == OLD  # any reader of list files puts the old bytes back first
    assert (tmp_path / "lions-link.yaml").read_bytes() == OLD and os.stat(a).st_nlink == 2
    assert not safety_copy_path(a).exists()


def test_kill_9_then_a_save_finds_the_old_list_and_saves_over_it(tmp_path):
    from armybuilder.core.atomic import content_digest

    a = _kill_during_write(tmp_path, "in-place", linked=True)
    atomic_write_bytes(a, NEW, content_digest(OLD))  # the editor's save: it read OLD
    assert a.read_bytes() == NEW == (tmp_path / "lions-link.yaml").read_bytes()
    assert not safety_copy_path(a).exists()


def test_kill_9_during_a_rename_save_leaves_the_old_file(tmp_path):
    a = _kill_during_write(tmp_path, "rename", linked=False)
    assert a.read_bytes() == OLD


def test_a_finished_rewrite_whose_copy_was_not_removed_is_kept(tmp_path):
    """Killed after the write, before the safety copy went: the new bytes are whole."""
    a, _ = _linked(tmp_path, OLD)
    copy = safety_copy_path(a)
    atomic_write_bytes(a, NEW)
    import hashlib
    import json

    info = os.stat(a)
    header = {"old": hashlib.sha256(OLD).hexdigest(), "new": hashlib.sha256(NEW).hexdigest(), "size": len(OLD),
              "dev": info.st_dev, "ino": info.st_ino}
    copy.write_bytes(json.dumps(header).encode() + b"\n" + OLD)
    assert recover(a) is False and a.read_bytes() == NEW and not copy.exists()


def test_a_safety_copy_that_is_not_ours_is_ignored(tmp_path):
    a, _ = _linked(tmp_path, OLD)
    copy = safety_copy_path(a)
    for junk in (b"", b"{}\n", b'{"old": "0"}\n' + NEW, b"\xff" * 100):
        copy.write_bytes(junk)
        assert recover(a) is False and a.read_bytes() == OLD and copy.read_bytes() == junk
    copy.unlink()
    os.mkfifo(copy)  # a FIFO in its place is never opened for a blocking read
    assert recover(a) is False and read_bytes(a) == OLD
