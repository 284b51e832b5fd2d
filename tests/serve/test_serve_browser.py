"""``armybuilder serve`` in a real browser: the system's Chromium, driven by Playwright.

A player's evening, end to end: open the printed address, open a bundled sample, make an
edit and see the points change, save, export the roster and receive it as a download whose
fingerprint is the saved list's, download the list, upload it back; the file dialog refuses
a host file. And a browser without the token, or with a wrong one, gets nothing: no page,
no websocket.

Where no Chromium (or no Playwright) is installed these tests are skipped with the reason;
CI installs Debian's chromium (.ci/run) and sets ARMYBUILDER_EXPECT_BROWSER=1, which turns
the skip into a failure.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from serve_browser import CHROMIUM_ARGS, Tab, browser_missing, chromium_path, start_serve

pytestmark = pytest.mark.timeout(600)  # a browser test waits 90 s at most for any one screen


@pytest.fixture(scope="module")
def chromium():
    reason = browser_missing()
    if reason is not None:
        if os.environ.get("ARMYBUILDER_EXPECT_BROWSER"):
            pytest.fail(f"ARMYBUILDER_EXPECT_BROWSER is set but {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


def points(tab: Tab) -> int:
    return int(tab.wait_for(r"A\.P\.\s*(\d+)\s*/\s*1000").group(1))


def fingerprint(path: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "armybuilder", "fingerprint", str(path)],
                         capture_output=True, text=True, check=True, timeout=120)
    return out.stdout.split()[0]


def test_a_player_edits_saves_exports_and_downloads_in_the_browser(chromium, tmp_path):
    served = start_serve(tmp_path / "ws")
    try:
        context = chromium.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
        page = context.new_page()
        tab = Tab(page)
        page.goto(served.address)
        assert page.url == served.base + "/"  # the token left the address bar
        tab.wait_for("Bundled samples")
        (folder,) = served.workspaces.iterdir()

        tab.keys("o")  # a host file through the open dialog: refused
        tab.wait_for("Open a list file")
        tab.type("/etc/passwd")
        tab.keys("Enter")
        tab.wait_for("outside your workspace")
        tab.keys("Escape")
        tab.wait_gone("Open a list file")

        tab.click(tab.wait_for("alahan-lions|Lions of the dawn").group(0))  # the sample, by file or by name
        before = points(tab)
        tab.click("12 × Guard of Alahan")
        tab.type("+")
        tab.wait_for("13 × Guard of Alahan")
        tab.wait_until(lambda: points(tab) == before + 11, "the points counted the new guard")

        tab.keys("Control+s")
        tab.wait_for("Save the list as")
        tab.keys("Enter")
        tab.wait_for("saved alahan-lions.yaml")
        saved = folder / "alahan-lions.yaml"
        assert "13" in saved.read_text(encoding="utf-8")

        tab.keys("x")
        tab.wait_for("PDF roster")
        tab.keys("Enter")
        tab.wait_for(r"exports/alahan-lions\.pdf")  # the file it will write, shown in the workspace
        with page.expect_download(timeout=120_000) as caught:
            tab.keys("Enter")
        roster = caught.value
        assert roster.suggested_filename == "alahan-lions.pdf"
        roster.save_as(tmp_path / "roster.pdf")
        printed = PdfReader(tmp_path / "roster.pdf").pages[0].extract_text()
        assert fingerprint(saved) in printed

        with page.expect_download(timeout=120_000) as caught:
            tab.keys("Control+d")  # the list file itself
        caught.value.save_as(tmp_path / "downloaded.yaml")
        assert (tmp_path / "downloaded.yaml").read_bytes() == saved.read_bytes()

        tab.keys("Control+p")  # and back up again, through the page's upload form
        tab.type("Upload")
        tab.wait_for("Upload a list file")
        tab.keys("Enter")
        page.locator("#upload").wait_for(state="visible")
        page.set_input_files("#upload-file", str(tmp_path / "downloaded.yaml"))
        page.get_by_role("button", name="Upload", exact=True).click()
        page.get_by_text("uploaded as downloaded.yaml").wait_for()
        assert (folder / "downloaded.yaml").read_bytes() == saved.read_bytes()
        page.screenshot(path=str(tmp_path / "upload.png"))
        page.get_by_role("button", name="Close").click()
        context.close()
    finally:
        said = served.stop()
    assert served.process.returncode == 0, said
    assert [p.name for p in served.workspaces.iterdir()] == [folder.name]


def test_a_browser_without_the_token_gets_no_page_and_no_websocket(chromium, tmp_path):
    served = start_serve(tmp_path / "ws")
    try:
        page = chromium.new_context().new_page()
        response = page.goto(served.base + "/")
        assert response is not None and response.status == 401
        assert "A token is needed" in page.content()
        response = page.goto(served.base + "/?token=" + "w" * 32)
        assert response is not None and response.status == 403
        assert "Wrong token" in page.content()
        opened = page.evaluate(
            """url => new Promise(done => {
                const socket = new WebSocket(url);
                socket.onopen = () => done("opened");
                socket.onclose = () => done("refused");
                setTimeout(() => done("no answer in 30 s"), 30000);
            })""",
            re.sub("^http", "ws", served.base) + "/ws",
        )
        assert opened == "refused"
        assert list(served.workspaces.iterdir()) == []  # no workspace, no editor was started
    finally:
        served.stop()
