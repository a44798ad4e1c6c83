"""Reading the real Nsight Systems exports in tests/data/nsys, checked against SQL on the same files."""

from collections import Counter

import numpy as np
import pytest
from nsys_files import NAMES, NVTX, OLD, STREAMS, UVM, WITH_ENUMS, activities_of, changed, raw_of, sql

from overlapviz.importers.activity import ActivityKind, CopyKind, HostMemory
from overlapviz.importers.kineto import looks_like_kineto
from overlapviz.importers.nsys import looks_like_nsys, read_nsys
from overlapviz.importers.to_trace import EmptyTraceError, activities_to_trace

# The ENUM_* names of the kinds these files hold, and what each is here.
COPY_KIND_OF_NAME = {
    "CUDA_MEMCPY_KIND_HTOD": CopyKind.H2D,
    "CUDA_MEMCPY_KIND_DTOH": CopyKind.D2H,
    "CUDA_MEMCPY_KIND_UVM_HTOD": CopyKind.UVM_H2D,
    "CUDA_MEMCPY_KIND_UVM_DTOH": CopyKind.UVM_D2H,
}
MEMORY_OF_NAME = {
    "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE": HostMemory.PAGEABLE,
    "CUDA_MEMOPR_MEMORY_KIND_PINNED": HostMemory.PINNED,
    "CUDA_MEMOPR_MEMORY_KIND_DEVICE": HostMemory.DEVICE,
    "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN": HostMemory.UNKNOWN,
}
# Rows of each table as tests/data/nsys/README.md gives them: memcpy, memset, kernel, API calls, syncs, NVTX.
COUNTS = {
    OLD: (48, 12, 12, 111, 15, 0),
    NVTX: (1, 1, 19, 968, 1, 652),
    UVM: (74, 2, 97, 207, 69, 0),
    STREAMS: (12, 0, 4, 44, 1, 0),
}
RANGES = "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71) AND end IS NOT NULL"


def kinds(activities, *kinds):
    return activities.mask(*kinds)


def copies(activities):
    """(copy kind, source, destination) -> rows."""
    a, rows = activities, activities.mask(ActivityKind.MEMCPY)
    return Counter(zip(a["copy_kind"][rows], a["src_memory"][rows], a["dst_memory"][rows], strict=True))


def names_of(activities, rows):
    return [activities.names[i] for i in activities["name"][rows]]


def table_exists(name, table):
    return bool(sql(name, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", (table,))[0][0])


@pytest.mark.parametrize("name", NAMES)
def test_each_file_is_recognised_as_nsys_and_not_as_kineto(name):
    assert looks_like_nsys(raw_of(name))
    assert not looks_like_kineto(raw_of(name)[:65536])


@pytest.mark.parametrize("name", NAMES)
def test_the_rows_of_each_table_are_read_as_many_as_sql_counts(name):
    a = activities_of(name)
    tables = ("MEMCPY", "MEMSET", "KERNEL", "RUNTIME", "SYNCHRONIZATION")
    in_sql = [
        sql(name, f"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_{t}")[0][0]
        if table_exists(name, f"CUPTI_ACTIVITY_KIND_{t}")
        else 0
        for t in tables
    ]
    ranges = sql(name, RANGES)[0][0] if table_exists(name, "NVTX_EVENTS") else 0
    read = [
        kinds(a, ActivityKind.MEMCPY).sum(),
        kinds(a, ActivityKind.MEMSET).sum(),
        kinds(a, ActivityKind.KERNEL).sum(),
        kinds(a, ActivityKind.RUNTIME, ActivityKind.DRIVER).sum(),
        kinds(a, ActivityKind.SYNC).sum(),
        kinds(a, ActivityKind.ANNOTATION).sum(),
    ]
    assert read == [*in_sql, ranges] == list(COUNTS[name])
    assert len(a) == sum(COUNTS[name])


@pytest.mark.parametrize("name", WITH_ENUMS)
def test_copy_and_memory_kinds_are_what_the_files_enum_tables_say(name):
    by_enum = sql(
        name,
        "SELECT o.name, s.name, d.name, count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m"
        " JOIN ENUM_CUDA_MEMCPY_OPER o ON o.id = m.copyKind JOIN ENUM_CUDA_MEM_KIND s ON s.id = m.srcKind"
        " JOIN ENUM_CUDA_MEM_KIND d ON d.id = m.dstKind GROUP BY 1, 2, 3",
    )
    expected = {
        (COPY_KIND_OF_NAME[kind], MEMORY_OF_NAME[src], MEMORY_OF_NAME[dst]): count for kind, src, dst, count in by_enum
    }
    assert copies(activities_of(name)) == expected


def test_the_files_hold_the_copies_their_readme_describes():
    assert copies(activities_of(STREAMS)) == {
        (CopyKind.H2D, HostMemory.PINNED, HostMemory.DEVICE): 8,
        (CopyKind.D2H, HostMemory.DEVICE, HostMemory.PINNED): 4,
    }
    assert copies(activities_of(UVM)) == {
        (CopyKind.H2D, HostMemory.PAGEABLE, HostMemory.DEVICE): 4,
        (CopyKind.D2H, HostMemory.DEVICE, HostMemory.PAGEABLE): 3,
        (CopyKind.UVM_H2D, HostMemory.UNKNOWN, HostMemory.UNKNOWN): 34,
        (CopyKind.UVM_D2H, HostMemory.UNKNOWN, HostMemory.UNKNOWN): 33,
    }
    assert copies(activities_of(NVTX)) == {(CopyKind.D2H, HostMemory.DEVICE, HostMemory.PINNED): 1}


def test_the_older_generation_without_enum_tables_reads_by_the_known_numbers():
    assert sql(OLD, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'ENUM%' OR name = 'META_DATA_EXPORT'") == [(0,)]
    codes = sql(OLD, "SELECT copyKind, srcKind, dstKind, count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2, 3")
    assert codes == [(1, 0, 2, 45), (2, 2, 0, 3)]  # Nsight's numbering: 0 pageable, 2 device
    assert copies(activities_of(OLD)) == {
        (CopyKind.H2D, HostMemory.PAGEABLE, HostMemory.DEVICE): 45,
        (CopyKind.D2H, HostMemory.DEVICE, HostMemory.PAGEABLE): 3,
    }
    a = activities_of(OLD)
    assert set(names_of(a, a.mask(ActivityKind.MEMCPY))) == {
        "Memcpy HtoD (Pageable -> Device)",
        "Memcpy DtoH (Device -> Pageable)",
    }


def test_unified_memory_migrations_are_their_own_kind_linked_to_no_call():
    a = activities_of(UVM)
    migrations = np.isin(a["copy_kind"], [CopyKind.UVM_H2D, CopyKind.UVM_D2H]) & a.mask(ActivityKind.MEMCPY)
    assert migrations.sum() == 67
    assert (a["correlation"][migrations] == -1).all()  # correlationId 0 in the file
    assert set(names_of(a, migrations)) == {"Unified memory HtoD", "Unified memory DtoH"}
    sizes = sql(UVM, "SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (11, 12) ORDER BY rowid")
    assert a["bytes"][migrations].tolist() == [size for (size,) in sizes]


@pytest.mark.parametrize("name", NAMES)
def test_copies_keep_the_files_times_sizes_devices_and_streams(name):
    a = activities_of(name)
    rows = a.mask(ActivityKind.MEMCPY)
    in_sql = sql(name, "SELECT start, end, bytes, deviceId, streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY rowid")
    read = zip(a["start_ns"][rows], a["end_ns"][rows], a["bytes"][rows], a["device"][rows], a["stream"][rows],
               strict=True)  # fmt: skip
    assert [tuple(int(v) for v in row) for row in read] == in_sql


def test_a_pipeline_on_four_streams_keeps_them_apart():
    a = activities_of(STREAMS)
    rows = a.mask(ActivityKind.MEMCPY, ActivityKind.KERNEL)
    assert set(a["stream"][rows].tolist()) == {13, 14, 15, 16}
    assert (a["bytes"][a.mask(ActivityKind.MEMCPY)] == 100_000_000).all()


@pytest.mark.parametrize("name", NAMES)
def test_kernel_names_are_the_demangled_names_in_string_ids(name):
    a = activities_of(name)
    expected = sql(
        name,
        "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName ORDER BY k.rowid",
    )
    assert names_of(a, a.mask(ActivityKind.KERNEL)) == [value for (value,) in expected]


def test_kernel_names_read_as_written():
    streams, old = activities_of(STREAMS), activities_of(OLD)
    assert set(names_of(streams, streams.mask(ActivityKind.KERNEL))) == {
        "add_parallel(const float *, const float *, float *, int)"
    }
    old_names = Counter(name.partition("<")[0] for name in names_of(old, old.mask(ActivityKind.KERNEL)))
    assert old_names == {"void build_GPU2": 9, "void probe_group_by_GPU2": 3}


def test_runtime_and_driver_calls_are_told_apart_by_event_class():
    a = activities_of(NVTX)
    driver, runtime = names_of(a, a.mask(ActivityKind.DRIVER)), names_of(a, a.mask(ActivityKind.RUNTIME))
    assert (len(driver), len(runtime)) == (885, 83)
    assert all(n.startswith("cu") and not n.startswith("cuda") for n in driver)
    assert all(n.startswith("cuda") for n in runtime)
    assert Counter(driver)["cuGetProcAddress_v2"] == 838


@pytest.mark.parametrize("name", NAMES)
def test_every_device_op_with_a_correlation_links_to_the_call_that_issued_it(name):
    a = activities_of(name)
    calls = a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER)
    call_of = dict(zip(a["correlation"][calls].tolist(), np.flatnonzero(calls).tolist(), strict=True))
    assert len(call_of) == calls.sum()  # one call per correlation id
    expected_words = {ActivityKind.MEMCPY: "Memcpy", ActivityKind.MEMSET: "Memset", ActivityKind.KERNEL: "Launch"}
    linked = 0
    for kind, word in expected_words.items():
        for row in np.flatnonzero(a.mask(kind) & (a["correlation"] != -1)):
            assert word in a.names[a["name"][call_of[int(a["correlation"][row])]]]
            linked += 1
    joined = sum(
        sql(name, f"SELECT count(*) FROM CUPTI_ACTIVITY_KIND_{t} d JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
                  " ON r.correlationId = d.correlationId WHERE d.correlationId > 0")[0][0]
        for t in ("MEMCPY", "MEMSET", "KERNEL")
        if table_exists(name, f"CUPTI_ACTIVITY_KIND_{t}")
    )  # fmt: skip
    assert linked == joined > 0


def test_api_calls_run_on_the_os_thread_that_the_global_thread_id_holds():
    a = activities_of(STREAMS)
    assert set(a["thread"][a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER)].tolist()) == {17068}
    assert sql(STREAMS, "SELECT DISTINCT globalTid % 16777216, globalTid / 16777216 % 16777216 FROM"
                        " CUPTI_ACTIVITY_KIND_RUNTIME") == [(17068, 17068)]  # fmt: skip


def test_nvtx_ranges_are_read_with_their_texts_on_the_host():
    a = activities_of(NVTX)
    ranges = a.mask(ActivityKind.ANNOTATION)
    texts = sql(NVTX, "SELECT text FROM NVTX_EVENTS WHERE eventType = 59 ORDER BY rowid")
    assert names_of(a, ranges) == [text for (text,) in texts]
    assert Counter(names_of(a, ranges))["Fusion::resetTvUses"] > 0
    assert set(a["thread"][ranges].tolist()) == {30571}
    assert (a["on_device"][ranges] == 0).all() and (a["device"][ranges] == -1).all()


def test_synchronisations_are_named_by_their_type():
    a = activities_of(UVM)
    assert Counter(names_of(a, a.mask(ActivityKind.SYNC))) == {"Context synchronize": 67, "Event synchronize": 2}
    old = activities_of(OLD)
    assert Counter(names_of(old, old.mask(ActivityKind.SYNC))) == {"Event synchronize": 9, "Stream wait event": 6}


def test_memsets_are_on_device_memory_with_their_sizes():
    a = activities_of(OLD)
    rows = a.mask(ActivityKind.MEMSET)
    sizes = sql(OLD, "SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMSET ORDER BY rowid")
    assert a["bytes"][rows].tolist() == [size for (size,) in sizes]
    assert (a["dst_memory"][rows] == HostMemory.DEVICE).all()
    assert set(names_of(a, rows)) == {"Memset (Device)"}


@pytest.mark.parametrize(
    ("name", "version", "devices", "recorded"),
    [
        (OLD, None, {0: "Quadro RTX 6000"}, None),
        (NVTX, "2024.6.2.25", {0: "NVIDIA H200"}, "2024-12-11"),
        (UVM, "2025.5.1.121", {0: "NVIDIA GeForce RTX 3090", 1: "NVIDIA GeForce RTX 3090"}, "2025-10-04"),
        (STREAMS, "2026.1.1.204", {0: "NVIDIA GeForce RTX 4060 Ti"}, "2026-01-25"),
    ],
)
def test_meta_names_the_tool_its_version_the_gpus_and_the_date(name, version, devices, recorded):
    meta = activities_of(name).meta
    assert meta["tool"] == "Nsight Systems" and meta["source"] == name
    assert meta.get("tool_version") == version
    assert meta["devices"] == devices
    assert meta.get("recorded") == recorded


def test_devices_are_numbered_as_cuda_numbers_them_not_as_nsys_does():
    assert sql(UVM, "SELECT id, cuDevice, busLocation FROM TARGET_INFO_GPU ORDER BY id") == [
        (0, 1, "0000:41:00.0"),
        (1, 0, "0000:01:00.0"),
    ]
    named_by_bus = changed(UVM, "UPDATE TARGET_INFO_GPU SET name = 'GPU at ' || busLocation")
    assert read_nsys(named_by_bus, UVM).meta["devices"] == {0: "GPU at 0000:01:00.0", 1: "GPU at 0000:41:00.0"}


@pytest.mark.parametrize("name", NAMES)
def test_the_legacy_default_stream_is_the_one_the_stream_table_calls_null(name):
    null = [stream for (stream,) in sql(name, "SELECT streamId FROM TARGET_INFO_CUDA_STREAM WHERE flag = 3")]
    assert activities_of(name).meta.get("null_streams", []) == sorted(null)


def test_an_old_export_names_its_null_stream_in_a_table_of_its_own():
    assert sql(OLD, "SELECT streamId FROM TARGET_INFO_CUDA_NULL_STREAM") == [(7,)]
    assert activities_of(OLD).meta["null_streams"] == [7]



def test_the_trace_lists_the_legacy_stream_only_where_work_ran_on_it():
    assert activities_to_trace(activities_of(OLD)).meta.legacy_streams == (0,)  # all its work: stream 7
    assert activities_to_trace(activities_of(STREAMS)).meta.legacy_streams == ()  # four streams it created


@pytest.mark.parametrize("name", NAMES)
def test_every_record_keeps_the_os_process_its_global_ids_hold(name):
    a = activities_of(name)
    expected = {pid for (pid,) in sql(name, "SELECT DISTINCT globalTid / 16777216 % 16777216 FROM"
                                            " CUPTI_ACTIVITY_KIND_RUNTIME")}  # fmt: skip
    assert set(a["process"][a.mask(ActivityKind.RUNTIME, ActivityKind.DRIVER)].tolist()) == expected
    ops = a.mask(ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.KERNEL)
    assert set(a["process"][ops].tolist()) == expected  # one program in each file, its ops and calls alike


def test_under_wsl_the_gpu_with_sms_and_a_bus_location_names_the_device_not_the_virtual_adapter():
    # WSL lists Windows' virtual adapter beside the real GPU, under the same cuDevice
    for order in ("id + 10", "id - 10"):  # whichever row comes first
        wsl = changed(STREAMS, "INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation, smCount, cuDevice)"
                               f" SELECT vmId, {order}, 'Microsoft Basic Render Driver', '', 0, cuDevice"
                               " FROM TARGET_INFO_GPU")  # fmt: skip
        assert read_nsys(wsl, STREAMS).meta["devices"] == {0: "NVIDIA GeForce RTX 4060 Ti"}


def test_a_real_wsl_export_names_its_gpu_and_without_gpu_work_is_refused_in_words():
    name = "ripgrep-2025.3-wsl2-no-gpu-activity.sqlite.gz"
    a = read_nsys(raw_of(name), name)
    assert a.meta["devices"] == {0: "NVIDIA GeForce RTX 4060 Laptop GPU"}
    with pytest.raises(EmptyTraceError, match="no copy, memset or kernel to show"):
        activities_to_trace(a)


def test_a_stream_wait_names_the_stream_and_record_call_of_its_event_by_event_sync_id():
    name = "ripgrep-2025.3-wsl2-no-gpu-activity.sqlite.gz"
    # the export's two event records (cudaEventRecord, correlation ids 626 and 677) on stream 7
    assert sql(name, "SELECT eventSyncId, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_CUDA_EVENT") == [
        (1, 7, 626), (2, 7, 677)]  # fmt: skip
    a = read_nsys(raw_of(name), name)
    syncs = a.mask(ActivityKind.SYNC)
    # its one event synchronisation (eventSyncId 2) waits on the host, not on a stream: nothing to name
    assert set(a["wait_stream"][syncs].tolist()) == set(a["wait_record"][syncs].tolist()) == {-1}
    # a synchronisation of stream 7 linked to the first record, as a cudaStreamWaitEvent's is
    linked = changed(name, "UPDATE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION SET eventSyncId = 1 WHERE correlationId = 681")
    a = read_nsys(linked, name)
    waits = np.flatnonzero(a.mask(ActivityKind.SYNC) & (a["correlation"] == 681))
    assert a["wait_stream"][waits].tolist() == [7] and a["wait_record"][waits].tolist() == [626]
