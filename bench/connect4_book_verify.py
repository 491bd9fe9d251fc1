"""The cost of checking the shipped Connect Four book before its first answer (issue 55, case 2).

    python bench/connect4_book_verify.py [--repeat 7]

On the shipped book (gridgames_connect4/data/book-7x6.bin, 7.8 MB): in this process, opening it in place with its
SHA-256 checked (nothing remembered) against opening it with the check remembered (`book_file.verify_once`'s cache
file hit); then, alternating fresh processes, ``gridgames connect4 analyze 4453`` (the quick path, from the book)
with an empty cache folder (checked) and with a filled one (remembered). Medians of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    print(f"cores: {os.cpu_count()}  load: {os.getloadavg()[0]:.2f}")
    from gridgames_connect4.solve import book_file

    path = book_file.shipped_path(7, 6, 4)
    assert path is not None
    with tempfile.TemporaryDirectory() as warm:
        os.environ["XDG_CACHE_HOME"] = warm
        checked, remembered = [], []
        for _ in range(options.repeat):
            book_file._verified_here.clear()
            with tempfile.TemporaryDirectory() as cold:
                os.environ["XDG_CACHE_HOME"] = cold
                started = time.perf_counter()
                book_file.open_entries(path)[1].close()
                checked.append(time.perf_counter() - started)
            os.environ["XDG_CACHE_HOME"] = warm
            book_file._verified_here.clear()
            book_file.open_entries(path)[1].close()  # fills the warm cache (once)
            book_file._verified_here.clear()
            started = time.perf_counter()
            book_file.open_entries(path)[1].close()
            remembered.append(time.perf_counter() - started)
        print(f"{'open the shipped book, SHA-256 checked':<55} {statistics.median(checked) * 1000:8.2f} ms")
        print(f"{'open the shipped book, check remembered':<55} {statistics.median(remembered) * 1000:8.2f} ms")
        runs: dict[str, list[float]] = {"cold": [], "warm": []}
        command = [sys.executable, "-m", "gridgames", "connect4", "analyze", "4453"]
        for _ in range(options.repeat):
            with tempfile.TemporaryDirectory() as cold:
                for label, home in (("cold", cold), ("warm", warm)):
                    started = time.perf_counter()
                    subprocess.run(command, env={**os.environ, "XDG_CACHE_HOME": home}, check=True, capture_output=True)
                    runs[label].append(time.perf_counter() - started)
        print(f"{'gridgames connect4 analyze 4453, book checked':<55} {statistics.median(runs['cold']) * 1000:8.0f} ms")
        print(f"{'gridgames connect4 analyze 4453, remembered':<55} {statistics.median(runs['warm']) * 1000:8.0f} ms")


if __name__ == "__main__":
    main()
