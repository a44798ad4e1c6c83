"""docs/lessons.md is written from the model by docs/make_lessons.py; these tests keep it so."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from docs import make_lessons
from docs.make_lessons import COMMAND, PAGE, LessonsPageError, main, render_page, stale_message, wrap
from overlapviz.core.config.pinning import PINNED_SHARE_ENV
from overlapviz.presets import lessons

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def page():
    return render_page()


def test_the_lessons_page_is_what_the_model_gives_now(page):
    # A change of the model (or of the presets) that moves a number fails here until the page
    # is written again with the command the message names.
    problem = stale_message(PAGE, page)
    assert problem is None, problem


def test_every_lesson_has_its_section_in_order(page):
    headings = [line for line in page.splitlines() if line.startswith("## ") and "(`" in line]
    assert headings == [f"## {p.lesson}. {p.title} (`{p.name}`)" for p in lessons()]


def test_a_page_with_a_stale_number_names_the_command_and_the_line(tmp_path, page):
    stale = tmp_path / "lessons.md"
    row = next(line for line in page.splitlines() if line.startswith("| 1024 chunks |"))
    stale.write_text(page.replace(row, row.replace("| 1024 chunks | ", "| 1024 chunks | 23.05 ms (was) ")),
                     encoding="utf-8")
    message = stale_message(stale, page)
    assert message is not None
    assert f"{stale} is out of date with the model; run `{COMMAND}`" in message
    assert f"\n+{row}" in message and "23.05 ms (was)" in message


def test_a_missing_page_is_reported_not_raised(tmp_path, page):
    message = stale_message(tmp_path / "lessons.md", page)
    assert message == f"{tmp_path / 'lessons.md'} is missing; run `{COMMAND}` from the repository root to write it"


def test_main_writes_the_page_and_check_tells_stale_from_current(monkeypatch, tmp_path, capsys, page):
    monkeypatch.setattr(make_lessons, "render_page", lambda: page)  # the model's part is tested above
    target = tmp_path / "lessons.md"
    assert main([], path=target) == 0
    assert target.read_text(encoding="utf-8") == page
    assert [p.name for p in tmp_path.iterdir()] == ["lessons.md"]  # no temporary file left behind
    assert main(["--check"], path=target) == 0
    target.write_text(page.replace("# Lessons", "# Lesson", 1), encoding="utf-8")
    capsys.readouterr()
    assert main(["--check"], path=target) == 1
    assert f"run `{COMMAND}`" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8").startswith("# Lesson\n")  # --check writes nothing


def test_main_reports_a_page_it_cannot_write(monkeypatch, tmp_path, capsys, page):
    monkeypatch.setattr(make_lessons, "render_page", lambda: page)
    assert main([], path=tmp_path / "no such folder" / "lessons.md") == 1
    assert "no such folder" in capsys.readouterr().err


def test_the_page_documents_the_default_pinned_share_whatever_the_environment(monkeypatch, page):
    monkeypatch.setenv(PINNED_SHARE_ENV, "0.9")  # 64 GiB of 125 GiB would be allowed
    assert render_page() == page
    assert make_lessons.os.environ[PINNED_SHARE_ENV] == "0.9"  # restored afterwards


def swapped(name):
    """The lessons, with the two sides of lesson `name` trading places (labels kept)."""
    def changed():
        return [
            dataclasses.replace(p, configs=p.configs[::-1], devices=p.devices[::-1]) if p.name == name else p
            for p in lessons()
        ]
    return changed


def test_a_sentence_the_model_no_longer_supports_stops_the_page(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(make_lessons, "lessons", swapped("order-h200"))  # "depth" now runs breadth
    with pytest.raises(LessonsPageError, match=r"lesson order-h200: the page says 'depth order wins on the H200'"):
        render_page()
    target = tmp_path / "lessons.md"
    assert main([], path=target) == 1 and not target.exists()
    assert "rewrite that sentence in docs/make_lessons.py" in capsys.readouterr().err


def test_a_lesson_without_a_section_stops_the_page(monkeypatch):
    extra = dataclasses.replace(lessons()[0], name="brand-new", lesson=99)
    monkeypatch.setattr(make_lessons, "lessons", lambda: [*lessons(), extra])
    with pytest.raises(LessonsPageError, match=r"lesson 99 \(brand-new\) has no section in docs/make_lessons.py"):
        render_page()


def test_wrapping_keeps_code_spans_and_numbers_with_their_units():
    text = "word " * 15 + "`iters = 0` and 9.3 µs and 125 GiB " + "word " * 30
    for width_shift in range(12):
        lines = wrap("x" * width_shift + " " + text).splitlines()
        assert all(line.count("`") % 2 == 0 for line in lines)
        assert not any(line.endswith(("9.3", "125")) for line in lines)
    assert wrap("a finding", "> ") == "> a finding"


def test_numbers_use_a_real_minus_sign_and_zero_stays_plain():
    assert make_lessons.signed("-1.4") == "\N{MINUS SIGN}1.4" and make_lessons.pct(None) == "–"
    assert make_lessons.pct(85.96) == "86%"
    assert make_lessons.ms(0) == "0" and make_lessons.ms(62_183_227) == "62.18 ms"
    assert make_lessons.short_ms(43_003_360) == "43.0" and make_lessons.short_ms(975_494) == "0.98"


def test_the_command_in_the_message_works_from_the_repository_root():
    done = subprocess.run([sys.executable, "-m", "docs.make_lessons", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "is up to date" in done.stdout
