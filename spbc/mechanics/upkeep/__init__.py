"""The upkeep mechanic: a card that costs its owner rubles when its colour scores, and is discarded when they cannot pay."""
