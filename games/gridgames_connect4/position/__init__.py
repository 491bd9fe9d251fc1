"""A Connect Four position and how it is written: the bitboard layout every part of the game shares (`geometry`),
the rules on the shared `Grid` (`rules`: gravity, alternating players, lines, undo and redo), the notation of
columns, moves and cells (`notation`) and the board sizes and line lengths allowed (`sizes`).

Importing this package imports nothing: a fresh process's quick answer reads `geometry`, `notation` and `sizes`
without the rules.
"""
