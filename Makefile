# Two targets a newcomer needs: `make run` and `make test`. Each sets up .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test fuzz lint setup clean translations

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("overlapviz needs Python 3.11 or newer") if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev,cluster,lab-queue]$$($(PYTHON) tools/cuda_extra.py)"
	touch $(STAMP)

setup: $(STAMP)

# Qt names the wrong library when its X11 plugin cannot load: say which are missing first;
# and a window in Chinese, Japanese or Korean without a font for it draws boxes: say which to install.
run: $(STAMP)
	$(BIN)/python tools/qt_xcb_check.py
	$(BIN)/python tools/cjk_font_check.py
	$(BIN)/overlapviz

lint: $(STAMP)
	$(BIN)/ruff check overlapviz tests benchmarks tools docs
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

fuzz: $(STAMP)
	OVERLAPVIZ_FUZZ=1 QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m fuzz

# Extract the marked sentences, merge them into each language's .po, compile the .mo files.
translations: $(STAMP)
	$(BIN)/python tools/translations.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
