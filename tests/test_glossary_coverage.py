"""Every control, memory kind, finding and figure has its glossary entry and its line in the docs.

The lists come from the code (the controls' form, `HostMemory`, the codes of the finding
rules (`overlapviz.core.findings.RULES`), `METRIC_DEFINITIONS` and the metrics panel's form), so
a new one without its words fails here.
"""

import dataclasses
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from overlapviz.app.glossary import GLOSSARY
from overlapviz.core.analysis.metrics import FIGURE_NAMES, METRIC_DEFINITIONS
from overlapviz.core.config import HostMemory, PipelineConfig
from overlapviz.core.findings import PROGRAM_RULES, RULES
from overlapviz.view.deltas import delta_rows

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
UNDER = "Controls \u25b8 "
GROUP_OF_CONTROLS = "pipeline_box"  # a box around several controls, each with its own title
PRESET_KEYS = {"size_bytes": "size"}  # presets.md names the size as presets read it (`presets._config_from`)
DIRECTIONS = ("h2d ", "d2h ")


def ui_texts(form: str, suffix: str) -> dict[str, str]:
    """The title or text of each widget of `form` (ui/*.ui) whose name ends in `suffix`, by name."""
    texts = {}
    for widget in ElementTree.parse(ROOT / "ui" / form).iter("widget"):
        name = widget.get("name", "")
        found = (widget.find(f"property[@name='{key}']/string") for key in ("title", "text"))
        words = next((element.text for element in found if element is not None and element.text), None)
        if name.endswith(suffix) and words:
            texts[name] = words
    return texts


def control_titles() -> list[str]:
    boxes = {name: text for name, text in ui_texts("controls.ui", "_box").items() if name != GROUP_OF_CONTROLS}
    return [*ui_texts("controls.ui", "_title").values(), *boxes.values()]


def memory_buttons() -> dict[HostMemory, str]:
    texts = ui_texts("controls.ui", "")
    return {memory: texts[f"memory_{memory.value}"] for memory in HostMemory}


def finding_codes() -> set[str]:
    """The code of every finding rule (`overlapviz.core.findings.RULES`)."""
    return {rule.code for rule in RULES}


def figure_names() -> set[str]:
    """The figures defined in one line and the metrics panel's rows, lower case."""
    panel = list(ui_texts("metrics.ui", "_title").values())
    return {name.lower() for name in [*FIGURE_NAMES.values(), *panel]}


def bold_names(doc: str) -> set[str]:
    return {name.lower() for name in re.findall(r"\*\*([^*]+)\*\*", (DOCS / doc).read_text(encoding="utf-8"))}


def table_rows(doc: str) -> set[str]:
    """The first cell of each table row of `doc`."""
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    return {line.split("|")[1].strip() for line in lines if line.startswith("| ")}


def table_row(doc: str, first_cell: str) -> str:
    """The table row of `doc` that starts with `first_cell`."""
    lines = (DOCS / doc).read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if line.startswith(f"| {first_cell} |"))


def undirected(name: str) -> str:
    """``bandwidth`` for ``h2d bandwidth``: the docs define a figure of each direction once."""
    return name.removeprefix(DIRECTIONS[0]).removeprefix(DIRECTIONS[1])


def test_the_lists_come_out_of_the_code():
    assert len(control_titles()) >= 12 and "Host memory" in control_titles() and "Ring slots" in control_titles()
    assert len(memory_buttons()) == len(HostMemory) == 8
    assert {"copy-queue", "exposed-communication", "graph-launch", "alloc-per-run"} <= finding_codes()
    assert all(rule.detect.__module__.startswith("overlapviz.core.") for rule in (*RULES, *PROGRAM_RULES))
    assert {"makespan", "copy time hidden", "ram pinned", "h2d bandwidth", "busy"} <= figure_names()
    assert FIGURE_NAMES.keys() == METRIC_DEFINITIONS.keys()  # a defined figure has its name


@pytest.mark.parametrize("title", control_titles())
def test_every_control_is_in_the_glossary_and_in_app_md(title):
    assert any(f"{UNDER}{title}" in term.where for term in GLOSSARY), title
    assert title in table_rows("app.md"), title


@pytest.mark.parametrize("memory", list(HostMemory))
def test_every_memory_kind_is_in_the_glossary_and_the_docs(memory):
    button = memory_buttons()[memory]
    assert any(f"{UNDER}Host memory \u25b8 {button}" in term.where for term in GLOSSARY), button
    assert button in table_row("app.md", "Host memory").split("|")[2]
    assert f"(`{memory.value}`" in (DOCS / "glossary.md").read_text(encoding="utf-8")
    assert f"`{memory.value}`" in table_row("presets.md", "`memory`")


@pytest.mark.parametrize("code", sorted(finding_codes()))
def test_every_finding_is_in_the_glossary_and_in_metrics_md(code):
    assert code in {term.term for term in GLOSSARY}
    assert f"`{code}`" in table_rows("metrics.md")


@pytest.mark.parametrize("name", sorted(figure_names()))
def test_every_figure_is_in_the_glossary_and_in_metrics_md(name):
    assert any(term.term.lower().startswith(undirected(name)) for term in GLOSSARY), name
    assert undirected(name) in bold_names("metrics.md"), name


def test_every_figure_metrics_md_defines_is_in_the_glossary():
    text = (DOCS / "metrics.md").read_text(encoding="utf-8")
    table = text[text.index("## Metrics") : text.index("**How figures are written.**")]
    names = {name.lower() for name in re.findall(r"^\| \*\*([^*]+)\*\*", table, flags=re.MULTILINE)}
    terms = " ".join(term.term.lower() for term in GLOSSARY)
    assert len(names) >= 15 and {name for name in names if name not in terms} == set()


@pytest.mark.parametrize("field", [field.name for field in dataclasses.fields(PipelineConfig)])
def test_every_pipeline_setting_is_in_the_presets_table(field):
    assert f"`{PRESET_KEYS.get(field, field)}`" in table_rows("presets.md")


def test_the_compare_example_in_app_md_has_the_columns_the_table_has(pageable_and_pinned_metrics):
    columns = [row.name for row in delta_rows(*pageable_and_pinned_metrics)]
    assert f"| | {' | '.join(columns)} |" in (DOCS / "app.md").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def pageable_and_pinned_metrics():
    from overlapviz.session import run_pipeline

    return [run_pipeline(PipelineConfig(memory=m), "sim", "h200").metrics for m in ("pageable", "pinned")]
