"""The lab server: learners' laptops drive the class's GPUs (or the model) over HTTP.

`overlapviz serve` starts it (`server`); docs/lab.md is the instructor's guide. A job is a
pipeline's settings, never code: `request` checks them with the presets' validator.
`dispatch` is the seam between the HTTP side and whatever runs the jobs (`embedded`: one
worker process per device on this machine).
"""
