"""The ``brisca`` command: one module per subcommand, and `main`, its entry point."""

from brisca.cli.main import main

__all__ = ["main"]
