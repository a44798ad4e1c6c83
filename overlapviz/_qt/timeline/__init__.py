"""The timeline: lanes of spans drawn in a few batched items, with zoom, hover and highlight."""
