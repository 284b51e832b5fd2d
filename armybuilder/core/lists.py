"""Army-list files: load with positions, edit as models, save keeping the user's layout.

A list file is YAML a person can read and edit.  We keep the round-trip document
beside the validated model: edits happen on the model (immutable snapshots make
undo trivial), and saving merges the model back into the document so comments,
key order and quoting the user wrote survive.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atomic import atomic_write_bytes, content_digest
from .catalog import Catalogue
from .errors import InputError

# locate() and validate_model() answer for round-trip documents and for the read-only
# fast path's positioned ones; the round-trip machinery (ruamel) is imported by the
# functions that edit or save, so `validate` never loads it.
from .fastyaml import locate, validate_model
from .fingerprint import fingerprint
from .organiser import ORGANISER_FIELDS
from .paths import ListPath, PathError
from .registry import get_system
from .system import GameSystem
from .textfile import read_bytes

if TYPE_CHECKING:
    from .system import ArmyListBase

HEADER = "Army list for armybuilder: edit by hand or with `armybuilder edit`."

#: List file format versions this armybuilder reads (the ``armybuilder:`` key).
SUPPORTED_FORMAT_VERSIONS = (1,)


@dataclass
class ListFile:
    path: Path | None
    doc: Any  # the round-trip document as loaded (comments, layout)
    system: GameSystem[Any, Any]
    army: ArmyListBase
    #: content_digest of the bytes last read from or written to ``path``: a save
    #: refuses to overwrite a file that no longer holds them (someone else saved it)
    disk_hash: str | None = None

    @property
    def label(self) -> str:
        return str(self.path) if self.path else "<new list>"

    def content(self) -> dict[str, Any]:
        return list_content(self.army)

    def line_of(self, where: str | ListPath) -> int | None:
        return line_of(self.doc, where)

    def render(self) -> str:
        """The YAML text this list would be saved as."""
        from ruamel.yaml.comments import CommentedMap

        from .yamlio import dump_document, merge_into, new_document

        if isinstance(self.doc, CommentedMap):
            merge_into(self.doc, written_content(self.army, self.doc))
        else:
            self.doc = new_document(self.content(), HEADER)
        return dump_document(self.doc)

    def save(self, path: str | Path | None = None, *, overwrite: bool = False) -> Path:
        """Save (atomically); :class:`~.atomic.SaveConflict` if the file changed since read.

        ``overwrite`` saves over those changes; saving to another file never checks
        (the caller asks before replacing an existing file).
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise InputError.at("this list has no file name yet")
        data = self.render().encode("utf-8")
        expected = None if overwrite or not same_file(target, self.path) else self.disk_hash
        atomic_write_bytes(target, data, expected)
        self.path = target
        self.disk_hash = content_digest(data)
        return target


def same_file(a: Path | None, b: Path | None) -> bool:
    """Whether two paths name one file (symlinks followed; a missing file by its path)."""
    if a is None or b is None:
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def list_content(army: ArmyListBase) -> dict[str, Any]:
    """Canonical content: what is saved, fingerprinted and compared."""
    data = army.model_dump(mode="json", exclude_defaults=True)
    # These identify the list and must always be written, default or not.
    first = ("armybuilder", "system", "catalogue", "house", "format")
    head = {"armybuilder": army.armybuilder, "system": army.system, "catalogue": army.catalogue}
    if "house" in data:  # the house catalogues it uses, beside the bundled pin (only when there are)
        head["house"] = data["house"]
    return {**head, "format": army.format, **{k: v for k, v in data.items() if k not in first}}


def written_content(army: ArmyListBase, doc: Any) -> dict[str, Any]:
    """What a save writes: the canonical content plus every key the user spelled out.

    ``list_content`` leaves out values equal to their default (so fingerprints do not
    depend on them); a key the player typed (``communions: []  # no priest``) would
    then vanish with its comment on the first save.  Keys present in the loaded
    document are kept, with the current model's value.
    """
    content = list_content(army)
    _keep_written(doc, content, army.model_dump(mode="json"))
    return content


def _keep_written(doc: Any, content: Any, full: Any) -> None:
    """Add back to ``content`` the defaulted keys ``doc`` spells out (values from ``full``)."""
    if isinstance(doc, dict) and isinstance(content, dict) and isinstance(full, dict):
        for key in doc:
            if key not in full:
                continue
            if key not in content:
                content[key] = full[key]
            else:
                _keep_written(doc[key], content[key], full[key])
    elif isinstance(doc, list) and isinstance(content, list) and isinstance(full, list):
        for d, c, f in zip(doc, content, full, strict=False):
            _keep_written(d, c, f)


def line_of(doc: Any, where: str | ListPath) -> int | None:
    """The line of ``doc`` (as loaded) holding the place ``where``; None for the list itself."""
    try:
        path = ListPath.parse(where)
    except PathError:
        return None
    if not path:
        return None
    line, _ = locate(doc, path.keys())
    return line


def list_from_doc(doc: Any, label: str, path: Path | None, *, plain: bool = False) -> ListFile:
    """The list file of a loaded document, its model validated (errors at file:line:col).

    ``plain``: read it into the system's plain mirror when pydantic would accept it as
    it is (no pydantic imported: :mod:`.plain`); anything else is validated by pydantic.
    Only for reading: a plain list is never edited or saved.
    """
    if not isinstance(doc, dict):
        raise InputError.at(
            "an army list must be a YAML mapping with at least 'system', 'catalogue' and 'format'",
            label,
            1,
            1,
        )
    _check_format_version(doc, label)
    system_id = doc.get("system")
    if not isinstance(system_id, str):
        line, col = locate(doc, ["system"])
        raise InputError.at("the list does not name its game system ('system: ragnarok2', ...)", label, line, col, "system")
    try:
        system = get_system(system_id)
    except InputError as exc:
        line, col = locate(doc, ["system"])
        raise InputError.at(exc.first.message, label, line, col, "system") from None
    army = system.read_plain(doc) if plain else None
    if army is None:
        army = validate_model(system.list_model, doc, label)
    if not system.source.has_version(army.catalogue):
        line, col = locate(doc, ["catalogue"])
        known = ", ".join(v.version for v in system.source.versions())
        raise InputError.at(
            f"catalogue version {army.catalogue} does not exist for {system.name} (known: {known})",
            label,
            line,
            col,
            "catalogue",
        )
    return ListFile(path, doc, system, army)


def _check_format_version(doc: dict[str, Any], label: str) -> None:
    """Refuse a list written for a format this version does not know (never guess)."""
    if "armybuilder" not in doc:
        return  # hand-written lists may leave it out: the current format is meant
    version = doc["armybuilder"]
    if isinstance(version, int) and not isinstance(version, bool) and version in SUPPORTED_FORMAT_VERSIONS:
        return
    line, col = locate(doc, ["armybuilder"])
    supported = ", ".join(str(v) for v in SUPPORTED_FORMAT_VERSIONS)
    shown = str(version) if len(str(version)) <= 20 else str(version)[:20] + "…"
    if isinstance(version, str):
        shown = f"'{shown}' (a text, not a number)"
    raise InputError.at(
        f"list file format version {shown} is not supported (this armybuilder reads version {supported}); "
        "a newer armybuilder may read it",
        label,
        line,
        col,
        "armybuilder",
    )


def load_list(path: str | Path) -> ListFile:
    from .yamlio import decode_text, parse_text

    p = Path(path)
    data = read_bytes(p)
    lf = list_from_doc(parse_text(decode_text(data, str(p)), str(p)), str(p), p)
    lf.disk_hash = content_digest(data)
    return lf


def read_list(path: str | Path, data: bytes | None = None, *, plain: bool = False) -> ListFile:
    """A list file for reading only (``validate``): libyaml's fast path, same answers.

    ``data``: the file's bytes when the caller has read them already (the findings cache
    keys the answer by them). ``plain``: the list as its plain mirror when it is sound
    (see :func:`list_from_doc`): for commands that only judge and fingerprint it. The
    document holds no comments or layout, so this list must not be saved; edit and save
    through :func:`load_list`.
    """
    from .fastyaml import load_document as load_fast

    p = Path(path)
    return list_from_doc(load_fast(p, data=data), str(p), p, plain=plain)


def parse_list(text: str, label: str = "<text>") -> ListFile:
    from .yamlio import parse_text

    return list_from_doc(parse_text(text, label), label, None)


def new_list_file(army: ArmyListBase, path: Path | None = None) -> ListFile:
    """A new list spells out every field, empty ones too, so a player sees what to fill in.

    The written keys then stay on later saves (``written_content``); fingerprints use
    the canonical content, so they do not depend on them.
    """
    from .yamlio import new_document

    content = list_content(army)
    # the tournament fields stay out until used (docs/list-files.md documents them): a new list is not for an event yet
    # so does an own point limit (``limit``) until the player sets one, and ``house``
    content.update({
        k: v for k, v in army.model_dump(mode="json").items()
        if k not in content and k not in ORGANISER_FIELDS and not (k == "limit" and v is None)
        and not (k == "house" and not v)  # house catalogues appear once the list uses one
    })
    return ListFile(path, new_document(content, HEADER), get_system(army.system), army)


def list_fingerprint(army: ArmyListBase, cat: Catalogue[Any]) -> str:
    """The fingerprint of the army: the organiser fields (player, event, round...) are left out,
    so a list keeps its fingerprint from one round to the next."""
    content = {k: v for k, v in list_content(army).items() if k not in ORGANISER_FIELDS}
    return fingerprint(content, cat.id, cat.version, cat.hash)
