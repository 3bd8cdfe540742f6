"""The compiled build's extension modules; everything else is in pyproject.toml.

Plain ``pip install .`` builds the pure-Python package. ``BRISCA_COMPILE=1 pip install .``
compiles the modules below with mypyc into one native extension, with the same API and
behaviour, and the rest of the package stays Python (see the README's "Performance").
"""

import os
import sys

from setuptools import setup

# The engine and the values it builds, and what they call on every step. Not here:
# modules whose classes are Python-level by design (`option`'s enum metaclass, `match`,
# `playable`, which Python classes extend) and those off the hot path.
COMPILED = [
    "src/brisca/game/values.py",
    "src/brisca/game/state.py",
    "src/brisca/game/events.py",
    "src/brisca/game/tricks.py",
    "src/brisca/game/engine.py",
    "src/brisca/game/rng.py",
    "src/brisca/game/variants/__init__.py",
    "src/brisca/game/variants/variant.py",
    "src/brisca/game/variants/arrastre.py",
    "src/brisca/game/variants/auction.py",
    "src/brisca/game/variants/black_hand.py",
    "src/brisca/game/variants/cantes.py",
    "src/brisca/game/variants/signals.py",
    "src/brisca/game/variants/swaps.py",
]

if os.environ.get("BRISCA_COMPILE", "").strip() not in ("", "0"):
    from mypyc.build import mypycify

    sys.path.insert(0, "src")  # mypyc type-checks the package from its source
    # The rest of the package (and the optional libraries it imports, absent from the
    # build environment) is read for its types only, without its errors.
    options = ["--follow-imports=silent", "--ignore-missing-imports"]
    setup(ext_modules=mypycify([*options, *COMPILED], opt_level="3"))
else:
    setup()
