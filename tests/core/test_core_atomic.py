"""Saves keep what others wrote: links, modes, owners, read-only files and concurrent edits."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from armybuilder.cli import main
from armybuilder.core.atomic import SaveConflict, atomic_write_bytes, content_digest
from armybuilder.core.errors import InputError
from armybuilder.core.lists import load_list

SAMPLE = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"


def test_a_symlink_stays_a_link_and_its_target_is_saved(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    atomic_write_bytes(link, b"new\n", content_digest(b"old\n"))
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new\n"


def test_hard_links_stay_one_file(tmp_path):
    a = tmp_path / "a.yaml"
    a.write_bytes(b"old\n")
    b = tmp_path / "b.yaml"
    os.link(a, b)
    atomic_write_bytes(a, b"new, longer content\n")
    assert b.read_bytes() == b"new, longer content\n"
    assert os.stat(a).st_ino == os.stat(b).st_ino and os.stat(a).st_nlink == 2


def test_mode_is_kept(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_bytes(b"old\n")
    path.chmod(0o640)
    atomic_write_bytes(path, b"new\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and path.read_bytes() == b"new\n"


def test_a_read_only_file_is_never_replaced(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_bytes(b"keep me\n")
    path.chmod(0o444)
    before = path.stat().st_ino
    with pytest.raises(InputError, match="read-only"):
        atomic_write_bytes(path, b"replaced\n")
    assert path.read_bytes() == b"keep me\n" and path.stat().st_ino == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a file away")
def test_a_file_of_another_user_keeps_its_owner(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_bytes(b"old\n")
    os.chown(path, 4321, 4321)
    atomic_write_bytes(path, b"new\n")
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (4321, 4321) and path.read_bytes() == b"new\n"


def test_a_changed_file_is_not_overwritten(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_bytes(b"as read\n")
    read = content_digest(b"as read\n")
    path.write_bytes(b"someone else's edit\n")
    with pytest.raises(SaveConflict, match="changed on disk"):
        atomic_write_bytes(path, b"mine\n", read)
    assert path.read_bytes() == b"someone else's edit\n"
    path.unlink()
    with pytest.raises(SaveConflict, match="deleted or moved"):
        atomic_write_bytes(path, b"mine\n", read)
    assert not path.exists()


def test_list_save_detects_a_change_made_after_loading(tmp_path):
    path = tmp_path / "l.yaml"
    path.write_bytes(SAMPLE.read_bytes())
    lf = load_list(path)
    lf.army = lf.army.model_copy(update={"name": "Mine"})
    other = load_list(path)
    other.army = other.army.model_copy(update={"name": "Theirs"})
    other.save()
    with pytest.raises(SaveConflict):
        lf.save()
    assert load_list(path).army.name == "Theirs"
    lf.save(overwrite=True)
    assert load_list(path).army.name == "Mine"
    lf.army = lf.army.model_copy(update={"name": "Mine again"})
    lf.save()  # its own last save is what it expects
    assert load_list(path).army.name == "Mine again"


def test_list_upgrade_refuses_when_the_file_changed_meanwhile(tmp_path, capsys, monkeypatch):
    import armybuilder.core.upgrade as upgrade

    path = tmp_path / "l.yaml"
    path.write_text(SAMPLE.read_text(encoding="utf-8").replace("catalogue: 1.2.0", "catalogue: 1.0.0"), encoding="utf-8")
    real = upgrade.upgrade_impact

    def meanwhile(*args, **kwargs):
        path.write_text(path.read_text(encoding="utf-8") + "# another editor's line\n", encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr(upgrade, "upgrade_impact", meanwhile)
    assert main(["list", "upgrade", str(path)]) == 2
    err = capsys.readouterr().err
    assert "changed on disk" in err and str(path) in err
    assert path.read_text(encoding="utf-8").endswith("# another editor's line\n")
    assert "catalogue: 1.0.0" in path.read_text(encoding="utf-8")


def test_list_upgrade_writes_through_a_symlink(tmp_path, capsys):
    real = tmp_path / "real.yaml"
    real.write_text(SAMPLE.read_text(encoding="utf-8").replace("catalogue: 1.2.0", "catalogue: 1.0.0"), encoding="utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert main(["list", "upgrade", str(link)]) == 0
    assert link.is_symlink()
    assert "catalogue: 1.2.0" in real.read_text(encoding="utf-8")
