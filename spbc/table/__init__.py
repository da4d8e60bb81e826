"""Layer 10, table: the one turn loop every frontend drives (``table.Table``: seats, moves, computer players,
standing orders, undo, hints), the terminal's session on it (saves, records, commands), and what a screen
shows, as data; the frontends draw it."""
