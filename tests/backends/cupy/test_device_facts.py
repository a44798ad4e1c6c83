from overlapviz.backends.cupy.device_facts import (
    bus_key,
    cuda_version_text,
    facts_from_properties,
    parse_smi,
    pcie_link,
)

H200_PROPS = {
    "name": b"NVIDIA H200", "asyncEngineCount": 3, "multiProcessorCount": 132, "concurrentKernels": 1,
    "totalGlobalMem": 150109880320, "major": 9, "minor": 0, "l2CacheSize": 62914560,
    "pciBusID": 0, "pciDeviceID": 6, "pciDomainID": 0,
}  # fmt: skip


def test_facts_from_the_h200_properties():
    facts = facts_from_properties(H200_PROPS)
    assert facts["name"] == "NVIDIA H200"
    assert facts["copy_engines"] == 3
    assert facts["sm_count"] == 132
    assert facts["concurrent_kernels"] is True
    assert facts["memory_bytes"] == 150109880320
    assert facts["compute_capability"] == "9.0"


def test_cuda_versions_as_text():
    assert cuda_version_text(13020) == "13.2"
    assert cuda_version_text(12040) == "12.4"


def test_bus_ids_of_cuda_and_nvidia_smi_match():
    assert bus_key("00000000:00:06.0") == bus_key("0:00:06.0") == "00:06.0"
    assert bus_key("0000:1A:00.0") == "1a:00.0"


def test_smi_csv_gives_driver_and_link():
    text = "00000000:00:06.0, 580.159.04, 5, 5, 16, 16\n00000000:1B:00.0, 580.159.04, 4, 5, 8, 16\n"
    links = parse_smi(text)
    assert links["00:06.0"] == {
        "driver": "580.159.04", "pcie_gen": 5, "pcie_gen_max": 5, "pcie_width": 16, "pcie_width_max": 16,
    }  # fmt: skip
    assert links["1b:00.0"]["pcie_gen"] == 4


def test_smi_fields_it_cannot_read_are_none_and_junk_lines_skipped():
    links = parse_smi("garbage\n00000000:00:06.0, 580.1, [N/A], [N/A], 16, 16\n")
    assert list(links) == ["00:06.0"]
    assert links["00:06.0"]["pcie_gen"] is None


def test_pcie_link_and_its_theoretical_rate():
    assert pcie_link(5, 16) == ("PCIe Gen5 x16", 63.02)
    assert pcie_link(3, 16) == ("PCIe Gen3 x16", 15.75)
    assert pcie_link(2, 16) == ("PCIe Gen2 x16", 8.0)
    assert pcie_link(None, 16) == (None, None)
    assert pcie_link(7, 16) == ("PCIe Gen7 x16", None)
