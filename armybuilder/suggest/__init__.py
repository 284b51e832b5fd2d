"""``armybuilder suggest``: which legal edits raise a list's win rate against a field.

The pieces, each in its own module:

* :mod:`.neighbours` — the legal lists one editor edit away (through ``GameSystem``
  only: no system is named here);
* :mod:`.games`      — one task's games: every candidate plays the base list's games
  (common random numbers), on the meta matrix's runners;
* :mod:`.stats`      — paired differences, their 95 % interval, the win rates' Wilson
  intervals;
* :mod:`.race`       — successive halving over the candidates, then fresh
  confirmation games for the finalists;
* :mod:`.run`        — the steps, the results file behind ``--resume``;
* :mod:`.report`     — the text report, the JSON, each suggestion's list file;
* :mod:`.command`    — the command line.

Nothing here imports Textual or ReportLab.
"""
