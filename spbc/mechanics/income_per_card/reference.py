"""The income_per_card mechanic in the rules reference: its paragraph (prose.en.j2) says all of it."""
