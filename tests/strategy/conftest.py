"""Shared fixtures: the session's tables (``tables_dir`` is in tests/conftest.py)."""
