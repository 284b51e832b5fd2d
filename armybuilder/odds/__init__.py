"""What the systems' exact odds calculators share, below every game system.

:mod:`.exact` holds the exact arithmetic of dice laws (ratios of whole numbers, rounded once);
each system's calculator (``GameSystem.odds_calculator``, a module of its package such as
``systems/<system>/odds_calculator.py``) builds on it.  :mod:`.tables` remembers a system's
plain tables so that ``armybuilder odds`` runs the calculator without loading the system
(no pydantic, no numpy): the command starts in a few tens of milliseconds, and the TUI, the
bench and the command still run the same ``compute`` on the same tables.
"""
