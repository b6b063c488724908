# The two commands: `make html` builds the site, `make test` runs the tests.
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
SPHINXOPTS ?= -j auto
STAMP   := $(VENV)/.installed

.PHONY: html test test-fast check-content lint clean serve bench

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

html: $(STAMP)
	$(BIN)/python -m juju_radar.build.staged $(SPHINXOPTS)

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The suite without the browser and the slow builds, for editing: one worker a core,
# each test file on one worker (some files build one site step by step).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not browser and not slow"

# The live archive's own checks, true of any valid archive: no errors, it builds, and
# every page and link of the built site resolves.
check-content: $(STAMP)
	$(BIN)/radar check
	$(BIN)/python -m juju_radar.build.staged $(SPHINXOPTS)
	$(BIN)/radar links _build/html

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
