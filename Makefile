# The two commands: `make demo` runs the main job, `make test` runs every check. Both create
# .venv and install what they need on a fresh machine; `make bench` runs the benchmarks.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/assay demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(STAMP)
	$(BIN)/mypy src

# PostgreSQL: scripts/pg installs Debian's server when missing and starts it on loopback.
# Browser tests: scripts/browser installs Debian's chromium and chromedriver when missing.
# Spark: scripts/spark starts a Spark Connect server from the installed pyspark (Java if missing).
# One worker per core (pytest-xdist); tests sharing a server (PostgreSQL, Spark) or the demo
# service run on one worker each (tests/conftest.py groups them). PYTEST_PARALLEL= runs serially.
PYTEST_PARALLEL ?= -n auto --dist loadgroup
pytest: $(STAMP)
	@url=$$(scripts/pg start | tail -n 1) || url=""; \
	if [ -z "$$url" ]; then echo "PostgreSQL could not be started; its tests will skip (fail under CI=true)."; fi; \
	scripts/browser >/dev/null || echo "chromium could not be installed; the browser tests will skip (fail under CI=true)."; \
	sc=$$(scripts/spark start | tail -n 1) || sc=""; \
	if [ -z "$$sc" ]; then echo "Spark could not be started; its tests will skip (fail under CI=true)."; fi; \
	ASSAY_TEST_PG_URL="$$url" ASSAY_TEST_SPARK_URL="$$sc" $(BIN)/pytest -q $(PYTEST_PARALLEL) $(PYTEST_ARGS); status=$$?; \
	scripts/pg stop; scripts/spark stop; exit $$status

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m benchmarks $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .cache .mypy_cache .ruff_cache .pytest_cache
