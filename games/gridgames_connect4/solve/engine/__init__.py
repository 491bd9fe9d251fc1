"""The Connect Four solver's compiled engine: bitboards, the transposition table, the static rules and the search.

Importing this package imports no numba: `layout` (the kernels' structured arguments and state slots) and `aot`
(where the compiled kernels come from) are plain Python; the kernel modules (`bits`, `board`, `table`, `static_rules`,
`search`, `smp`) compile with numba when first imported.

Vocabulary (the names the kernels use):

- **board, bitboard**: a set of cells as bits, in Pascal Pons' layout (described once, in
  `gridgames_connect4.position.geometry`). One uint64 when `Geometry.fits_one_word`, else a (low, high)
  pair (see `bits`); the same source compiles for both. ``full`` (``board`` in the kernels): every cell;
  ``bottom``: each column's lowest cell.
- **p** (stones), **mask**, **opp**: the side to move's stones, all stones, the opponent's (``p ^ mask``). The
  **key** ``p + mask`` identifies a position; its **symmetric key** is the smaller of its key and its mirror
  image's, so a position and its mirror share a table entry.
- **possible**: the playable cells (the lowest empty cell of each column). **empty**: every empty cell.
- **threats** (``winning_cells``): the empty cells that would complete a line of k for a side; a threat is
  **playable** when it is in ``possible``. A threat right above an opponent's threat is **useless** (the opponent
  wins first below it).
- **forced move**: the side to move must block the opponent's one playable threat (two of them lose at once);
  it never plays right under an opponent's threat (that hands the opponent the cell).
- **odd column**: a column with an odd number of empty cells; its lowest empty cell is in ``odd``. **lower rows**
  (``lower_rows``): the rows holding the lower cell of each pair of empty cells when every column is even.
- **claimeven**, **zugzwang** (Allis): static rules that settle a position by a pairing strategy (see `static_rules`).
- **score** (Pons' convention): for the side to move, a win with its own k-th disc scores w*h/2 + 1 - k, a loss
  the negative of the winner's, a draw 0. **window** [alpha, beta): a search asks whether the score lies above
  a value (a **null window** [v, v + 1)); the root **bisects** [lo, hi] with null windows.
- **node**, **position explored**: one entry into a position by the search (the count Pons' tables report).
- **frame**: the stack entry of one depth (its boards, window, ordered moves, table bucket); the **stack** is
  owned by the caller, so a search paused after a budget of positions resumes where it stopped.
- **table**: buckets of one cache line, a prime number of them, each entry a key's bounds, best move and work;
  tagged with a **generation** so forgetting it is O(1) (see `table`).
- **book**: an opening book's sorted symmetric keys and exact scores, probed at nodes within its depth.
"""
