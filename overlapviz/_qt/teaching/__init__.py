"""The teaching tools: compare A/B, lessons, presentation mode and replay."""
