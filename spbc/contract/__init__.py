"""Layer 2, contract: what the generated engines promise the rest of spbc. Their move codes, rows, stages,
value caps and size limits (abi), which the checker enforces on rules and the loader on saved games, and
the typed interface both engines offer to Python (protocol)."""
