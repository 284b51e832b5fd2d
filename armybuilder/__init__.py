"""armybuilder: army builder, list validator and rules engine for Rag'Narok 2 and friends."""

import os
import sys
import types

__version__ = "0.1.0"


def _without_pydantic_plugins() -> None:
    """Keep pydantic's plugin machinery out of armybuilder's processes.

    pydantic looks for plugins (observability hooks) among every installed package's
    entry points the first time it builds a validator, and the module doing so imports
    ``importlib.metadata`` (with ``email``, ``zipfile``, ``csv``...): together most of a
    bare interpreter start, in every command.  armybuilder's models are its own
    business, so plugins are off (pydantic's documented switch), unless the environment
    says otherwise; with them off, pydantic asks that module for nothing but an empty
    plugin list, which a stand-in gives without those imports.  pydantic is pinned, and
    tests/cli/test_cli_startup_imports.py checks the stand-in still answers as pydantic would.
    """
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] not in ("__all__", "1", "true"):
        return
    name = "pydantic.plugin._loader"
    if name not in sys.modules:
        loader = types.ModuleType(name, "pydantic plugins disabled by armybuilder (PYDANTIC_DISABLE_PLUGINS)")
        loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
        sys.modules[name] = loader


_without_pydantic_plugins()
