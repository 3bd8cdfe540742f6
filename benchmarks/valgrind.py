"""Instructions of a child process, counted by valgrind: the one counter of the
``--count`` benchmarks and ``instructions.py``.

Each benchmark runs itself as the child (``python BENCHMARK --child ...``) twice, with
no work and with the work after the same set-up and warm-up, and takes the difference,
so that start-up and imports drop out.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from brisca.game.values import COMPILED

#: Which build of brisca runs: every child must run the parent's.
BUILD = "compiled" if COMPILED else "pure Python"

# The same dict layouts in every child, and no worker threads: valgrind counts every
# thread, and a BLAS pool spinning while it waits counts a different amount each run.
_SAME_EVERY_RUN = {
    "PYTHONHASHSEED": "0",
    **dict.fromkeys(("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"), "1"),
    "BRISCA_BENCHMARK_BUILD": BUILD,
}

# A child counts the build its parent counts, or fails: one run once counted a line of
# the compiled build at the pure-Python build's figure.
_PARENT = os.environ.get("BRISCA_BENCHMARK_BUILD")
if _PARENT is not None and _PARENT != BUILD:
    raise SystemExit(f"the child runs the {BUILD} build, its parent the {_PARENT} build")


def instructions(script: str, arguments: Sequence[str]) -> int:
    """Instructions valgrind counts for ``python script --child *arguments``."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH")
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            script,
            "--child",
            *arguments,
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **_SAME_EVERY_RUN},
    )
    found = re.search(r"refs:\s*([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"the child {' '.join(arguments)} failed under valgrind:\n{run.stderr}")
    return int(found.group(1).replace(",", ""))


def difference(script: str, arguments: Sequence[str], idle: Sequence[str]) -> int:
    """Instructions of the child given `arguments`, less those of the child given
    `idle` (the same set-up, no work): the two run side by side, one a core."""
    with ThreadPoolExecutor(2) as pool:
        work, rest = pool.map(lambda args: instructions(script, args), (arguments, idle))
    return work - rest
