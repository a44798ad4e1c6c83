"""The lab GPU in the window: Run ▸ Lab GPU…, following the instructor, the followers, the strip when unreachable."""
