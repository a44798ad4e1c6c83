"""Print the pip extra that matches this machine's NVIDIA driver (",cuda12" / ",cuda13"), or nothing.

Used by the Makefile, so that `make run` on a GPU machine installs the CUDA packages that the
driver can run, and installs none where there is no driver. Standard library only: it runs
before the virtual environment exists.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

# The newest CUDA major version each driver branch supports (NVIDIA's CUDA Toolkit release
# notes, table "CUDA Toolkit and Corresponding Driver Versions": CUDA 13.0 needs >= 580).
_CUDA13_MIN_DRIVER = 580
_CUDA12_MIN_DRIVER = 525


def driver_major() -> int | None:
    """The NVIDIA driver's major version, or None when there is no usable driver."""
    if os.environ.get("OVERLAPVIZ_NO_CUDA"):
        return None
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        out = subprocess.run(
            [smi, "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.", out)
    return int(match.group(1)) if match else None


def cuda_extra(major: int | None) -> str:
    """The extra for a driver major version."""
    if major is None:
        return ""
    if major >= _CUDA13_MIN_DRIVER:
        return ",cuda13"
    if major >= _CUDA12_MIN_DRIVER:
        return ",cuda12"
    return ""


if __name__ == "__main__":
    print(cuda_extra(driver_major()), end="")
