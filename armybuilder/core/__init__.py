"""Game-agnostic core: catalogues and versions, list files, findings, fingerprints, dice.

Nothing here imports textual, rich or reportlab (checked by an import-linter
contract and by a test), so the core runs headless and fast.
"""
