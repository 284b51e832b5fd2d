"""The organiser's meta matrix: every list of a folder against every other.

The pieces, each in its own module:

* :mod:`.field`    — reading the lists, leaving illegal ones out, the pairings;
* :mod:`.labels`   — distinct labels and short labels for lists sharing a prefix;
* :mod:`.games`    — one task's games (runs in any process: a local worker or a
  Dask worker); a pairing's seed is a playtest seed, so any cell replays;
* :mod:`.store`    — the results file (JSON lines, appended as tasks finish, cut at
  checkpoints) and the games still missing from it, packed into tasks;
* :mod:`.runners`  — local processes, or a Dask distributed cluster (optional extra):
  game tasks in, records out;
* :mod:`.matrix`   — the win-rate matrix, the standings with Wilson intervals, the
  units of every list, JSON/CSV;
* :mod:`.analysis` — why each list wins: matchups, margins, rounds, units, tiers;
* :mod:`.run`      — the whole run with its progress line;
* :mod:`.report`   — the outputs in order (numbers first, then renderings), as steps
  ``--resume`` does not repeat; :mod:`.html_report` the sortable HTML page and
  :mod:`.palette` the heat map's colours;
* :mod:`.bench`    — the bench's meta lines.

Nothing here imports Textual or ReportLab; the PDF and PNG are drawn by
:mod:`armybuilder.pdf.meta_report` (the heat map) and :mod:`armybuilder.pdf.meta_pages`
(standings and profiles), the TUI screen is ``tui/screens/meta.py``.
"""
