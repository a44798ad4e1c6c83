"""Qt-free, CuPy-free model of pipelines, traces, metrics and findings."""
