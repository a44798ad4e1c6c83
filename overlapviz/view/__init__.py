"""What the pictures show, without Qt: timeline layout, span sets, callouts, hover look-up, formatting."""
