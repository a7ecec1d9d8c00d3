# The two commands (see README.md):
#   make demo   - set up and run the embedded demo (no Kafka, no PostgreSQL needed)
#   make test   - set up and run the whole suite: lint, types, unit, integration (real Kafka + PostgreSQL), e2e
#
# The suite runs in two parts (README.md, "The two commands"); each can be run alone:
#   make pytest-unit      tests/unit and tests/e2e on every core (pytest-xdist, PYTEST_WORKERS, default auto):
#                         --dist loadfile keeps a module's tests on one worker, so its module-scoped set-up
#                         (simulated competitions, the shared hands, a served app) is built once; a worker that
#                         needs a broker, PostgreSQL or Chromium starts its own
#   make pytest-services  tests/integration on two workers (PYTEST_INTEGRATION_WORKERS), after the first part:
#                         they start brokers (three at once in one test), kill them, cut PostgreSQL and race
#                         referees against deadlines, mostly waiting (the whole part used ~35 % of one core one
#                         test at a time), so two at once halve its time without crowding the cores; each worker
#                         has its own broker and PostgreSQL, so one killing its broker never touches the other's
# Each part prints its 30 slowest tests, so a CI log says where the suite's time goes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install native demo test lint types pytest pytest-unit pytest-services services-stop clean

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "pokeraudit needs Python 3.11 or newer")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

# the hot modules compiled with mypyc (deploy/native.py): a no-op while the build matches the sources; without a C
# compiler it says so and everything runs interpreted (same results, slower). Then the project's own bytecode
# (__pycache__): pip byte-compiles what it installs, but not an editable install's sources, and where
# PYTHONDONTWRITEBYTECODE is set no run writes it, so every start would compile every module it imports (~25 ms
# of `pokeraudit validate`'s start); compileall rewrites only what changed, and a source edited since is compiled
# again in memory by Python (its timestamp check), slower until the next `make native`, never stale
native: $(STAMP)
	@$(BIN)/python deploy/native.py build
	@$(BIN)/python -m compileall -q -j 0 domain ingest projections api

install: $(STAMP) native

demo: $(STAMP) native
	$(BIN)/pokeraudit demo

lint: $(STAMP)
	$(BIN)/ruff check .

types: $(STAMP)
	$(BIN)/mypy

PYTEST_WORKERS ?= auto
PYTEST_INTEGRATION_WORKERS ?= 2

pytest-unit: $(STAMP) native
	POKERAUDIT_REQUIRE_NATIVE=1 $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --durations=30 tests/unit tests/e2e

pytest-services: $(STAMP) native
	POKERAUDIT_REQUIRE_NATIVE=1 $(BIN)/pytest -n $(PYTEST_INTEGRATION_WORKERS) --dist loadfile --durations=30 tests/integration

# Both parts run whatever the first one answers; the target fails when either failed, after saying which.
pytest: $(STAMP)
	@unit=0; services=0; \
	$(MAKE) --no-print-directory pytest-unit || unit=$$?; \
	$(MAKE) --no-print-directory pytest-services || services=$$?; \
	echo; \
	echo "== unit + e2e (tests/unit tests/e2e, -n $(PYTEST_WORKERS)): $$( [ $$unit = 0 ] && echo passed || echo FAILED )"; \
	echo "== integration (tests/integration, -n $(PYTEST_INTEGRATION_WORKERS)): $$( [ $$services = 0 ] && echo passed || echo FAILED )"; \
	[ $$unit = 0 ] && [ $$services = 0 ]

test: lint types pytest

services-stop:
	-bash deploy/kafka/kafka.sh stop-all
	-bash deploy/postgres/postgres.sh stop-all

clean: services-stop
	-test -x $(BIN)/python && $(BIN)/python deploy/native.py clean
	rm -rf $(VENV) deploy/.cache .pytest_cache .mypy_cache .ruff_cache .hypothesis
