"""Where house catalogues live (:mod:`.house`): standard library only, so the findings
cache can put their files in its key without loading any catalogue code."""

from __future__ import annotations

import os
from pathlib import Path

#: Folders of house catalogues, separated as PATH is (``--catalog DIR`` adds to it).
PATH_ENV = "ARMYBUILDER_CATALOG_PATH"
#: The user data folder's override (the editor's storage reads the same variable).
DATA_ENV = "ARMYBUILDER_DATA_DIR"
#: The subfolder of the user data folder holding installed house catalogues.
USER_SUBFOLDER = "catalogues"


def user_folder() -> Path:
    """``<user data folder>/catalogues``: where a player installs house catalogues."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override) / USER_SUBFOLDER
    import platformdirs

    return Path(platformdirs.user_data_dir("armybuilder", appauthor=False)) / USER_SUBFOLDER


def search_folders() -> list[Path]:
    """The folders searched for house catalogues, first found first: those named by
    ``--catalog`` / :data:`PATH_ENV`, then the user's own."""
    named = [Path(p).expanduser() for p in os.environ.get(PATH_ENV, "").split(os.pathsep) if p.strip()]
    return [*named, user_folder()]
