"""tools/cjk_font_check.py: what `make run` says when the environment's language has no font, and what CI installs.

Every test hands the check its font list (or a fake `fc-list` in its temp dir), never this machine's fonts.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fake_command import fake_command

from overlapviz._qt.font_packages import DEBIAN_PACKAGE, FEDORA_PACKAGE
from tools import cjk_font_check
from tools.cjk_font_check import apt_packages, check, fc_list_fonts, fontconfig_tag

SCRIPT = Path(cjk_font_check.__file__)
ROOT = SCRIPT.parents[1]  # the checkout whose overlapviz the script reads
CHINESE = {"LANG": "zh_CN.UTF-8"}


def _fake_fc_list(folder: Path, families: str, status: int = 0) -> Path:
    """An `fc-list` that prints `families`, exits `status` and notes what it was asked."""
    return fake_command(folder, "fc-list", families, status)


def test_fontconfig_names_languages_by_tag():
    assert [fontconfig_tag(code) for code in ("zh_CN", "zh_TW", "ja", "ko")] == ["zh-cn", "zh-tw", "ja", "ko"]


def test_chinese_without_a_font_names_the_apt_and_dnf_packages():
    asked = []
    status, message = check(CHINESE, lambda tag: asked.append(tag) or [])
    assert status == 0 and asked == ["zh-cn"]
    assert f"sudo apt-get install {DEBIAN_PACKAGE}" in message and f"sudo dnf install {FEDORA_PACKAGE}" in message
    assert "fc-list :lang=zh-cn" in message


def test_chinese_with_a_font_or_no_way_to_tell_says_nothing():
    assert check(CHINESE, lambda _tag: ["Noto Sans CJK SC"]) == (0, "")
    assert check(CHINESE, lambda _tag: None) == (0, "")


def test_english_never_asks_for_fonts():
    def never(_tag: str) -> list[str]:
        raise AssertionError("no CJK font is needed for English")

    assert check({"LANG": "en_US.UTF-8"}, never) == (0, "")
    assert check({"LANGUAGE": "en", "LANG": "zh_CN.UTF-8"}, never) == (0, "")  # LANGUAGE comes first


def test_ci_installs_the_font_where_none_writes_chinese_whatever_the_language():
    assert apt_packages(lambda _tag: []) == DEBIAN_PACKAGE
    assert apt_packages(lambda _tag: None) == DEBIAN_PACKAGE  # no fc-list yet: install to be sure
    assert apt_packages(lambda _tag: ["Noto Sans CJK SC"]) == ""


def test_the_lister_reads_fc_list_and_tells_when_it_cannot(tmp_path):
    fc_list = _fake_fc_list(tmp_path / "found", "Noto Sans CJK SC\nNoto Serif CJK SC\n")
    assert fc_list_fonts(str(fc_list))("zh-cn") == ["Noto Sans CJK SC", "Noto Serif CJK SC"]
    assert (tmp_path / "found" / "asked").read_text().split() == [":lang=zh-cn", "family"]
    assert fc_list_fonts(str(_fake_fc_list(tmp_path / "none", "")))("zh-cn") == []
    assert fc_list_fonts(str(_fake_fc_list(tmp_path / "broken", "", status=1)))("zh-cn") is None
    assert fc_list_fonts(None)("zh-cn") is None
    assert fc_list_fonts(str(tmp_path / "not-there"))("zh-cn") is None


def test_the_script_prints_the_advice_on_stderr_and_exits_0(tmp_path):
    fake = _fake_fc_list(tmp_path / "bin", "")
    env = {"PATH": f"{fake.parent}:/usr/bin:/bin", "LANG": "zh_CN.UTF-8", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == ""
    assert DEBIAN_PACKAGE in done.stderr and FEDORA_PACKAGE in done.stderr
    listed = subprocess.run([sys.executable, str(SCRIPT), "--apt-packages"], env=env, capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert (listed.returncode, listed.stdout.strip()) == (0, DEBIAN_PACKAGE)
