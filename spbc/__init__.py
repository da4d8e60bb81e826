"""spbc: the Saint Petersburg rules compiler and toolkit."""

__version__ = "0.1.0"
