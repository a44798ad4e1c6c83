"""Files: opening, saving and writing off the GUI thread, recent files and path dialogs."""
