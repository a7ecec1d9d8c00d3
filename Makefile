# The two commands (see README.md):
#   make demo   - set up and run the embedded demo (no Kafka, no PostgreSQL needed)
#   make test   - set up and run the whole suite: lint, types, unit, integration (real Kafka + PostgreSQL), e2e
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint types pytest services-stop clean

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

pytest: $(STAMP)
	$(BIN)/pytest

test: lint types pytest

services-stop:
	-bash deploy/kafka/kafka.sh stop-all
	-bash deploy/postgres/postgres.sh stop-all

clean: services-stop
	rm -rf $(VENV) deploy/.cache .pytest_cache .mypy_cache .ruff_cache .hypothesis
