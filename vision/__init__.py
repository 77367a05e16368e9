"""Vision: capture a screen region and read a game's board from it (built on ``engines`` only)."""
