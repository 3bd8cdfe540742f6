"""The build backend: setuptools', which also compiles the core with mypyc when asked.

``BRISCA_COMPILE=1 pip install .`` builds the compiled package (``setup.py`` says which
modules); plain ``pip install .`` builds the pure-Python one, which needs no compiler.
The compiled build asks for mypyc (part of mypy) and attrs, whose types mypyc reads,
in its isolated build environment, and for nothing more otherwise.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools.build_meta import *  # noqa: F403  (the rest of the backend, as it is)

#: What the compiled build needs besides setuptools: the mypyc it was written for.
COMPILE_REQUIRES = ["mypy>=2.4,<3", "attrs>=23.1"]


def compiling() -> bool:
    """Whether ``BRISCA_COMPILE`` asks for the compiled build."""
    return os.environ.get("BRISCA_COMPILE", "").strip() not in ("", "0")


# setuptools' own hooks run setup.py to learn what it needs, which would import mypyc
# before it is there; setup.py asks for nothing beyond `build-system.requires`.


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    return list(COMPILE_REQUIRES) if compiling() else []


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    return get_requires_for_build_wheel(config_settings)
