"""monitor: not built yet (see the issues)."""

__all__: list[str] = []
