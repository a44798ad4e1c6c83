"""Record real PyTorch profiler traces of copy + compute loops, for the importer's tests.

Run on a machine with an NVIDIA GPU and PyTorch (not part of the package, which does not
depend on PyTorch):

    python tools/record_torch_traces.py OUT_DIR [SCENARIO ...]

Each scenario is a small loop a user might write, profiled with
``torch.profiler.profile(activities=[CPU, CUDA])`` and written with ``export_chrome_trace``,
then gzipped: ``OUT_DIR/torch-<scenario>.json.gz``. A summary of what each recorded (event
counts, sizes) goes to ``OUT_DIR/torch-traces.txt``. The scenarios are the mistakes the
importer's findings should name, each beside its fix:

- ``pageable`` vs ``pinned``: ``tensor.to("cuda", non_blocking=True)`` from a plain tensor and
  from a ``pin_memory()`` one, a kernel per chunk, chunks spread over 4 ``torch.cuda.Stream``s.
- ``blocking``: the pinned loop with ``non_blocking=False``.
- ``one-stream``: the pinned loop with every chunk on the current stream.
- ``dataloader``: a ``DataLoader(pin_memory=True)`` feeding a small model.
- ``train-step``: a few steps of a small MLP (forward, backward, optimizer) with host batches
  copied in each step.
- ``wait-stream``: the pinned loop on two streams that wait for each other
  (``Stream.wait_stream``: a ``cudaEventRecord`` and a ``cudaStreamWaitEvent`` each time): copies
  on one stream, kernels on another, the program's own waits between them.
- ``wait-stream-sync``: the same loop, profiled with Kineto's CUDA synchronisation events on
  (``enable_cuda_sync_events``), which record each wait as the GPU saw it.
"""

from __future__ import annotations

import gzip
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import torch
from torch._C._profiler import _ExperimentalConfig
from torch.profiler import ProfilerActivity, profile, record_function

CHUNKS = 8
CHUNK_ELEMENTS = 4 * 1024 * 1024  # 16 MiB of float32 per chunk
STREAMS = 4
SYNC_EVENT_SCENARIOS = frozenset({"wait-stream-sync"})  # profiled with Kineto's cuda_sync events


def _work(x: torch.Tensor) -> torch.Tensor:
    """A kernel long enough to see beside a 16 MiB copy (a few elementwise passes)."""
    for _ in range(8):
        x = torch.sin(x) * 0.5 + 0.25
    return x


def _host_chunks(pinned: bool) -> list[torch.Tensor]:
    chunks = [torch.rand(CHUNK_ELEMENTS) for _ in range(CHUNKS)]
    return [c.pin_memory() for c in chunks] if pinned else chunks


def _outputs(pinned: bool) -> list[torch.Tensor]:
    outs = [torch.empty(CHUNK_ELEMENTS) for _ in range(CHUNKS)]
    return [o.pin_memory() for o in outs] if pinned else outs


def copy_loop(pinned: bool, non_blocking: bool, streams: int) -> Callable[[], None]:
    """H2D, kernel, D2H per chunk; chunk c on stream c % streams (0: the current stream)."""
    host, outs = _host_chunks(pinned), _outputs(pinned)
    side = [torch.cuda.Stream() for _ in range(streams)] if streams else []

    def run() -> None:
        for c in range(CHUNKS):
            stream = side[c % streams] if side else torch.cuda.current_stream()
            with torch.cuda.stream(stream), record_function(f"chunk {c}"):
                device = host[c].to("cuda", non_blocking=non_blocking)
                outs[c].copy_(_work(device), non_blocking=non_blocking)
        torch.cuda.synchronize()

    return run


def dataloader_loop() -> Callable[[], None]:
    """A DataLoader with pin_memory=True feeding a linear layer, as a training input pipeline does."""
    data = torch.utils.data.TensorDataset(torch.rand(4096, 1024), torch.rand(4096, 16))
    loader = torch.utils.data.DataLoader(data, batch_size=512, pin_memory=True, num_workers=0)
    model = torch.nn.Linear(1024, 16).cuda()

    def run() -> None:
        with torch.no_grad():
            for x, y in loader:
                x, y = x.to("cuda", non_blocking=True), y.to("cuda", non_blocking=True)
                (model(x) - y).abs().mean()
        torch.cuda.synchronize()

    return run


def train_step_loop() -> Callable[[], None]:
    """Four steps of a small MLP: the batch copied in (pageable), forward, backward, the optimizer."""
    model = torch.nn.Sequential(torch.nn.Linear(2048, 2048), torch.nn.ReLU(), torch.nn.Linear(2048, 10)).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = [(torch.rand(1024, 2048), torch.randint(0, 10, (1024,))) for _ in range(4)]

    def run() -> None:
        for step, (x, y) in enumerate(batches):
            with record_function(f"step {step}"):
                x, y = x.cuda(), y.cuda()
                loss = torch.nn.functional.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                loss.item()  # a synchronising read, as logging code does
        torch.cuda.synchronize()

    return run


def wait_stream_loop() -> Callable[[], None]:
    """H2D on a copy stream, the kernel on a compute stream that waits for it, D2H back on the copy stream."""
    host, outs = _host_chunks(True), _outputs(True)
    copies, compute = torch.cuda.Stream(), torch.cuda.Stream()

    def run() -> None:
        for c in range(CHUNKS):
            with torch.cuda.stream(copies), record_function(f"chunk {c}"):
                device = host[c].to("cuda", non_blocking=True)
            compute.wait_stream(copies)
            with torch.cuda.stream(compute):
                result = _work(device)
            copies.wait_stream(compute)
            with torch.cuda.stream(copies):
                outs[c].copy_(result, non_blocking=True)
        torch.cuda.synchronize()

    return run


SCENARIOS: dict[str, Callable[[], Callable[[], None]]] = {
    "pageable": lambda: copy_loop(pinned=False, non_blocking=True, streams=STREAMS),
    "pinned": lambda: copy_loop(pinned=True, non_blocking=True, streams=STREAMS),
    "blocking": lambda: copy_loop(pinned=True, non_blocking=False, streams=STREAMS),
    "one-stream": lambda: copy_loop(pinned=True, non_blocking=True, streams=0),
    "dataloader": dataloader_loop,
    "train-step": train_step_loop,
    "wait-stream": wait_stream_loop,
    "wait-stream-sync": wait_stream_loop,
}


def record(name: str, out: Path) -> str:
    """Warm the scenario up, profile one run of it, write the gzipped trace; a summary line."""
    run = SCENARIOS[name]()
    run()  # warm-up: CUDA context, kernels' first launch, allocator
    sync_events = _ExperimentalConfig(enable_cuda_sync_events=True) if name in SYNC_EVENT_SCENARIOS else None
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], experimental_config=sync_events) as prof:
        run()
    plain = out / f"torch-{name}.json"
    prof.export_chrome_trace(str(plain))
    packed = out / f"torch-{name}.json.gz"
    with plain.open("rb") as source, gzip.open(packed, "wb", compresslevel=9) as target:
        shutil.copyfileobj(source, target)
    size, packed_size = plain.stat().st_size, packed.stat().st_size
    plain.unlink()
    return f"{name}: {size} bytes, {packed_size} gzipped"


def main(argv: list[str]) -> int:
    """Record the scenarios named after argv[1] (default: every one) into the folder argv[1]."""
    out = Path(argv[1])
    chosen = argv[2:] or list(SCENARIOS)
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(0)}",
        *(record(name, out) for name in chosen),
    ]
    (out / "torch-traces.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
