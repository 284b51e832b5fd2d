"""Draw the editor on a bundled sample and save it as the docs' SVG screenshot.

Run with `.venv/bin/python scripts/screenshot.py` after `./scripts/run` or `./scripts/test`
has set up `.venv`; it writes `docs/images/editor.svg` (the picture in README.md and
docs/index.md). Recent lists and recovery copies go to a temporary folder, never yours.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"
OUT = ROOT / "docs" / "images" / "editor.svg"
SIZE = (120, 36)


async def shoot(out: Path) -> None:
    from armybuilder.core.yamlio import decode_text
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.session import open_text
    from armybuilder.tui.storage import Store

    store = Store()
    session = open_text(decode_text(SAMPLE.read_bytes(), str(SAMPLE)), str(SAMPLE), None, store)
    app = ArmyBuilderApp(session, store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        for key in ("down", "down"):  # a unit under the cursor, so the profile panel shows it
            await pilot.press(key)
        await pilot.pause(0.5)
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> int:
    with tempfile.TemporaryDirectory() as data:
        os.environ["ARMYBUILDER_DATA_DIR"] = data
        asyncio.run(shoot(OUT))
    print(OUT, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
