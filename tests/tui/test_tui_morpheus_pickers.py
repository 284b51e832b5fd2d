"""A Morpheus war clan in the editor: its pickers offer only legal choices (show-all greys
the rest with the reason) and the browser, palette and help speak Morpheus, not Rag'Narok 2."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Checkbox, Input, Select

from armybuilder.core.registry import get_system
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.help import help_text
from armybuilder.tui.screens.modals import ActionForm
from armybuilder.tui.session import open_file

R2_WORDS = ("people", "rank", "category", "role")


def _clan(tmp_path: Path) -> Path:
    name, item = get_system("morpheus-ragnarok").source.samples()[0]
    path = tmp_path / Path(name).name
    path.write_bytes(item.read_bytes())
    return path


async def test_morpheus_pickers_and_words(store, tmp_path):
    app = ArmyBuilderApp(open_file(_clan(tmp_path), store), store=store, recovery_delay=3600, offer_recovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        editor = app.screen
        assert any(w.jarl for w in editor.session.army.warriors)  # the sample has its Jarl

        palette = {name for name, _, _ in editor.palette_commands()}
        label = next(n for n in palette if n.startswith("Filter the catalogue"))
        assert "kind" in label and not any(w in label for w in R2_WORDS), label
        placeholder = editor.query_one("#search", Input).placeholder
        assert "rank:" not in placeholder and ":" in placeholder, placeholder
        help_words = help_text(app)
        assert "kind:…" in help_words and "rank:elite" not in help_words

        action = next(a for a in editor.actions_at("warriors") if a.id == "add-warrior")
        editor.run_edit("warriors", action)
        await pilot.pause()
        form = app.screen
        assert isinstance(form, ActionForm)
        select = form.query_one("#p-type", Select)
        labels = [str(prompt) for prompt, _ in select._options]
        assert not any(label.startswith("Jarl") for label in labels)  # a second Jarl is not offered
        form.query_one("#show-all", Checkbox).value = True
        await pilot.pause()
        labels = [str(prompt) for prompt, _ in select._options]
        jarl = next(label for label in labels if label.startswith("Jarl"))
        assert "not allowed" in jarl and "already" in jarl
        assert "nothing allowed" not in str(select.prompt)
