"""A stand-in for a system command (`ldd`, `fc-list`) in a test's folder: fixed output, fixed exit status."""

from pathlib import Path


def fake_command(folder: Path, name: str, output: str, status: int = 0) -> Path:
    """`folder/name`, a script that prints `output` and exits `status`; its arguments are noted in `folder/asked`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.out").write_text(output)
    command = folder / name
    command.write_text(f'#!/bin/sh\necho "$@" >> "{folder}/asked"\ncat "{folder}/{name}.out"\nexit {status}\n')
    command.chmod(0o755)
    return command
