"""Traces of other programs: each importer reads one tool's file into `Activities`.

`Activities` is the one shape every source of CUDA activity takes here (a PyTorch profiler
trace, an Nsight Systems export, CUPTI records of `overlapviz profile`): columns of integer
nanoseconds, one row per copy, memset, kernel, API call, synchronisation or annotation, as
the tool recorded it. Turning activities into a `Trace` is one step for all of them.
"""
