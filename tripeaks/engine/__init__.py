"""The rules of TriPeaks: cards, the layout, the rules and variants, scoring, deal codes and the game.

A pure library: it imports nothing else of the app (no catalogs, no solver, no I/O), so that every
other layer can call it and a rule is decided in one place. Its modules are imported by name
(``tripeaks.engine.game``); this package exports nothing of its own.
"""
