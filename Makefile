# The two commands: `make html` builds the site, `make test` runs the tests.
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
SPHINXOPTS ?= -j auto
STAMP   := $(VENV)/.installed

.PHONY: html test lint clean serve bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

html: $(STAMP)
	$(BIN)/python -m juju_radar.build.staged $(SPHINXOPTS)

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check juju_radar tests bench tools
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/build_bench.py
	$(BIN)/python bench/search_bench.py

serve: $(STAMP)
	$(BIN)/radar serve

clean:
	rm -rf _build
