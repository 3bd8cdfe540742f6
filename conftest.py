"""What pytest collects from the source tree: the doctests of every module that runs as
Python.

In the compiled build (``BRISCA_COMPILE=1 pip install -e .``) a compiled module's
extension sits beside its source and is what ``import`` loads, so the doctest collector,
which imports a module from its ``.py`` file, would meet another module under the same
name; those modules' doctests run in the pure-Python build.
"""

from __future__ import annotations

from pathlib import Path


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.suffix == ".py" and any(
        collection_path.parent.glob(f"{collection_path.stem}.*.so")
    ):
        return True
    return None
