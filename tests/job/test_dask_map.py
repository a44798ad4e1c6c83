"""The map on a real Dask cluster (a LocalCluster of worker processes): the local pool's figures, and its refusals."""

import json
import multiprocessing
import socket
import sys

import pytest
from cli_runs import run_cli
from rank_files import RANK_FILES

from overlapviz.job import dask_map as dask_module
from overlapviz.job.dask_map import LOCAL_CLUSTER, SCHEDULER_ENV, ClusterError, dask_map, map_on_client
from overlapviz.job.discovery import JobInputError
from overlapviz.job.pool import map_local
from overlapviz.job.reduce import reduce_job
from overlapviz.job.summary import RankProblem, RankSummary
from overlapviz.job.worker import RankSource, summarise_file

# make test installs the extra, so this runs wherever the tests are run as documented
distributed = pytest.importorskip("distributed", reason="needs Dask's distributed: pip install 'overlapviz[cluster]'")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, started once for the file, closed after it without a process left."""
    started = distributed.LocalCluster(**LOCAL_CLUSTER)
    yield started
    started.close(timeout=20)
    assert not multiprocessing.active_children()


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster, set_as_default=False, timeout=20) as connected:
        yield connected


@pytest.fixture(autouse=True)
def _no_scheduler_from_the_environment(monkeypatch):
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)


def _job_report(capsys, folder, *how):
    code, out, err = run_cli(capsys, "analyze", folder, "--json", *how)
    assert code == 0, err
    return json.loads(out), err


def test_the_cluster_gives_the_figures_the_local_pool_gives(capsys, cluster, job_folder):
    on_cluster, progress = _job_report(capsys, job_folder, "--dask", cluster.scheduler_address)
    locally, _ = _job_report(capsys, job_folder, "--workers", "1")
    assert on_cluster == locally and len(on_cluster["ranks"]) == 2
    assert progress.splitlines()[-1] == "ranks summarised: 2/2"


def test_the_scheduler_address_comes_from_the_environment_unless_workers_are_given(
    capsys, monkeypatch, cluster, job_folder
):
    monkeypatch.setenv(SCHEDULER_ENV, cluster.scheduler_address)
    on_cluster, progress = _job_report(capsys, job_folder)
    locally, quiet = _job_report(capsys, job_folder, "--workers", "1")
    assert on_cluster == locally and "ranks summarised: 2/2" in progress and quiet == ""


def test_the_results_come_back_in_the_order_of_the_files(client):
    sources = [RankSource(str(file)) for file in reversed(RANK_FILES)]
    results = map_on_client(client, summarise_file, sources)
    assert all(isinstance(r, RankSummary) for r in results)
    assert [r.file for r in results] == [s.path for s in sources]
    assert [r.report for r in results] == [s.report for s in map_local(sources, workers=1)]


def test_a_file_the_workers_cannot_see_is_named_with_their_host(client, tmp_path):
    unseen = tmp_path / "not-shared" / "rank-5.json.gz"
    sources = [RankSource(str(RANK_FILES[0])), RankSource(str(unseen))]
    results = map_on_client(client, summarise_file, sources)
    assert isinstance(results[1], RankProblem) and "cannot see" in results[1].message
    with pytest.raises(JobInputError) as refused:
        reduce_job(results)
    assert str(unseen) in str(refused.value) and socket.gethostname() in str(refused.value)


def test_a_function_failing_on_a_worker_names_the_file_in_one_line(client):
    with pytest.raises(ClusterError, match=r"rank-0\.json: a Dask worker failed: TypeError") as failed:
        map_on_client(client, len, [RankSource("/shared/rank-0.json")])  # a RankSource has no len()
    assert "\n" not in str(failed.value)


def test_dask_local_starts_a_cluster_of_processes_and_closes_it():
    sources = [RankSource(str(file)) for file in RANK_FILES]
    before = set(multiprocessing.active_children())  # the module's cluster's, where it runs
    with dask_map("local") as run_map:
        assert len(set(multiprocessing.active_children()) - before) == 2
        results = run_map(summarise_file, sources)
    assert [r.report for r in results] == [s.report for s in map_local(sources, workers=1)]
    assert set(multiprocessing.active_children()) <= before


def test_a_scheduler_out_of_reach_is_one_line_and_exit_2(capsys, monkeypatch, job_folder):
    monkeypatch.setattr(dask_module, "CONNECT_TIMEOUT_S", 1)
    with socket.socket() as free:  # a port nobody listens on
        free.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{free.getsockname()[1]}"
    code, out, err = run_cli(capsys, "analyze", job_folder, "--dask", address)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1
    assert f"--dask {address}: cannot reach the Dask scheduler" in err


def test_without_distributed_the_error_says_what_to_install(capsys, monkeypatch, job_folder):
    monkeypatch.setitem(sys.modules, "distributed", None)  # what an environment without the extra gives
    code, out, err = run_cli(capsys, "analyze", job_folder, "--dask", "local")
    assert (code, out) == (2, "") and "pip install 'overlapviz[cluster]'" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("argv", "words"), [
    (("--dask", "local", "--workers", "2"), "--workers and --dask: give one"),
    (("--dask", "local"), "--dask: give a folder or several files"),
])  # fmt: skip
def test_dask_with_workers_or_with_one_file_is_refused(capsys, job_folder, argv, words):
    target = job_folder if "--workers" in argv else RANK_FILES[0]
    code, out, err = run_cli(capsys, "analyze", target, *argv)
    assert (code, out) == (2, "") and words in err
