# The two commands (see README.md):
#   make demo   - set up and run the embedded demo (no Kafka, no PostgreSQL needed)
#   make test   - set up and run the whole suite: lint, types, unit, integration (real Kafka + PostgreSQL), e2e
#
# The suite runs in two parts (README.md, "The two commands"); each can be run alone:
#   make pytest-unit      tests/unit on every core (pytest-xdist, PYTEST_WORKERS, default auto): pure,
#                         CPU-bound and independent, no services; --dist loadfile keeps a module's tests on one
#                         worker, so its module-scoped set-up (simulated competitions, the shared hands) is built once
#   make pytest-services  tests/e2e and tests/integration in one pytest process, one test at a time: they start
#                         real brokers, PostgreSQL, servers and a browser and wait on them with deadlines, so they
#                         never share the cores with each other
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint types pytest pytest-unit pytest-services services-stop clean

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "pokeraudit needs Python 3.11 or newer")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/pokeraudit demo

lint: $(STAMP)
	$(BIN)/ruff check .

types: $(STAMP)
	$(BIN)/mypy

PYTEST_WORKERS ?= auto

pytest-unit: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile tests/unit

pytest-services: $(STAMP)
	$(BIN)/pytest tests/e2e tests/integration

# Both parts run whatever the first one answers; the target fails when either failed, after saying which.
pytest: $(STAMP)
	@unit=0; services=0; \
	$(MAKE) --no-print-directory pytest-unit || unit=$$?; \
	$(MAKE) --no-print-directory pytest-services || services=$$?; \
	echo; \
	echo "== unit (tests/unit, -n $(PYTEST_WORKERS)): $$( [ $$unit = 0 ] && echo passed || echo FAILED )"; \
	echo "== e2e + integration (tests/e2e tests/integration): $$( [ $$services = 0 ] && echo passed || echo FAILED )"; \
	[ $$unit = 0 ] && [ $$services = 0 ]

test: lint types pytest

services-stop:
	-bash deploy/kafka/kafka.sh stop-all
	-bash deploy/postgres/postgres.sh stop-all

clean: services-stop
	rm -rf $(VENV) deploy/.cache .pytest_cache .mypy_cache .ruff_cache .hypothesis
