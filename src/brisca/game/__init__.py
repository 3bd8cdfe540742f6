"""The rules of the game: cards, actions, rules and presets, states, the rule modules,
the engine and matches.

This folder imports nothing else of the package, only attrs and the standard library:
everything above it (documents, agents, runs and the programs) builds on it.
"""
