"""Choosing moves: determinization, the solver and search, the bots and the numeric
encoding that learning programs read.

Built on `brisca.game` alone; it never imports `brisca.formats`.
"""
