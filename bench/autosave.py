"""The cost of autosaving a terminal game after every move (issue 55, case 4).

    python bench/autosave.py [--moves 42] [--repeat 5]

Plays ``--moves`` moves of Connect Four 7x6 (column order 4,4,3,5,...; no win checked beyond legality) through
`gridgames.cli_play.TerminalPlay.moved` as the terminal game does after each move: the save file is rewritten
atomically (temporary file, fsync, rename, fsync of the folder) in a temporary XDG_DATA_HOME. Prints the median
milliseconds per move over ``--repeat`` games, and the same moves without the autosave for reference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from gridgames.cli_play import TerminalPlay
from gridgames.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    print(f"cores: {os.cpu_count()}  load: {os.getloadavg()[0]:.2f}")
    spec = load_game("connect4")
    with_save, without = [], []
    for _ in range(options.repeat):
        with tempfile.TemporaryDirectory() as home:
            os.environ["XDG_DATA_HOME"] = home
            for saving, out in ((True, with_save), (False, without)):
                game = spec.make()
                state = game.new_state()
                match = TerminalPlay("connect4", {}, state, [None, None], ["human", "human"])
                started = time.perf_counter()
                played = 0
                while played < options.moves and not state.is_over:
                    state.play(next(iter(state.legal_moves())))
                    if saving:
                        match.moved()
                    played += 1
                out.append((time.perf_counter() - started) / played)
    print(f"{'a move with its autosave':<40} {statistics.median(with_save) * 1000:8.2f} ms")
    print(f"{'a move without':<40} {statistics.median(without) * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
