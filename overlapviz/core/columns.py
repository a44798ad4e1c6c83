"""Frozen numpy columns: the storage of traces and of imported activity alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt


def freeze_columns(columns: dict[str, npt.NDArray[Any]], spec: Mapping[str, type], what: str) -> None:
    """Check that `columns` has every column of `spec`, all of one length; cast each to its type, read-only.

    Raises
    ------
    ValueError
        A column is missing, or the columns differ in length; the message names `what`.
    """
    missing = sorted(set(spec) - set(columns))
    if missing:
        raise ValueError(f"{what} columns missing: {', '.join(missing)}")
    lengths = {name: len(columns[name]) for name in spec}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"{what} columns differ in length: {lengths}")
    for name, dtype in spec.items():
        columns[name] = np.asarray(columns[name], dtype=dtype)
        columns[name].flags.writeable = False
