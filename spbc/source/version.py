"""The version of spbc, printed into every generated file's banner (pyproject.toml holds the same number)."""

VERSION = "0.1.0"
