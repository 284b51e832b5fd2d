"""A served session reads and writes only inside its workspace (the editor's workspace mode).

Driven through Textual's Pilot on the served editor (:class:`ServedApp`) with a workspace
active, as ``armybuilder serve`` runs it in each browser tab: every way the editor takes a
path (file dialogs, the new-list form, saves, exports, the meta screen's folder, recent
lists) refuses ``..``, ``~``, absolute paths elsewhere and links that lead out.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from textual.widgets import DirectoryTree, Input, Static

from armybuilder.core.catalog import catalog_root
from armybuilder.core.errors import InputError
from armybuilder.tui import workspace
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.home import HomeScreen, NewListScreen
from armybuilder.tui.screens.modals import Menu, PathPrompt
from armybuilder.tui.served import ServedApp
from armybuilder.tui.session import open_file
from armybuilder.tui.storage import Store

SAMPLE = Path(str(catalog_root())) / "ragnarok2" / "samples" / "alahan-lions.yaml"


@pytest.fixture
def host(tmp_path, monkeypatch) -> dict[str, Path]:
    """A workspace, and beside it a folder of the host's with a list in it; links out."""
    root = tmp_path / "ws"
    outside = tmp_path / "host"
    outside.mkdir()
    shutil.copy(SAMPLE, outside / "secret.yaml")
    root.mkdir()
    shutil.copy(SAMPLE, root / "mine.yaml")
    (root / "link-out.yaml").symlink_to(outside / "secret.yaml")
    (root / "folder-out").symlink_to(outside)
    (root / "inner-link.yaml").symlink_to(root / "mine.yaml")
    monkeypatch.chdir(root)
    workspace.activate(root)
    yield {"root": root.resolve(), "outside": outside, "secret": outside / "secret.yaml"}
    workspace.deactivate()


def served_app(root: Path) -> ServedApp:
    return ServedApp(store=Store(root / workspace.STATE_FOLDER), export_dir=root / "exports", recovery_delay=0.05)


def refused(path: str) -> str:
    with pytest.raises(InputError) as caught:
        workspace.confine(path)
    return str(caught.value)


def test_confine_keeps_paths_inside_and_refuses_every_way_out(host):
    root = host["root"]
    assert workspace.confine("mine.yaml") == root / "mine.yaml"
    assert workspace.confine(str(root / "lists" / "new.yaml")) == root / "lists" / "new.yaml"
    assert workspace.confine("inner-link.yaml") == root / "mine.yaml"  # a link that stays inside
    assert "'..'" in refused("../host/secret.yaml")
    assert "'..'" in refused("lists/../../host/secret.yaml")
    assert "'~'" in refused("~/secret.yaml")
    assert "outside your workspace" in refused("/etc/passwd")
    assert "outside your workspace" in refused(str(host["secret"]))
    assert "leads out of your workspace" in refused("link-out.yaml")
    assert "leads out of your workspace" in refused("folder-out/secret.yaml")
    assert "editor's own files" in refused(".armybuilder/recent.json")
    assert workspace.shown(root / "exports" / "x.pdf") == "exports/x.pdf"
    assert workspace.hide_root(f"{root}/lists/x.yaml:3:1: bad") == "lists/x.yaml:3:1: bad"
    assert workspace.hide_root(f"into {root}, then") == "into ., then"
    assert workspace.hide_root(f"{root}-other/x.yaml") == f"{root}-other/x.yaml"  # another folder: as it is
    assert workspace.max_workers(256) == max(1, min(256, os.cpu_count() or 1))  # the host's cores, shared


def test_without_a_workspace_paths_pass_unchanged(tmp_path):
    assert workspace.active() is None
    assert workspace.confine("../anywhere/x.yaml") == Path("../anywhere/x.yaml")
    assert workspace.shown(tmp_path / "x.yaml") == str(tmp_path / "x.yaml")
    assert workspace.hide_root(f"{tmp_path}/x.yaml:1:1") == f"{tmp_path}/x.yaml:1:1"
    assert workspace.max_workers(256) == 256


async def test_the_open_dialog_shows_and_opens_only_the_workspace(host):
    root = host["root"]
    app = served_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("o")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        tree = prompt.query_one(DirectoryTree)
        assert Path(tree.path).resolve() == root
        await pilot.pause(0.3)
        shown = {str(node.label) for node in tree.root.children}
        assert "mine.yaml" in shown and "inner-link.yaml" in shown
        assert not shown & {".armybuilder", "link-out.yaml", "folder-out"}, shown
        field = prompt.query_one("#path", Input)
        for attempt, why in (
            ("/etc/passwd", "outside your workspace"),
            (str(host["secret"]), "outside your workspace"),
            ("../host/secret.yaml", "'..'"),
            ("link-out.yaml", "leads out"),
            ("folder-out/secret.yaml", "leads out"),
            ("~/.bashrc", "'~'"),
        ):
            field.value = attempt
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is prompt, attempt
            assert why in str(prompt.query_one("#form-error", Static).render()), attempt
        field.value = "mine.yaml"
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.05)
            if isinstance(app.screen, EditorScreen):
                break
        assert isinstance(app.screen, EditorScreen)
        assert app.screen.session.path == root / "mine.yaml"


async def test_saves_and_exports_stay_inside_and_the_host_data_folder_is_untouched(host, tmp_path):
    root = host["root"]
    host_data = tmp_path / "userdata"  # the suite's ARMYBUILDER_DATA_DIR: the terminal editor's
    app = served_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_path(Path("mine.yaml"))
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        session = editor.session
        with pytest.raises(InputError, match="outside your workspace"):
            session.save(host["outside"] / "written.yaml")
        assert not (host["outside"] / "written.yaml").exists()

        editor.action_save_as()
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        assert prompt.query_one("#path", Input).value == "mine.yaml"  # relative: no host folders shown
        for attempt in (str(host["outside"] / "copy.yaml"), "../copy.yaml", "link-out.yaml"):
            prompt.query_one("#path", Input).value = attempt
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is prompt, attempt
        assert sorted(p.name for p in host["outside"].iterdir()) == ["secret.yaml"]
        assert host["secret"].read_bytes() == SAMPLE.read_bytes()
        prompt.query_one("#path", Input).value = "lists-copy.yaml"
        await pilot.press("enter")
        await pilot.pause()
        assert (root / "lists-copy.yaml").is_file()

        editor.ask_export_path("text")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        assert prompt.query_one("#path", Input).value == "exports/lists-copy.txt"
        prompt.query_one("#path", Input).value = "../../roster.txt"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is prompt
        prompt.query_one("#path", Input).value = "exports/lists-copy.txt"
        await pilot.press("enter")
        for _ in range(100):
            await pilot.pause(0.05)
            if (root / "exports" / "lists-copy.txt").is_file():
                break
        assert (root / "exports" / "lists-copy.txt").is_file()

        editor.export("text", host["outside"] / "roster.txt")  # past the dialog: the export itself refuses
        await pilot.pause(0.5)
        assert not (host["outside"] / "roster.txt").exists()

        session.replace(session.army.model_copy(update={"name": "Renamed"}))  # unsaved: a recovery copy
        editor.after_edit(None)
        for _ in range(100):
            await pilot.pause(0.05)
            if list((root / workspace.STATE_FOLDER / "recovery").glob("*.yaml")):
                break
    state = root / workspace.STATE_FOLDER
    assert list((state / "recovery").glob("*.yaml")), "the recovery copy stays in the workspace"
    assert json.loads((state / "preferences.json").read_text())["export_dir"] == str(root / "exports")
    assert [e["path"] for e in json.loads((state / "recent.json").read_text())] == [
        str(root / "lists-copy.yaml"),
        str(root / "mine.yaml"),
    ]
    assert not host_data.exists() or not any(host_data.rglob("*")), "nothing in the host's own data folder"


async def test_new_list_meta_folder_and_recent_lists_stay_inside(host):
    root = host["root"]
    store = Store(root / workspace.STATE_FOLDER)
    store.remember(host["secret"], "planted", "ragnarok2")  # a recent entry that points out
    app = ServedApp(store=store, export_dir=root / "exports")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_path(host["secret"])
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen), "a recent list outside is not opened"

        await pilot.press("n")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewListScreen)
        assert form.query_one("#file", Input).value == "new-army.yaml"
        form.query_one("#file", Input).value = str(host["outside"] / "new.yaml")
        await pilot.click("#ok")
        await pilot.pause()
        assert app.screen is form
        assert "outside your workspace" in str(form.query_one("#form-error", Static).render())
        assert not (host["outside"] / "new.yaml").exists()
        await pilot.press("escape")
        await pilot.pause()

        session = open_file(root / "mine.yaml", store)
        app.open_session(session)
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        editor.action_meta()
        await pilot.pause()
        meta = app.screen
        assert meta.query_one("#mt-folder", Input).value == "."
        meta.query_one("#mt-folder", Input).value = str(host["outside"])
        meta.action_run()
        await pilot.pause()
        assert "outside your workspace" in str(meta.query_one("#mt-message", Static).render())
        assert not meta.running


async def test_the_export_menu_hands_the_file_to_the_browser(host, monkeypatch):
    """In a browser the export is delivered as a download (Textual's deliver_binary)."""
    root = host["root"]
    delivered: list[Path] = []
    app = served_app(root)
    monkeypatch.setattr(type(app), "is_web", property(lambda self: True))
    monkeypatch.setattr(app, "deliver_binary", lambda path, **kw: delivered.append(Path(path)))
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_path(Path("mine.yaml"))
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, Menu)
        await pilot.press("enter")  # the PDF roster
        await pilot.pause()
        assert isinstance(app.screen, PathPrompt)
        await pilot.press("enter")
        for _ in range(200):
            await pilot.pause(0.05)
            if delivered:
                break
        assert delivered == [root / "exports" / "mine.pdf"]
        await pilot.press("ctrl+d")  # the list file itself
        await pilot.pause()
        assert delivered[-1] == root / "mine.yaml"


def on_screen(app: ServedApp) -> str:
    """Every text the current screen shows, and every notification."""
    texts = [str(widget.render()) for widget in app.screen.query(Static)]
    return "\n".join(texts + [str(note.message) for note in app._notifications])


async def test_no_message_shows_the_hosts_folders(host):
    """The browser user sees paths relative to the workspace, in errors too: where the host
    keeps the workspaces is none of their business."""
    root = host["root"]
    (root / "broken.yaml").write_text("system: ragnarok2\narmy: [unclosed\n", encoding="utf-8")
    (root / "exports").mkdir()
    app = served_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.open_path(Path("broken.yaml"))  # an uploaded list that does not parse
        await pilot.pause()
        assert "broken.yaml" in on_screen(app) and str(root) not in on_screen(app)

        await pilot.press("n")  # a new list over an existing file, into a missing folder
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewListScreen)
        for attempt, said in (("mine.yaml", "mine.yaml exists already"), ("no/such.yaml", "no folder no")):
            box = form.query_one("#file", Input)
            box.value = attempt
            box.focus()
            await pilot.press("enter")  # the form applies on Enter (a toast may sit over its buttons)
            await pilot.pause()
            assert said in on_screen(app) and str(root) not in on_screen(app), attempt
        await pilot.press("escape")
        await pilot.pause()

        app.open_path(Path("mine.yaml"))
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        editor.action_save_as()
        await pilot.pause()
        app.screen.query_one("#path", Input).value = "no/such.yaml"
        await pilot.press("enter")
        await pilot.pause()
        assert "no folder no" in on_screen(app) and str(root) not in on_screen(app)
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, Menu)
        assert "into exports (" in on_screen(app) and str(root) not in on_screen(app)
        await pilot.press("enter")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = "exports"
        await pilot.press("enter")
        await pilot.pause()
        assert "exports is a folder" in on_screen(app) and str(root) not in on_screen(app)
        await pilot.press("escape")
        await pilot.pause()

        editor.action_meta()
        await pilot.pause()
        meta = app.screen
        meta.query_one("#mt-folder", Input).value = "mine.yaml"
        meta.action_run()
        await pilot.pause()
        assert "mine.yaml: not a folder" in on_screen(app) and str(root) not in on_screen(app)
