"""The controls, panels and small widgets around the timeline: sliders, legend, metrics, error strip."""
