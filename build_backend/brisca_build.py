"""The build backend: setuptools', which also compiles the core with mypyc when asked.

``BRISCA_COMPILE=1 pip install .`` builds the compiled package (``setup.py`` says which
modules); plain ``pip install .`` builds the pure-Python one, which needs no compiler.
The compiled build asks for mypyc (part of mypy) and attrs, whose types mypyc reads,
in its isolated build environment, and for nothing more otherwise. A source
distribution is the same either way: it holds the sources, this backend among them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (the rest of the backend, as it is)

#: What the compiled build needs besides setuptools: the mypyc it was written for.
COMPILE_REQUIRES = ["mypy>=2.4,<3", "attrs>=23.1"]

_YES = ("1", "true", "yes", "on")
_NO = ("", "0", "false", "no", "off")


def compiling() -> bool:
    """Whether ``BRISCA_COMPILE`` asks for the compiled build.

    Raises:
        SystemExit: it says neither yes (1, true, yes, on) nor no (0, false, no, off, or
            nothing), so the build does not guess.
    """
    value = os.environ.get("BRISCA_COMPILE", "").strip().lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    raise SystemExit(f"BRISCA_COMPILE must be 1 or 0 (or true, false, yes, no...), got {value!r}")


@contextlib.contextmanager
def _pure() -> Iterator[None]:
    """The environment of a pure-Python build, while a source distribution is made."""
    saved = os.environ.pop("BRISCA_COMPILE", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["BRISCA_COMPILE"] = saved


# setuptools' own hooks run setup.py to learn what it needs, which would import mypyc
# before it is there: the compiled build adds mypy to what setuptools asks for.


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    extra = COMPILE_REQUIRES if compiling() else []
    with _pure():
        return [*build_meta.get_requires_for_build_wheel(config_settings), *extra]


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    extra = COMPILE_REQUIRES if compiling() else []
    with _pure():
        return [*build_meta.get_requires_for_build_editable(config_settings), *extra]


def get_requires_for_build_sdist(config_settings: Any = None) -> list[str]:
    with _pure():
        return build_meta.get_requires_for_build_sdist(config_settings)


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    with _pure():
        return build_meta.build_sdist(sdist_directory, config_settings)
