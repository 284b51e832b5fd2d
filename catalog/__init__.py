"""Catalogue data (YAML), shipped inside the package as ``armybuilder.catalog``."""
