"""Copy bandwidth against transfer size: a plot of the backend's sweep, in a dialog."""
