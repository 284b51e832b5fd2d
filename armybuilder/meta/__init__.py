"""The organiser's meta matrix: every list of a folder against every other.

The pieces, each in its own module:

* :mod:`.field`   — reading the lists, leaving illegal ones out, the pairings;
* :mod:`.games`   — one task's games (runs in any process: a local worker or a
  Dask worker), with per-game seeds derived from the pairing's identity;
* :mod:`.store`   — the results file (JSON lines, appended as tasks finish) and the
  games still missing from it, packed into tasks;
* :mod:`.runners` — local processes, or a Dask distributed cluster (optional extra);
* :mod:`.matrix`  — the win-rate matrix, the standings with Wilson intervals, JSON/CSV;
* :mod:`.run`     — the whole run with its progress line.

Nothing here imports Textual or ReportLab; the PDF/PNG report is in
:mod:`armybuilder.pdf.meta_report` and the TUI screen in ``tui/screens/meta.py``.
"""
