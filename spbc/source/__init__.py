"""Layer 1, source: spans of rules text, diagnostics, reading and writing files, quoting text for every
target, and where the shipped files live. Imports nothing else of spbc."""
