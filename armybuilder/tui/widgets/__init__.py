"""widgets of the armybuilder TUI."""
