"""List files: saving through the CLI path keeps what the user wrote, comments included."""

from __future__ import annotations

from pathlib import Path

from armybuilder.core.lists import list_fingerprint, load_list

SAMPLE = Path(__file__).resolve().parents[2] / "catalog" / "ragnarok2" / "samples" / "alahan-lions.yaml"


def test_defaulted_keys_the_user_wrote_survive_a_save(tmp_path):
    text = SAMPLE.read_text(encoding="utf-8")
    assert "\nrituals:" in text or "\ncommunions:" in text
    path = tmp_path / "list.yaml"
    path.write_text(text.rstrip("\n") + "\nnotes: ''  # nothing to say yet\n", encoding="utf-8")
    lf = load_list(path)
    before = list_fingerprint(lf.army, lf.system.catalogue_for(lf.army))
    lf.army = lf.army.model_copy(update={"name": "Renamed lions"})
    lf.save()
    saved = path.read_text(encoding="utf-8")
    assert "notes: ''  # nothing to say yet" in saved
    assert "name: Renamed lions" in saved
    again = load_list(path)
    assert again.army.name == "Renamed lions"
    # The fingerprint ignores defaulted keys: renaming back gives the original code.
    again.army = again.army.model_copy(update={"name": lf.army.name.replace("Renamed lions", load_list(SAMPLE).army.name)})
    assert list_fingerprint(again.army, again.system.catalogue_for(again.army)) == before


def test_unchanged_list_saves_byte_identical(tmp_path):
    path = tmp_path / "list.yaml"
    path.write_bytes(SAMPLE.read_bytes())
    load_list(path).save()
    assert path.read_bytes() == SAMPLE.read_bytes()


def test_new_list_file_spells_out_every_field_and_keeps_them(tmp_path):
    from armybuilder.core.lists import list_content, new_list_file
    from armybuilder.core.registry import get_system

    system = get_system("ragnarok2")
    cat = system.catalogue()
    army = system.new_list(cat, faction="alahan")
    path = tmp_path / "new.yaml"
    new_list_file(army).save(path)
    text = path.read_text(encoding="utf-8")
    for key in ("units: []", "tactics: []", "communions: []", "rituals: []"):
        assert key in text
    loaded = load_list(path)
    assert list_content(loaded.army) == list_content(army)
    loaded.army = loaded.army.model_copy(update={"name": "Dawn"})
    loaded.save()
    assert "units: []" in path.read_text(encoding="utf-8")
