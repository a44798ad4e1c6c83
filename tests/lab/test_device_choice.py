"""A job that names no device: the least busy of the devices like the first, its answer good for all of them."""

from overlapviz.core.config import PipelineConfig
from overlapviz.lab.device_choice import alike_scope, least_busy
from overlapviz.lab.dispatch import DeviceSpec, DeviceState
from overlapviz.lab.job import Job

H200_0 = DeviceSpec("cuda:0", "NVIDIA H200", "cupy")
H200_1 = DeviceSpec("cuda-1", "NVIDIA H200", "cupy")
OTHER = DeviceSpec("cuda-2", "NVIDIA A100", "cupy")


def test_the_least_busy_of_the_first_devices_model_is_chosen():
    states = (DeviceState(H200_0, True, 3), DeviceState(H200_1, True, 1), DeviceState(OTHER, False, 0))
    assert least_busy(states).device == H200_1  # the idle A100 is another model: only a job naming it goes there


def test_a_tie_goes_to_the_first():
    states = (DeviceState(H200_0, False, 0), DeviceState(H200_1, False, 0))
    assert least_busy(states).device == H200_0
    assert least_busy((DeviceState(H200_0, True, 0), DeviceState(H200_1, False, 0))).device == H200_1


def test_answers_for_jobs_naming_no_device_are_shared_across_the_model_and_kept_apart_from_named_ones():
    config = PipelineConfig(chunks=8)
    on_0, on_1 = (Job(config, spec.key, alike=alike_scope(DeviceState(spec, False, 0))) for spec in (H200_0, H200_1))
    assert on_0.cache_key() == on_1.cache_key()
    assert on_0.cache_key() != Job(config, H200_0.key).cache_key()
    on_other = Job(config, OTHER.key, alike=alike_scope(DeviceState(OTHER, False, 0)))
    assert on_other.cache_key() != on_0.cache_key()
