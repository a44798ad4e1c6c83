"""A job of many ranks: its overview, a row per rank, and the way from it to a rank's timeline and back."""
