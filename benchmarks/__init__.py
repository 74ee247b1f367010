"""Benchmarks: ``make bench`` (``python -m benchmarks``) runs each and writes its numbers to
``benchmarks/results/<name>.json``. Targets are ratios against a baseline measured in the same
process, or absolute times stated next to the measured ones; never timed assertions in tests."""
