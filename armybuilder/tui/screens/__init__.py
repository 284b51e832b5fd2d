"""screens of the armybuilder TUI."""
