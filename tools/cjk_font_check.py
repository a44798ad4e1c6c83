"""Say which package to install when the window's language needs a CJK font and the system has none.

`make run` runs this before the window starts. Qt draws a character that no installed font
holds as an empty box, so a window in Chinese, Japanese or Korean on a system without such a
font is a window of boxes, and nothing says why. This asks fontconfig (``fc-list
:lang=zh-cn``, the font list Qt reads too) whether any installed font writes the language of
the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, read as overlapviz reads
them) and names the packages that hold one on Debian/Ubuntu (apt) and Fedora/RHEL (dnf). A
language chosen in the window's View ▸ Language is the window's own to check: it says the same
when it starts. Nothing of Qt is loaded; without ``fc-list`` there is nothing to ask, and
nothing is said.

Exit status: 0 (the window opens either way; the note goes to stderr). ``--apt-packages``
prints the apt package to install when no Chinese font is found, whatever the environment's
language (CI installs it before taking the window's zh_CN screenshots).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence

from overlapviz._qt.font_packages import DEBIAN_PACKAGE, FEDORA_PACKAGE, needs_cjk_font
from overlapviz.core.i18n import language_from_environment

CI_LANGUAGE = "zh_CN"  # the language of CI's translated screenshots
# what lists the installed fonts that write a fontconfig language tag (None: it could not tell)
FontLister = Callable[[str], list[str] | None]


def fontconfig_tag(code: str) -> str:
    """The fontconfig name of language `code`: ``zh_CN`` -> ``zh-cn``, ``ja`` -> ``ja``."""
    language, _underscore, region = code.partition("_")
    return f"{language}-{region}".lower() if region else language.lower()


def fc_list_fonts(fc_list: str | None) -> FontLister:
    """A `FontLister` on fontconfig's `fc-list` at `fc_list` (None: none installed, it never tells)."""

    def families(tag: str) -> list[str] | None:
        if fc_list is None:
            return None
        try:
            done = subprocess.run(
                [fc_list, f":lang={tag}", "family"], capture_output=True, text=True, timeout=30, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return [line for line in done.stdout.splitlines() if line.strip()] if done.returncode == 0 else None

    return families


def install_advice(tag: str) -> list[str]:
    """Lines naming the packages of a CJK font and the apt and dnf commands that install them."""
    return [
        f"overlapviz: note: no installed font writes this language (`fc-list :lang={tag}` finds none),",
        "so the window's words would show as empty boxes. Install one:",
        f"  Debian, Ubuntu:  sudo apt-get install {DEBIAN_PACKAGE}",
        f"  Fedora, RHEL:    sudo dnf install {FEDORA_PACKAGE}",
    ]


def check(env: Mapping[str, str], fonts: FontLister) -> tuple[int, str]:
    """The exit status and message for `env`: the advice when its language needs a CJK font and none is there."""
    code = language_from_environment(env)
    if not needs_cjk_font(code):
        return 0, ""
    tag = fontconfig_tag(code)
    found = fonts(tag)
    if found is None or found:  # fontconfig could not tell, or a font is there
        return 0, ""
    return 0, "\n".join(install_advice(tag))


def apt_packages(fonts: FontLister) -> str:
    """The apt package of a Chinese font where none is installed or fontconfig cannot tell (for CI to install)."""
    return "" if fonts(fontconfig_tag(CI_LANGUAGE)) else DEBIAN_PACKAGE


def main(argv: Sequence[str] | None = None) -> int:
    """Check this machine; print the advice on stderr (or, asked, the apt package on stdout)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--apt-packages",
        action="store_true",
        help="print the apt package of a Chinese font if none is installed, whatever the language",
    )
    args = parser.parse_args(argv)
    fonts = fc_list_fonts(shutil.which("fc-list"))
    if args.apt_packages:
        print(apt_packages(fonts))
        return 0
    status, message = check(os.environ, fonts)
    if message:
        print(message, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
