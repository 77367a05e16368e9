"""Icons, palettes, glyph templates and sample positions, found with ``importlib.resources``."""
