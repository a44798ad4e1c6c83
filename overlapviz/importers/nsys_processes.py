"""The processes of an Nsight Systems export that ran GPU work: the ranks of a job profiled as one.

``nsys profile mpirun ...`` or ``nsys profile torchrun ...`` writes one export holding every
process of the job, each rank its own process (often on its own GPU). A process ran GPU work
when a copy, memset or kernel record names it (``globalPid``, the process id in the 24 bits
above the thread id's). Its rank is recorded only where Nsight Systems traced MPI: the
``MPI_RANKS`` table maps a thread (``globalTid``) to its MPI rank. Names (``PROCESSES``) and
NVTX domains say nothing reliable of a rank, so they are not read for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from overlapviz.core.files.trace_format import file_reason
from overlapviz.importers.activity import Activities
from overlapviz.importers.nsys import KERNEL, MEMCPY, MEMSET, NsysFormatError
from overlapviz.importers.untrusted_sqlite import Column, DatabaseProblem, UntrustedDatabase

MPI_RANKS, PROCESSES = "MPI_RANKS", "PROCESSES"
_PROCESS_SHIFT, _ID_BITS = 24, 0xFFFFFF


@dataclass(frozen=True, slots=True)
class GpuProcess:
    """A process of the export that ran GPU work."""

    pid: int  # the OS process id, as the activity rows' ``process`` holds it
    mpi_rank: int | None  # as MPI_RANKS records it; None where the export has no MPI trace of it
    name: str  # as PROCESSES names it; "" where it does not


def gpu_processes(raw: bytes, source: str) -> list[GpuProcess]:
    """The processes that ran GPU work in the export's bytes, in the order of their ids.

    Raises
    ------
    NsysFormatError
        The database is damaged, or a table it reads holds values of the wrong type.
    """
    try:
        with UntrustedDatabase(raw) as database:
            global_pids = _device_processes(database)
            ranks = _mpi_ranks(database)
            names = database.lookup(PROCESSES, "globalPid", "name", global_pids) if PROCESSES in database.tables else {}
    except DatabaseProblem as problem:
        raise NsysFormatError(file_reason(source, problem)) from None
    return [GpuProcess(_pid(gp), ranks.get(_pid(gp)), names.get(gp, "")) for gp in global_pids]


def only_process(activities: Activities, process: GpuProcess) -> Activities:
    """The rows of `activities` of one process, named after it."""
    rows = activities["process"] == process.pid
    meta = {key: value for key, value in activities.meta.items() if key != "process"}
    if process.name:
        meta["process"] = process.name
    return Activities({name: values[rows] for name, values in activities.columns.items()}, activities.names, meta)


def _device_processes(database: UntrustedDatabase) -> list[int]:
    """The globalPid (process id shifted, thread id 0) of each process with device records, in id order."""
    found: set[int] = set()
    for table in (KERNEL, MEMCPY, MEMSET):
        if table in database.tables:
            column = database.integers(table, [Column("globalPid", required=False)])[:, 0]
            found |= {int(value) for value in np.unique(column) if value >= 0}
    return sorted({value >> _PROCESS_SHIFT << _PROCESS_SHIFT for value in found}, key=_pid)


def _mpi_ranks(database: UntrustedDatabase) -> dict[int, int]:
    """Each process's MPI rank, where the MPI trace records one (and only one) for its threads."""
    if MPI_RANKS not in database.tables:
        return {}
    seen: dict[int, set[int]] = {}
    for thread, rank in database.rows(MPI_RANKS, [Column("globalTid"), Column("rank")]):
        seen.setdefault(_pid(int(thread)), set()).add(int(rank))
    return {pid: ranks.pop() for pid, ranks in seen.items() if len(ranks) == 1 and min(ranks) >= 0}


def _pid(global_id: int) -> int:
    return (global_id >> _PROCESS_SHIFT) & _ID_BITS
