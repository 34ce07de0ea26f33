# Two commands matter: `make run` plays, `make test` checks everything CI checks.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint chromium compiler postgres bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { $(SUDO) apt-get update && $(SUDO) apt-get install -y python3-venv && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: pyproject.toml setup.py tripeaks/solver/_search.c tripeaks/solver/_streak.c tripeaks/solver/_strategy.c | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: pyproject.toml setup.py tripeaks/solver/_search.c tripeaks/solver/_streak.c tripeaks/solver/_strategy.c | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.run-deps

run: $(VENV)/.run-deps
	$(BIN)/tripeaks

# Browser tests drive Debian's chromium, never a downloaded browser.
chromium:
	@test -x /usr/bin/chromium || { $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium; }

# The solver's search is C, built by pip; the tests insist that it was built, so CI needs a compiler.
compiler:
	@command -v cc >/dev/null && $(PYTHON) -c "import os, sysconfig; raise SystemExit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" || { $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y gcc python3-dev; }

# The API suite runs on PostgreSQL too: Debian's server, in a throwaway cluster (tests/pg_cluster.sh).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y postgresql; }

lint: $(VENV)/.test-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict tripeaks
	$(BIN)/lint-imports

# The cluster lives in a temporary folder for this run only and is stopped even when tests fail.
# Before the suite, the package as users get it: the sdist and the wheel built as the image builds
# them (container/build.sh), the wheel installed in a new environment outside the checkout and run
# from there (tests/smoke_wheel.py); tests/test_wheel.py then reads both (TRIPEAKS_TEST_DIST).
test: chromium compiler postgres lint
	@cluster=$$(mktemp -d) && package=$$(mktemp -d) && \
	trap 'sh tests/pg_cluster.sh stop "$$cluster"; rm -rf "$$package"' EXIT && \
	url=$$(sh tests/pg_cluster.sh start "$$cluster") && \
	{ PYTHON=$(BIN)/python sh container/build.sh dist . "$$package/dist" >"$$package/build.log" 2>&1 || \
		{ cat "$$package/build.log"; exit 1; }; } && \
	PYTHON=$(BIN)/python sh container/build.sh install "$$package/dist" "$$package/venv" && \
	$(BIN)/python tests/smoke_wheel.py "$$package/venv" && \
	TRIPEAKS_TEST_PG="$$url" TRIPEAKS_TEST_DIST="$$package/dist" $(BIN)/pytest -n 2

bench: $(VENV)/.run-deps
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/api.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis test-artifacts build dist *.egg-info
