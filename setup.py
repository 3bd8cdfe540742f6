"""The compiled build's extension modules; everything else is in pyproject.toml.

Plain ``pip install .`` builds the pure-Python package. ``BRISCA_COMPILE=1 pip install .``
compiles the modules below with mypyc into one native extension, with the same API and
behaviour, and the rest of the package stays Python (see the README's "Performance").
"""

import sys
from pathlib import Path

from brisca_build import compiling  # the build backend's own module, on its path
from setuptools import setup

# The engine and the values it builds, and what they call on every step; the encoder,
# which the learning environments call at every step. Not here:
# modules whose classes are Python-level by design (`option`'s enum metaclass, `match`,
# `playable`, which Python classes extend) and those off the hot path.
COMPILED = [
    "src/brisca/game/values.py",
    "src/brisca/game/state.py",
    "src/brisca/game/events.py",
    "src/brisca/game/actions.py",
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
    "src/brisca/agents/encoding.py",
]


def stale_extensions() -> list[Path]:
    """Extensions an earlier compiled build left beside the sources (an editable install
    builds them there), which Python would import before the sources they came from."""
    found = [p for path in COMPILED for p in Path(path).parent.glob(Path(path).stem + ".*.so")]
    return found + list(Path("src").glob("*__mypyc.*.so"))


if compiling():
    from mypyc.build import mypycify

    sys.path.insert(0, "src")  # mypyc type-checks the package from its source
    # The rest of the package (and the optional libraries it imports, absent from the
    # build environment) is read for its types only, without its errors.
    options = ["--follow-imports=silent", "--ignore-missing-imports"]
    setup(ext_modules=mypycify([*options, *COMPILED], opt_level="3"))
else:
    for stale in stale_extensions():
        print(f"removing {stale}, left by a compiled build", file=sys.stderr)
        stale.unlink()
    setup()
