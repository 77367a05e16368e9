"""Templates of the SPL-T reader (``vision.splt``): the game's segmented glyphs."""
