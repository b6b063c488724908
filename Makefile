# The two commands: `make html` builds the site, `make test` runs the tests.
PYTHON  ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
SPHINXOPTS ?= -j auto
PIP     := $(BIN)/pip install -q --no-compile --disable-pip-version-check
# What building needs (`make html`), then the preview server, then the test tools.
BUILD_STAMP   := $(VENV)/.installed-build
PREVIEW_STAMP := $(VENV)/.installed-preview
TEST_STAMP    := $(VENV)/.installed
# axe-core for the accessibility tests, at the version its lock file pins (npm writes
# node_modules/.package-lock.json on every install, so it is the stamp).
AXE_DIR       := tests/browser/axe
AXE_STAMP     := $(AXE_DIR)/node_modules/.package-lock.json
# Lighthouse for the performance, accessibility, best-practice and SEO scores, the same way.
LIGHTHOUSE_DIR   := tests/browser/lighthouse
LIGHTHOUSE_STAMP := $(LIGHTHOUSE_DIR)/node_modules/.package-lock.json

.PHONY: html test test-tools test-fast test-clients check-content lint clean serve bench docs

$(BUILD_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	touch $@

$(PREVIEW_STAMP): $(BUILD_STAMP)
	$(PIP) -e '.[preview]'
	touch $@

$(TEST_STAMP): $(BUILD_STAMP)
	$(PIP) -e '.[test]'
	touch $@

$(AXE_STAMP): $(AXE_DIR)/package-lock.json
	npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error
	touch $@

$(LIGHTHOUSE_STAMP): $(LIGHTHOUSE_DIR)/package-lock.json
	npm ci --prefix $(LIGHTHOUSE_DIR) --no-audit --no-fund --loglevel=error
	touch $@

html: $(BUILD_STAMP)
	$(BIN)/python -m juju_radar.build.staged $(SPHINXOPTS)

# What the suite needs. make test installs it side by side (pip, then the bytecode; the
# two npm installs beside them): a fresh clone's tests start about 3 s sooner.
test-tools: $(TEST_STAMP) $(AXE_STAMP) $(LIGHTHOUSE_STAMP)
	@:

# The suite on TEST_WORKERS workers (each test file on one worker: some build one site
# step by step).
TEST_WORKERS ?= auto
# The tests start hundreds of Python processes (sphinx-build, radar): where
# PYTHONDONTWRITEBYTECODE is set, as on CI, each one compiled every module it imported
# again (2-3 s of a seed-site build). The tests write bytecode, for the modules they import
# (the first process to import one writes it); `make html`'s venv stays lean (pip's
# --no-compile).
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest
test:
	@$(MAKE) --no-print-directory -j 3 test-tools
	$(PYTEST) -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15 -m "not clients"

# The researchers' TeX tools (biber with biblatex, BibTeX with plainnat) reading every
# BibTeX the site offers; they need Debian's TeX packages (README, "Prerequisites").
# And Zotero's translation-server saving an issue page: tests/clients/zotero/setup.sh
# builds it at pinned commits (git, node, npm; ZOTERO_MIRRORS names local clones).
test-clients: $(TEST_STAMP)
	$(PYTEST) -q -m clients

# For editing: the unit tests and those reading a site built once for their module,
# one worker a core (each test file on one worker); a test building a site of its own
# is marked `site` or `slow` and left to make test (tests/conftest.py keeps the marks true).
test-fast: $(TEST_STAMP)
	RADAR_TEST_FAST=1 $(PYTEST) -q -n auto --dist loadfile --no-loadscope-reorder --durations=15 -m "not browser and not slow and not clients and not site"

# The live archive's own checks, true of any valid archive: no errors, it builds, and
# every page and link of the built site resolves.
check-content: $(BUILD_STAMP)
	$(BIN)/radar check
	$(BIN)/python -m juju_radar.build.staged $(SPHINXOPTS)
	$(BIN)/radar links _build/html

lint: $(TEST_STAMP)
	$(BIN)/ruff check juju_radar tests bench tools
	$(BIN)/mypy

# The timings, which the tests leave out (their verdict would be the machine's load):
# build, search, the editors' tools, and Lighthouse's performance score. With AGAINST=REF
# (a commit), side by side instead: REF in a clone of its own under _build/against/, each
# row alternately with HEAD (bench/compare_bench.py; BENCH_OPTIONS adds its options, e.g.
# BENCH_OPTIONS="--sizes 3650 --corpus imported --rows editors").
AGAINST ?=
BENCH_OPTIONS ?=
bench: $(TEST_STAMP) $(LIGHTHOUSE_STAMP)
ifeq ($(AGAINST),)
	$(BIN)/python bench/build_bench.py
	$(BIN)/python bench/search_bench.py
	$(BIN)/python bench/editors_bench.py
	$(BIN)/python bench/lighthouse_bench.py
else
	$(BIN)/python bench/compare_bench.py --against $(AGAINST) $(BENCH_OPTIONS)
endif

# The documentation (docs/, MyST Markdown): not the archive, which leaves docs/ out. Its
# tables of codes are generated from juju_radar/model/codes.py; warnings are errors.
docs: $(BUILD_STAMP)
	$(BIN)/sphinx-build -W --keep-going -n -q -b html docs _build/docs

serve: $(PREVIEW_STAMP)
	$(BIN)/radar serve

clean:
	rm -rf _build
