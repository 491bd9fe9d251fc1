"""Exact scores of Connect Four positions: the solver (`solver`, its search driver `search_driver`, its table's
memory `table_memory`, its one cache `solver_cache`, its move choice within a budget `policy`), the compiled engine
it drives (`engine`), the pure-Python endgame search (`endgame`), opening books (`book` and its file `book_file`,
keys `book_keys` and build `book_build`), the book-then-solver lookup of a position's columns (`oracle`) and a
score's outcome (`scores`).

Importing this package imports nothing: the quick answer reads `book_file`, `book_keys` and `endgame` without numpy
or numba.
"""
