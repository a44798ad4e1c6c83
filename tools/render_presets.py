"""Draw every preset as the app exports it, or compare two folders of such drawings.

A reshaping of the code must not change a single exported pixel. Draw every preset on the
model before and after it, then compare:

    python tools/render_presets.py draw OUT_DIR [--jobs N]
    python tools/render_presets.py compare BEFORE_DIR AFTER_DIR

`draw` calls the `overlapviz` command line (`run --preset NAME --backend sim --png`), so the
same script draws any commit whatever its modules are called: each preset in PNG and SVG in
the light theme, and in PNG in the dark and projector themes. A preset whose run is refused
leaves its error text instead of a picture, so that refusals are compared too. `compare`
lists every file that differs or exists on one side only and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PICTURES = (("light", "png"), ("light", "svg"), ("dark", "png"), ("projector", "png"))


def preset_names() -> list[str]:
    """Every preset's name, as `overlapviz presets` lists them."""
    out = subprocess.run(_command("presets"), capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "overlapviz", *args]


def draw_one(name: str, theme: str, ext: str, folder: Path) -> None:
    """Draw preset `name` to ``folder/NAME-THEME.EXT``, or write its refusal beside it."""
    path = folder / f"{name}-{theme}.{ext}"
    run = _command("run", "--preset", name, "--backend", "sim", "--png", str(path), "--theme", theme)
    done = subprocess.run(run, capture_output=True, text=True)
    if done.returncode != 0:
        (folder / f"{name}-{theme}.{ext}.refused.txt").write_text(f"exit {done.returncode}\n{done.stderr}")


def draw(folder: Path, jobs: int) -> None:
    """Draw every preset in every picture kind into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    work = [(name, theme, ext) for name in preset_names() for theme, ext in PICTURES]
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda item: draw_one(*item, folder), work))
    print(f"{len(work)} pictures of {len(work) // len(PICTURES)} presets in {folder}")


def _digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def compare(before: Path, after: Path) -> int:
    """Print what differs between two drawn folders; 0 when nothing does."""
    old, new = _digests(before), _digests(after)
    differ = sorted(name for name in old.keys() & new.keys() if old[name] != new[name])
    only = sorted(old.keys() ^ new.keys())
    for name in differ:
        print(f"differs: {name}")
    for name in only:
        print(f"only in {'before' if name in old else 'after'}: {name}")
    print(f"{len(old.keys() & new.keys()) - len(differ)} identical, {len(differ)} differ, {len(only)} on one side")
    return 1 if differ or only else 0


def main() -> int:
    """Run `draw` or `compare`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    drawing = commands.add_parser("draw")
    drawing.add_argument("folder", type=Path)
    drawing.add_argument("--jobs", type=int, default=2)
    comparing = commands.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "draw":
        draw(args.folder, args.jobs)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
