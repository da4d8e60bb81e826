"""The income_per_symbol mechanic: when a phase scores, its card pays for every card of a worker symbol its owner has."""
