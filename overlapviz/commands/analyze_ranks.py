"""``overlapviz analyze DIR`` (or several files): a distributed job, rank by rank, then as a whole.

Each rank is read and reduced in a worker process (`overlapviz.job.pool`); this process
holds the ranks' summaries only. Bad input (a missing path, a folder without traces, a file
that is no trace, two files of one rank) is named on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from overlapviz.job.discovery import JobInputError, job_files
from overlapviz.job.job_report import job_json, job_lines
from overlapviz.job.pool import map_local
from overlapviz.job.reduce import reduce_job
from overlapviz.job.worker import RankSource


def analyze_ranks(paths: Sequence[Path], args: argparse.Namespace) -> int:
    """Print the job of the traces `paths` name: the ranks' table and findings, or ``--json``."""
    if args.workers is not None and args.workers < 1:
        return _bad_input("--workers: give 1 or more")
    try:
        files = job_files(paths)
        sources = [RankSource(str(file), args.window) for file in files]
        job = reduce_job(map_local(sources, args.workers))
    except JobInputError as error:
        return _bad_input(str(error))
    if args.json:
        print(json.dumps(job_json(job), indent=2))
    else:
        print("\n".join(job_lines(job)))
    return 0


def _bad_input(message: str) -> int:
    print(f"overlapviz analyze: error: {message}", file=sys.stderr)
    return 2
