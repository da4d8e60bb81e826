"""The income_per_card mechanic: when a phase scores, its card pays for every card of a colour its owner has."""
