"""``overlapviz analyze DIR`` (or several files): a distributed job, rank by rank, then as a whole.

Each rank is read and reduced in a worker process: a local pool (`overlapviz.job.pool`), or
with ``--dask ADDRESS`` (or ``DASK_SCHEDULER_ADDRESS``) a Dask cluster's workers
(`overlapviz.job.dask_map`); this process holds the ranks' summaries only. Bad input (a missing
path, a folder without traces, a file that is no trace, two files of one rank, a cluster out of
reach) is named on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from overlapviz.core.i18n import _
from overlapviz.job.dask_map import SCHEDULER_ENV, ClusterError, dask_map
from overlapviz.job.discovery import JobInputError, job_files
from overlapviz.job.job_report import job_json, job_lines
from overlapviz.job.pool import RankResult, map_local
from overlapviz.job.reduce import reduce_job
from overlapviz.job.worker import RankSource, rank_sources, summarise_file


def analyze_ranks(paths: Sequence[Path], args: argparse.Namespace) -> int:
    """Print the job of the traces `paths` name: the ranks' table and findings, or ``--json``."""
    if args.workers is not None and args.workers < 1:
        return _bad_input(_("--workers: give 1 or more"))
    if args.workers is not None and args.dask is not None:
        return _bad_input(_("--workers and --dask: give one (the Dask cluster has its own workers)"))
    try:
        files = job_files(paths)
        sources = rank_sources(files, args.window)
        job = reduce_job(_summaries(sources, args))
    except (JobInputError, ClusterError) as error:
        return _bad_input(str(error))
    if args.json:
        print(json.dumps(job_json(job), indent=2))
    else:
        print("\n".join(job_lines(job)))
    return 0


def cluster_address(args: argparse.Namespace) -> str | None:
    """``--dask``'s address, else ``DASK_SCHEDULER_ADDRESS``'s unless ``--workers`` asks for the local pool."""
    if args.dask is not None:
        return str(args.dask)
    given = os.environ.get(SCHEDULER_ENV, "").strip()
    return given if given and args.workers is None else None


def _summaries(sources: Sequence[RankSource], args: argparse.Namespace) -> list[RankResult]:
    address = cluster_address(args)
    if address is None:
        return map_local(sources, args.workers)
    # the workers open the files themselves, from wherever they run: absolute paths of the shared file system
    shared = [dataclasses.replace(source, path=os.path.abspath(source.path)) for source in sources]
    with dask_map(address, progress=sys.stderr) as run_map:
        return run_map(summarise_file, shared)


def _bad_input(message: str) -> int:
    print(_("{program}: error: {message}").format(program="overlapviz analyze", message=message), file=sys.stderr)
    return 2
