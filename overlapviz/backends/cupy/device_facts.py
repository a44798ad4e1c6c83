"""What the GPU is: copy engines, SMs, memory, PCIe link, driver and runtime versions.

CUDA's device properties give most of it; the PCIe link generation and width come from
``nvidia-smi`` when it is there (matched by PCI bus id, since CUDA and nvidia-smi may number
devices differently). Parsing is pure and tested without a GPU.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

_SMI_FIELDS = (
    "pci.bus_id", "driver_version", "pcie.link.gen.current", "pcie.link.gen.max",
    "pcie.link.width.current", "pcie.link.width.max",
)  # fmt: skip


# Per lane: transfer rate (GT/s) and payload bits per transferred bit, by PCIe generation
# (PCI-SIG base specifications: 8b/10b up to Gen2, 128b/130b from Gen3).
_PCIE_LANE = {1: (2.5, 8 / 10), 2: (5.0, 8 / 10), 3: (8.0, 128 / 130), 4: (16.0, 128 / 130), 5: (32.0, 128 / 130)}


def pcie_link(gen: int | None, width: int | None) -> tuple[str | None, float | None]:
    """(``PCIe Gen5 x16``, theoretical GB/s per direction), or Nones when not known."""
    if gen is None or width is None:
        return None, None
    name = f"PCIe Gen{gen} x{width}"
    if gen not in _PCIE_LANE:
        return name, None
    rate, efficiency = _PCIE_LANE[gen]
    return name, round(rate * efficiency * width / 8, 2)


def cuda_version_text(version: int) -> str:
    """CUDA's integer version (13020) as text (``13.2``)."""
    return f"{version // 1000}.{(version % 1000) // 10}"


def bus_key(bus_id: str) -> str:
    """``00000000:1A:00.0`` and ``0000:1a:00.0`` -> ``1a:00.0`` (bus:device.function)."""
    parts = bus_id.strip().lower().split(":")
    return ":".join(parts[-2:])


def _number(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None


def parse_smi(text: str) -> dict[str, dict[str, Any]]:
    """Per bus key, the driver version and PCIe link from nvidia-smi's CSV (no header, no units)."""
    links: dict[str, dict[str, Any]] = {}
    for line in text.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != len(_SMI_FIELDS):
            continue
        bus, driver, gen, gen_max, width, width_max = fields
        links[bus_key(bus)] = {
            "driver": driver,
            "pcie_gen": _number(gen),
            "pcie_gen_max": _number(gen_max),
            "pcie_width": _number(width),
            "pcie_width_max": _number(width_max),
        }
    return links


def smi_links() -> dict[str, dict[str, Any]]:
    """nvidia-smi's view of every GPU, or {} when it is missing or fails."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return {}
    try:
        out = subprocess.run(
            [smi, f"--query-gpu={','.join(_SMI_FIELDS)}", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return {}
    return parse_smi(out)


def facts_from_properties(props: dict[str, Any]) -> dict[str, Any]:
    """The facts the app and the trace carry, from ``cudaGetDeviceProperties``."""
    name = props.get("name", b"")
    return {
        "name": name.decode() if isinstance(name, bytes) else str(name),
        "copy_engines": int(props.get("asyncEngineCount", 0)),
        "sm_count": int(props.get("multiProcessorCount", 0)),
        "max_threads_per_sm": int(props.get("maxThreadsPerMultiProcessor", 0)),
        "concurrent_kernels": bool(props.get("concurrentKernels", 0)),
        "memory_bytes": int(props.get("totalGlobalMem", 0)),
        "compute_capability": f"{props.get('major', 0)}.{props.get('minor', 0)}",
        "l2_bytes": int(props.get("l2CacheSize", 0)),
        "pci_bus_id": int(props.get("pciBusID", 0)),
        "pci_device_id": int(props.get("pciDeviceID", 0)),
        "pci_domain_id": int(props.get("pciDomainID", 0)),
    }


def device_facts(index: int) -> dict[str, Any]:
    """Everything known about CUDA device `index` (needs CuPy and a GPU)."""
    import cupy

    runtime = cupy.cuda.runtime
    facts = facts_from_properties(runtime.getDeviceProperties(index))
    facts["driver_cuda_version"] = cuda_version_text(runtime.driverGetVersion())
    facts["runtime_version"] = cuda_version_text(runtime.runtimeGetVersion())
    facts["cupy_version"] = cupy.__version__
    bus = f"{facts['pci_domain_id']:x}:{facts['pci_bus_id']:02x}:{facts['pci_device_id']:02x}.0"
    facts.update(smi_links().get(bus_key(bus), {}))
    facts["link"], facts["link_peak_gbps"] = pcie_link(facts.get("pcie_gen"), facts.get("pcie_width"))
    return facts
