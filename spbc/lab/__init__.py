"""Layer 11, lab: the balance lab. Many games between computer seats (rotated), tallied into counts that add
up the same in any order (tally), played on local processes or a Dask cluster (run; random seats on the
engine's C loop, spbc.ai.fastplay), turned into statistics with intervals and tests (stats) and a report in text
and HTML with plots (report)."""
