"""``python -m brisca``: the ``brisca`` command (see :mod:`brisca.cli`)."""

from __future__ import annotations

import sys

from brisca.cli import main

if __name__ == "__main__":
    sys.exit(main())
