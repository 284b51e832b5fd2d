"""armybuilder: army builder, list validator and rules engine for Rag'Narok 2 and friends."""

import os

__version__ = "0.1.0"

# pydantic looks for plugins (observability hooks) among the installed packages'
# entry points the first time it builds a validator: reading every package's
# metadata cost ~8 ms of each command's start.  armybuilder's models are its own
# business, so plugins stay off unless the environment asks otherwise.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
