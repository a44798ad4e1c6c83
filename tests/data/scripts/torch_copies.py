"""A PyTorch loop a user might write: chunks copied to the GPU, worked on and copied back.

``python torch_copies.py [pinned|pageable]``: ``pin_memory()`` tensors with
``non_blocking=True`` (the copies run beside the kernels), or plain tensors.
"""

import sys

import torch

CHUNKS = 8
REPEATS = 4  # the loop, several times: most of the recording, beside the warm-up
ELEMENTS = 4 * 1024 * 1024  # 16 MiB of float32 per chunk


def work(x: torch.Tensor) -> torch.Tensor:
    for _ in range(4):
        x = torch.sin(x) * 0.5 + 0.25
    return x


def main(memory: str) -> None:
    pinned = memory == "pinned"
    streams = [torch.cuda.Stream() for _ in range(2)]
    inputs = [torch.full((ELEMENTS,), float(c)) for c in range(CHUNKS)]
    outputs = [torch.empty(ELEMENTS) for _ in range(CHUNKS)]
    if pinned:
        inputs, outputs = [t.pin_memory() for t in inputs], [t.pin_memory() for t in outputs]
    work(torch.zeros(ELEMENTS, device="cuda"))  # load the kernels before the loop
    torch.cuda.synchronize()
    for _ in range(REPEATS):
        for c in range(CHUNKS):
            with torch.cuda.stream(streams[c % 2]):
                device = inputs[c].to("cuda", non_blocking=pinned)
                outputs[c].copy_(work(device), non_blocking=pinned)
        torch.cuda.synchronize()
    expected = work(torch.full((1,), float(CHUNKS - 1))).item()
    if not torch.allclose(outputs[-1][:4], torch.full((4,), expected)):
        raise SystemExit(f"wrong result: {outputs[-1][:4]} instead of {expected}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pinned")
