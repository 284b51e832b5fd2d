"""List texts several TUI tests open (on the synthetic Rag'Narok 2 catalogue of conftest's ``r2``)."""

#: One legal-shaped unit of ten spearmen: the smallest list an editor test can draw and edit.
DAWN_PATROL = """\
armybuilder: 1
system: ragnarok2
catalogue: 1.1.0
format: 1000-ap
name: Dawn patrol
people: lions
units:
  - troops: {profile: spearman, count: 10}
"""
