"""Layer 10, table: the turn loop a frontend drives (seats, moves, undo, saves, records) and what a screen
shows, as data; the frontends draw it."""
