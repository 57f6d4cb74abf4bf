# SkyMarshal — every target sets itself up on a fresh machine (python3, node and npm are all it needs).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: demo test test-unit test-full lint ruff synth layer bench bench-recovery roadef-checker bench-decisions bench-network bench-reading bench-day venv clean local-stop browser serve screenshots deploy-rehearsal
# Debian's chromium for the console's browser test (Playwright drives it; no browser download)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

DEMO_PROMPT := Flight EY123 on January 20th had a mechanical failure

demo: $(STAMP)  ## local AWS (kept running), then the EY123 disruption end to end through the state machine (SCHEDULE=FILE.ssim: an airline's own flights, TAILS=its tail file)
	$(BIN)/skymarshal local start $(if $(SCHEDULE),--schedule "$(SCHEDULE)") $(if $(TAILS),--tails "$(TAILS)")
	$(BIN)/skymarshal demo
	@# On a terminal the duty manager is asked; otherwise a named demo duty manager approves rank 1.
	$(BIN)/skymarshal analyze "$(DEMO_PROMPT)" --as "Demo Duty Manager" \
		--comment "approved by make demo" $$([ -t 0 ] || echo --approve) \
		|| { echo "make demo: if the demo flight was recovered by an earlier make demo on this local AWS (FLIGHT_RECENTLY_RECOVERED above), '$(BIN)/skymarshal local reset' starts again from the seeded airline"; exit 1; }
	@echo "Local AWS keeps running for the next commands; stop it with: $(BIN)/skymarshal local stop"

# Tiers (tests/conftest.py marks each test from what it uses): unit (no AWS, no synthesis, sockets off),
# integration (emulated AWS, the whole airline), system (the state machine, the API, the browser), infra (synthesis,
# cfn-lint, cdk-nag). Two workers, each with its own seeded account and synthesis, share the tests evenly.
PYTEST_WORKERS ?= 2
PYTEST_ARGS ?=

# mypy from a cold cache (a clean clone, CI) takes most of a minute of one core; the suite leaves about a fifth of
# the two cores idle (waits on servers, the browser, polling), so the types are checked beside it, not before it.
test: $(STAMP) node_modules browser ruff  ## ruff, then mypy beside every tier (what CI runs), slowest 15 tests at the end
	@$(BIN)/mypy > $(VENV)/mypy.log 2>&1 & types=$$!; \
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder --durations=15 $(PYTEST_ARGS); tests=$$?; \
	wait $$types; typed=$$?; cat $(VENV)/mypy.log; \
	[ $$typed = 0 ] || echo "make test: mypy found type errors (above)"; \
	exit $$(( tests ? tests : typed ))

test-unit: $(STAMP)  ## the unit tier alone: the fast loop
	$(BIN)/pytest -q -m unit -n $(PYTEST_WORKERS) --durations=10 $(PYTEST_ARGS)

test-full: $(STAMP) node_modules browser lint  ## every tier on the airline at its production passenger volume (slower)
	SKYMARSHAL_TEST_LOAD_FACTOR=0.78 $(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder --durations=15 $(PYTEST_ARGS)

lint: ruff  ## ruff (lint and format check) and mypy, as configured in pyproject.toml
	$(BIN)/mypy

ruff: $(STAMP)  ## ruff's lint and format check alone (a second; `make test` runs it first)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

browser:  ## Debian's chromium, once (the console's headless browser test)
	@command -v chromium >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

screenshots: $(STAMP) browser  ## the console on real runs (EY123, EY101, a sick captain, the AUH fog closure, an escalated run, the runs list) in headless chromium, into docs/screenshots
	SKYMARSHAL_SCREENSHOTS=docs/screenshots $(BIN)/pytest -q -p no:randomly tests/api/test_console_screenshots.py

serve: $(STAMP)  ## the duty manager console and API on http://127.0.0.1:8000 (local AWS; development login)
	$(BIN)/skymarshal local start
	$(BIN)/skymarshal serve

synth: $(STAMP) node_modules  ## the CloudFormation templates, through the pinned CDK CLI
	npx --no-install cdk synth --quiet

venv: $(STAMP)

$(STAMP): requirements.txt layers/deps/requirements.txt constraints.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -r requirements.txt -c constraints.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

REHEARSAL_ARGS ?=

deploy-rehearsal: $(STAMP)  ## the app synthesized with built assets, deployed into moto's CloudFormation as cdk deploy would (Data → Knowledge → Workflow → Api), then the EY123 demo against it (REHEARSAL_ARGS="--outdir cdk.out --deploy-only")
	$(BIN)/python -m skymarshal.local.rehearsal $(REHEARSAL_ARGS)

layer: $(STAMP)  ## the two Lambda layers (deps for Python 3.12 x86_64, and the library) in .build/layers, no Docker
	$(BIN)/python -m infra.layers --out .build/layers

node_modules: package.json
	npm install --no-audit --no-fund --silent
	touch node_modules

local-stop: $(STAMP)
	$(BIN)/skymarshal local stop

clean:
	-$(BIN)/skymarshal local stop
	rm -rf $(VENV) node_modules cdk.out .build .skymarshal .pytest_cache .hypothesis

BENCH_ARGS ?=
# local AWS's memory (issue 32): one run, eight at once, runs in sequence, the AUH fog closure, the handlers' allocations
MEMORY_ARGS ?= --load-factor 0.78 --runs 50

bench: $(STAMP)  ## figures, not assertions: the rules engine on one day; 20 disruptions end to end, and 5 on the airline at 4x scale (BENCH_ARGS="--llm-latency 2"); the assistant; handler import times; local start and a standalone agent; local AWS's memory (MEMORY_ARGS="--load-factor 0.1 --runs 10 --only fog")
	$(BIN)/python -m bench.rules_day
	$(BIN)/python -m bench.integrity
	$(BIN)/python -m bench.workflow --runs 20 $(BENCH_ARGS)
	$(BIN)/python -m bench.workflow --runs 5 --scale 4 $(BENCH_ARGS)
	$(BIN)/python -m bench.assistant
	$(BIN)/python -m bench.cold_start
	$(BIN)/python -m bench.local_start
	$(BIN)/python -m bench.memory $(MEMORY_ARGS)

RECOVERY_ARGS ?=

bench-recovery: $(STAMP)  ## ROADEF 2009 A01-A10, B01-B10, 60 s each on one core (and the LP lower bound before each, up to 60 s: --no-bound skips it), every plan judged by the official checkers under Wine (RECOVERY_ARGS="--time-limit 600 --modes strict,lenient,keep B01"; ROADEF_DIR=instances, default ../shared/roadef2009)
	@$(MAKE) --no-print-directory roadef-checker || echo "bench-recovery: the official checkers are not installed (above); our checker's word only"
	$(BIN)/python -m bench.recovery $(RECOVERY_ARGS)

# The official ROADEF 2009 checkers, never in this repository: Wine from Debian (i386), the binaries verified by
# SHA-256 into ROADEF_CHECKER_DIR (default ~/.cache/skymarshal/roadef-checker), from GitHub or, without GitHub
# access, from a clone's git directory (ROADEF_CHECKER_GIT). apt-get update's i386 index may fail to match
# (mirror sync): the pinned release (-t) installs anyway.
roadef-checker: $(STAMP)  ## Wine and the official ROADEF 2009 solution and cost checkers, outside the repository (ROADEF_CHECKER_DIR, ROADEF_CHECKER_GIT)
	@command -v wine >/dev/null || { $(SUDO) dpkg --add-architecture i386 && { $(SUDO) apt-get update -qq || true; } && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq -t "$$(. /etc/os-release && echo $$VERSION_CODENAME)" \
		wine wine32:i386 >/dev/null; }
	$(BIN)/python -m skymarshal.recovery.official install


DECISIONS_ARGS ?=

bench-network: $(STAMP)  ## figures, not assertions: AUH closure 1/3/6 h and a 50 % capacity afternoon through the network planner, then through the state machine, offline (NETWORK_ARGS="--only closure-3h --seconds 1 --json")
	$(BIN)/python -m bench.network --workflow $(NETWORK_ARGS)

bench-decisions: $(STAMP)  ## figures, not assertions: every bench/scenarios case to its decision, judged as a duty manager would (DECISIONS_ARGS="--only ey20 --json")
	$(BIN)/python -m bench.decisions $(DECISIONS_ARGS)

READING_ARGS ?=

bench-reading: $(STAMP)  ## figures, not assertions: 2,400 reports composed from the airline's rows (seeded, with their truth) read as Validate reads them, per family, style and scope (READING_ARGS="--count 5000 --seed 7 --examples 3 --json")
	$(BIN)/python -m bench.reading $(READING_ARGS)

DAY_ARGS ?=

bench-day: $(STAMP)  ## figures, not assertions: an ordinary and a bad day replayed — SkyMarshal (rank 1) beside the delay, cancel-first and greedy baselines on the same stream — scorecards and PNG plots in .build/bench-day (DAY_ARGS="--intensity meltdown --load-factor 0.3 --skip-workflow")
	$(BIN)/python -m bench.day $(DAY_ARGS)
