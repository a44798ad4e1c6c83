"""Pictures of the timeline: PNG at a chosen width, SVG, the clipboard, with a caption."""
