"""The upkeep mechanic in the rules reference: its paragraph (prose.en.j2) says all of it."""
