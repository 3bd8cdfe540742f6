"""Game values as documents and words: records, saved states and matches, the JSON
views of observations, and the text shown to people.

Built on `brisca.game` alone; it never imports `brisca.agents`.
"""
