"""Assay: a verdict for every machine-written answer to a question about a database."""

__all__ = ["__version__"]

__version__ = "0.1.0"
