# The README's commands. Each creates and fills .venv on a machine that has only Python 3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: print test bench preview clean lint printed-text

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# Pages pip has just written would count whole in a process's resident memory.
	$(BIN)/python bench/settle_libraries.py $(VENV)
	touch $(STAMP)

print: $(STAMP)
	$(BIN)/printgen build all --paper a4
	$(BIN)/printgen build all --paper letter
	$(BIN)/printgen build all --paper a3

lint: $(STAMP)
	$(BIN)/ruff check printgen tests bench training
	$(BIN)/ruff format --check printgen tests bench training
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

# After a change to the One Page War sheets' printed text: what the photo reader compares against.
printed-text: $(STAMP)
	$(BIN)/python -c 'from printgen.games.one_page_war.reader.grid import write_printed_text; write_printed_text()'

preview: $(STAMP)
	$(BIN)/python -m printgen.render.readback

clean:
	rm -rf output/*.pdf output/preview
