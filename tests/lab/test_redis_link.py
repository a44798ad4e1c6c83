"""What the front and the workers agree on without Redis: the job's function, device keys, URLs as printed."""

from overlapviz.lab import redis_worker
from overlapviz.lab.redis_link import RUN_FUNCTION, Registration, device_key, shown_url


def test_the_function_the_front_names_is_the_workers_job_function():
    module, _, name = RUN_FUNCTION.rpartition(".")
    assert (module, getattr(redis_worker, name)) == (redis_worker.__name__, redis_worker.run_queued_job)


def test_a_device_key_is_a_name_a_request_may_give_for_any_host_and_device():
    assert device_key("gpu1.cluster.example.org", "cuda:0") == "gpu1.cuda-0"
    assert device_key("lab-7", "h200x2-nvlink") == "lab-7.h200x2-nvlink"
    assert len(device_key("h" * 80, "cuda:12")) == 64


def test_a_password_in_the_queue_url_is_never_printed():
    assert shown_url("redis://teacher:s3cret@10.0.0.2:6379/0") == "redis://teacher:***@10.0.0.2:6379/0"
    assert shown_url("redis://:s3cret@host/1") == "redis://:***@host/1"
    assert shown_url("redis://host:6379/0") == "redis://host:6379/0"


def test_a_registration_that_is_not_one_reads_as_none():
    good = Registration("gpu1.cuda-0", "NVIDIA H200", "cupy", "abc", "gpu1", 42)
    assert Registration.from_json(good.to_json()) == good
    assert [Registration.from_json(text) for text in ("", "[]", '{"key": "x"}', b"\xff")] == [None] * 4
