"""The cost of vetting an outside plugin before a command imports it (issue 55, case 1).

    python bench/plugin_isolation.py [--repeat 7]

Runs, alternating, in fresh processes: ``gridgames mnk show b2`` (the mnk example, an outside plugin) with an empty
vetting cache (its import vetted in a child process), with the cache filled (vetted before, files unchanged: no child),
and the built-in ``gridgames connect4 show 4`` (trusted: never vetted); then, in this process, the cost of a cache
hit alone (the plugin's vetting key: the sizes and times of its files, and the cache file read). Medians of
``--repeat`` runs. Needs ``pip install ./examples/mnk``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit


def run(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gridgames", *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    print(f"cores: {os.cpu_count()}  load: {os.getloadavg()[0]:.2f}")
    times: dict[str, list[float]] = {"cold": [], "warm": [], "builtin": []}
    with tempfile.TemporaryDirectory() as warm_home:
        warm = {**os.environ, "XDG_CACHE_HOME": warm_home}
        run(["mnk", "show", "b2"], warm)  # fills the warm cache
        for _ in range(options.repeat):
            with tempfile.TemporaryDirectory() as cold_home:
                times["cold"].append(run(["mnk", "show", "b2"], {**os.environ, "XDG_CACHE_HOME": cold_home}))
            times["warm"].append(run(["mnk", "show", "b2"], warm))
            times["builtin"].append(run(["connect4", "show", "4"], warm))
        os.environ["XDG_CACHE_HOME"] = warm_home
        from gridgames.registry import _VettingCache, _vetting_key, default_registry

        entry = default_registry().entries["mnk"]
        hit = min(timeit.repeat(lambda: _VettingCache.open().has(_vetting_key(entry) or ""), number=20, repeat=5)) / 20
    for label, what in [
        ("cold", "gridgames mnk show b2, empty vetting cache (child process)"),
        ("warm", "gridgames mnk show b2, vetted before (cache hit)"),
        ("builtin", "gridgames connect4 show 4 (built-in, never vetted)"),
    ]:
        print(f"{what:<60} {statistics.median(times[label]) * 1000:7.0f} ms")
    saved = statistics.median(times["cold"]) - statistics.median(times["warm"])
    print(f"{'vetting in a child process (cold - warm)':<60} {saved * 1000:7.0f} ms")
    print(f"{'a cache hit alone (key and cache read, in process)':<60} {hit * 1000:7.2f} ms")


if __name__ == "__main__":
    main()
