"""CLI: the ``assay`` command."""

from assay.cli._main import main

__all__ = ["main"]
