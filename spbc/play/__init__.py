"""Layer 8, play: the Game API on a ruleset's engine, moves and their notation, what a seat may see,
explanations of refused moves, saved games and game records."""
