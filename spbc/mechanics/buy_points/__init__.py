"""The buy_points mechanic: right after a phase scores, every owner of its card may buy points for rubles."""
