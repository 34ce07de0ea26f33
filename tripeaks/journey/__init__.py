"""The journey (issue 39): a fixed path of levels across every layout, rules and option, each a
deal the solver proved winnable, with stars measured against the deal's proven best score and
goals judged by the engine from a game's own actions (docs/journey.md).

``levels`` holds the level model and loads the shipped data file, ``goals`` and ``stars`` judge a
game, ``make`` makes the data file (``tripeaks journey --make``). The policy layer: it reads the
engine and the solver, never the store, the web or the command line.
"""
