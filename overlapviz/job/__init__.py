"""A distributed job: its ranks' traces summarised one by one in workers, then reduced to the job's figures."""

from overlapviz.job.discovery import JobInputError, job_files
from overlapviz.job.job_report import job_json, job_lines
from overlapviz.job.pool import map_local
from overlapviz.job.reduce import JobSummary, reduce_job
from overlapviz.job.summary import RankProblem, RankSummary
from overlapviz.job.worker import RankSource, summarise_file

__all__ = [
    "JobInputError", "JobSummary", "RankProblem", "RankSource", "RankSummary", "job_files", "job_json",
    "job_lines", "map_local", "reduce_job", "summarise_file",
]  # fmt: skip
