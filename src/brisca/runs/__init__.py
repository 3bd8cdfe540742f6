"""Many games at once: the statistics, the arena of duplicate deals, simulations and
their Ray backend.
"""
