"""The commands people use: a thin Typer CLI over the spbc library."""
