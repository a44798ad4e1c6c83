"""A pipeline's ops as columns that read as a sequence of `Op` tuples.

A run of 65,536 chunks has 2 x 10^5 ops: making a tuple of each, and then reading each field
back out of the tuples for the model's arrays, took most of the run's CPU. The model and the
trace read the columns themselves; an `Op` is made only where one is asked for (a test, the
message naming an op that broke a rule, the few set-ups that walk the ops one by one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any, NamedTuple, cast, overload

import numpy as np
import numpy.typing as npt

from overlapviz.core.trace.spans import MemoryKind, OpKind, Unit

_ENUMS: dict[str, Callable[[int], Any]] = {"kind": OpKind, "unit": Unit, "memory": MemoryKind}


class Op(NamedTuple):
    """One operation of the pipeline, before it runs (a tuple: runs build thousands)."""

    kind: OpKind
    chunk: int
    stream: int  # -1 for a host copy, which the host thread runs itself
    unit: Unit
    work_ns: float  # how long it takes with its unit to itself
    nbytes: int
    memory: MemoryKind
    occupancy: float  # share of the GPU a kernel fills (1.0 for copies)
    blocks_host: bool  # a pageable copy: the host thread waits in the call until it is done
    name: str
    waits_for: int  # the op the host waits for (an event) before this one; -1 for none
    device: int  # the GPU that runs it (a peer copy: the GPU it copies from)
    after: int  # the op of another stream this one waits for (an event); -1 for none


class OpTable(Sequence[Op]):
    """Every op's fields as one array per `Op` field; ``name`` holds indexes into `names`."""

    def __init__(self, columns: dict[str, npt.NDArray[Any]], names: Sequence[str]) -> None:
        missing = set(Op._fields) - set(columns)
        if missing:
            raise ValueError(f"op columns lack {sorted(missing)}")
        for values in columns.values():
            values.setflags(write=False)  # handed out as they are (see `column`)
        self.columns = columns
        self.names = tuple(names)

    def __len__(self) -> int:
        return len(self.columns["kind"])

    @overload
    def __getitem__(self, index: int) -> Op: ...

    @overload
    def __getitem__(self, index: slice) -> list[Op]: ...

    def __getitem__(self, index: int | slice) -> Op | list[Op]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError(f"op {index} of {len(self)}")
        return Op._make(self._field_values(field, self.columns[field][index].item()) for field in Op._fields)

    def __iter__(self) -> Iterator[Op]:
        make = cast(Callable[[tuple[Any, ...]], Op], partial(tuple.__new__, Op))
        fields = [self.field_list(field) for field in Op._fields]
        return map(make, zip(*fields, strict=True))

    def field_list(self, field: str) -> list[Any]:
        """One field of every op, as the `Op` tuples hold it (enum members, names)."""
        values: list[Any] = self.columns[field].tolist()
        if field == "name":
            return [self.names[code] for code in values]
        if field in _ENUMS:
            members = {value: _ENUMS[field](value) for value in set(values)}
            return [members[value] for value in values]
        return values

    def column(self, field: str, dtype: type, convert: Callable[[Any], Any] | None = None) -> npt.NDArray[Any]:
        """One field of every op (through `convert`, where given) as an array of `dtype` (read-only)."""
        if field == "name":  # each name the ops have converted once
            codes = self.columns["name"]
            used = np.unique(codes)
            lookup: npt.NDArray[Any] = np.zeros(len(self.names), dtype=dtype)
            lookup[used] = np.fromiter(map(convert or _same, [self.names[c] for c in used.tolist()]), dtype=dtype)
            named: npt.NDArray[Any] = lookup[codes]
            return named
        values: npt.NDArray[Any] = (
            self.columns[field].astype(dtype, copy=False) if convert is None
            else np.fromiter(map(convert, self.field_list(field)), dtype=dtype, count=len(self))
        )  # fmt: skip
        return values

    def _field_values(self, field: str, value: Any) -> Any:
        if field == "name":
            return self.names[value]
        return _ENUMS[field](value) if field in _ENUMS else value


def _same(value: Any) -> Any:
    return value
