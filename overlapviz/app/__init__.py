"""The application's state and controller, without Qt: what the user asked for and what the window shows."""
