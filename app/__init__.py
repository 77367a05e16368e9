"""The Kibitz application: the PySide6 window and the ``kibitz`` command line."""
