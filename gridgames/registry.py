"""The plugin registry: games found through the ``gridgames.games`` entry-point group.

Names are listed without importing any game; a game module is imported only when
it is used. ``gridgames list`` shows summaries through `Registry.list_all`: gridgames'
own games are loaded here, every other plugin is imported in a child process
(`gridgames._plugin_probe`) whose output is discarded and which is killed when an
import takes more than `PLUGIN_IMPORT_SECONDS` (not counting the time it waits for a CPU;
at most as many children at once as there are cores): a plugin that sleeps, exits or prints
at import is listed as BROKEN with its reason, and cannot stall, end or pollute the
listing. A subprocess rather than a thread because a thread can neither be stopped
(a stalled import would keep running and could print later), nor catch ``os._exit``
or writes to file descriptor 1. A plugin that fails to import, exposes something other than a
`GameSpec`, or repeats a name already taken is reported with its reason, and every
other game keeps working. The built-in games are declared in gridgames' own
``pyproject.toml`` exactly as a third party declares theirs::

    [project.entry-points."gridgames.games"]
    mygame = "mypackage.mygame:SPEC"
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from gridgames.entry_points import entry_points
from gridgames.errors import GridGamesError, PluginError, UnknownGameError
from gridgames.game import GameSpec

if TYPE_CHECKING:
    import subprocess
    from importlib.metadata import EntryPoint

GROUP = "gridgames.games"

PLUGIN_IMPORT_SECONDS = 2.0
"""How long ``gridgames list`` lets a plugin's import take (env GRIDGAMES_PLUGIN_SECONDS) before listing it BROKEN.

Time the probing child spends waiting for a CPU on a busy machine does not count (Linux), see `_Probe`."""

PLUGIN_WALL_FACTOR = 10.0
"""A plugin's import is given up on after this many times `PLUGIN_IMPORT_SECONDS` of wall-clock time in any case."""

PROBE_POLL_SECONDS = 0.05
"""How often the probe looks at the clocks of the imports under way."""

PROBE_START_SECONDS = 20.0
"""How long the probing child process may take to start (Python and gridgames itself, not a plugin; its waits
for a CPU not counted, and at most `PLUGIN_WALL_FACTOR` times this of wall-clock time)."""

OWN_DISTRIBUTION = "gridgames"
"""Entry points of this distribution (the built-in games) are trusted: loaded in this process."""


@attrs.frozen
class Listing:
    """One line of ``gridgames list``: a game's name, kind and summary."""

    name: str
    kind: str
    summary: str


@attrs.frozen
class BrokenPlugin:
    """A plugin that could not be used, with the reason."""

    name: str
    target: str
    reason: str


def _source(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{ep.value} (from {dist.name})" if dist is not None else ep.value


@attrs.define
class Registry:
    """The games available through entry points, loaded lazily and cached."""

    entries: dict[str, EntryPoint] = attrs.field(factory=dict)
    duplicates: list[BrokenPlugin] = attrs.field(factory=list)
    _loaded: dict[str, GameSpec] = attrs.field(factory=dict, init=False)
    _broken: dict[str, BrokenPlugin] = attrs.field(factory=dict, init=False)
    _vetted: set[str] = attrs.field(factory=set, init=False)
    isolate: bool = False
    """Vet an outside plugin in a child process before its first import here (`load`); the installed games' registry
    (`from_entry_points`) does."""

    @classmethod
    def from_entry_points(cls, group: str = GROUP) -> Registry:
        """The registry of every entry point in ``group`` of the installed distributions."""
        registry = cls.from_list(entry_points(group))
        registry.isolate = True
        return registry

    @classmethod
    def from_list(cls, eps: Iterable[Any]) -> Registry:
        """A registry of the given entry points; a repeated name keeps its first entry, the others are reported."""
        entries: dict[str, EntryPoint] = {}
        duplicates: list[BrokenPlugin] = []
        for ep in eps:
            if ep.name in entries:
                if entries[ep.name].value != ep.value:
                    duplicates.append(
                        BrokenPlugin(
                            ep.name, _source(ep), f"the name {ep.name!r} is taken by {_source(entries[ep.name])}"
                        )
                    )
                continue
            entries[ep.name] = ep
        return cls(entries, duplicates)

    def names(self) -> list[str]:
        """The registered game names, without importing any game."""
        return sorted(self.entries)

    def load(self, name: str) -> GameSpec:
        """The `GameSpec` of a game, importing its module; raises `UnknownGameError` or `PluginError`."""
        if name in self._loaded:
            return self._loaded[name]
        if name in self._broken:
            raise PluginError(f"game {name!r} is broken: {self._broken[name].reason}")
        if name not in self.entries:
            known = ", ".join(self.names()) or "none"
            raise UnknownGameError(f"no game named {name!r} (known games: {known})")
        ep = self.entries[name]
        if self.isolate and not _trusted(ep) and name not in self._vetted:
            self._vet_entries([(name, ep)], _plugin_seconds())
            if name in self._broken:
                raise PluginError(f"game {name!r} is broken: {self._broken[name].reason}")
        try:
            spec = ep.load()
        except SystemExit as exit_:  # a plugin that ends the process at import ends only itself
            return self._fail(name, ep, f"its import called sys.exit({exit_.code!r})")
        except Exception as error:  # a plugin's import may fail in any way; report it, stay up
            return self._fail(name, ep, f"import failed: {type(error).__name__}: {error}")
        if not isinstance(spec, GameSpec):
            return self._fail(name, ep, f"exposes {_a(type(spec).__name__)}, not a gridgames.game.GameSpec")
        if spec.name != name:
            return self._fail(name, ep, f"its GameSpec is named {spec.name!r}, not {name!r}")
        self._loaded[name] = spec
        return spec

    def trusted(self, name: str) -> bool:
        """Whether a game is one of gridgames' own (loaded and run in this process without vetting)."""
        return name in self.entries and _trusted(self.entries[name])

    def mark_broken(self, name: str, reason: str) -> None:
        """Take a game out of use, with the reason (e.g. its web ``prepare`` hook failed): listed broken from now on."""
        self._loaded.pop(name, None)
        self._broken[name] = BrokenPlugin(name, _source(self.entries[name]) if name in self.entries else name, reason)

    def _fail(self, name: str, ep: EntryPoint, reason: str) -> GameSpec:
        self._broken[name] = BrokenPlugin(name, _source(ep), reason)
        raise PluginError(f"game {name!r} is broken: {reason}")

    def vet(self, seconds: float | None = None) -> None:
        """Import every outside plugin not yet used in a child process first (as `list_all` does), ``seconds`` each at
        most.

        A plugin whose import stalls, ends the process (``sys.exit``, ``os._exit``, a crash), raises anything or
        exposes no `GameSpec` there is marked broken and never imported in this process; the others are then
        loaded here as usual. Done once per plugin.
        """
        todo = [
            (name, ep)
            for name, ep in sorted(self.entries.items())
            if not _trusted(ep) and name not in self._loaded and name not in self._broken and name not in self._vetted
        ]
        if not todo:
            return
        self._vet_entries(todo, seconds if seconds is not None else _plugin_seconds())

    def _vet_entries(self, todo: list[tuple[str, EntryPoint]], seconds: float) -> None:
        """Vet the entries in child processes, but those whose files passed before (`_VettingCache`)."""
        cache = _VettingCache.open()
        keys = {name: _vetting_key(ep) for name, ep in todo}
        passed = {name for name, key in keys.items() if key is not None and cache.has(key)}
        self._vetted.update(passed)
        todo = [(name, ep) for name, ep in todo if name not in passed]
        if not todo:
            return
        listings, broken = _Probe(todo, seconds).collect()
        self._vetted.update(item.name for item in listings)
        for item in broken:
            self._broken[item.name] = item
        cache.add([key for item in listings if (key := keys[item.name]) is not None])

    def load_all(self, vet: bool = True) -> tuple[list[GameSpec], list[BrokenPlugin]]:
        """Every game that loads, and every plugin that does not (with its reason); outside plugins vetted first
        (`vet`)."""
        if vet:
            self.vet()
        specs: list[GameSpec] = []
        for name in self.names():
            try:
                specs.append(self.load(name))
            except PluginError:
                pass
        return specs, sorted([*self._broken.values(), *self.duplicates], key=lambda b: b.name)

    def list_all(self, seconds: float | None = None) -> tuple[list[Listing], list[BrokenPlugin]]:
        """Every game's listing and every broken plugin; plugins are imported in a child process, ``seconds`` each at
        most."""
        limit = seconds if seconds is not None else _plugin_seconds()
        foreign = [(name, self.entries[name]) for name in self.names() if not _trusted(self.entries[name])]
        # the child works while the built-ins load here
        probe = _Probe(foreign, limit) if foreign else None
        listings: list[Listing] = []
        for name in self.names():
            if _trusted(self.entries[name]):
                try:
                    spec = self.load(name)
                except PluginError:
                    continue
                listings.append(Listing(spec.name, spec.kind.value, spec.summary))
        probed, broken = probe.collect() if probe is not None else ([], [])
        listings = sorted([*listings, *probed], key=lambda item: item.name)
        return listings, sorted([*self._broken.values(), *broken, *self.duplicates], key=lambda b: b.name)


VETTING_CACHE_ENTRIES = 256
"""The most plugin versions the vetting cache remembers (the oldest are dropped)."""

VETTING_CACHE_BYTES = 200_000
"""A vetting cache file larger than this is ignored (and rewritten)."""

VETTING_TREE_FILES = 2000
"""At most this many files of a plugin's package are looked at (their sizes and times) for its vetting key."""


def _vetting_key(ep: EntryPoint) -> str | None:
    """What a plugin's import depends on, as one string: its entry point, its distribution's metadata folder (version,
    RECORD) and the size and time of every file of its top-level module or package; None when unknown (not cached).

    A plugin whose files are unchanged since it passed the vetting is trusted without a child process (about 0.1 s of
    start-up saved per command, see bench/plugins.py)."""
    import importlib.machinery

    folder = getattr(getattr(ep, "dist", None), "folder", None)
    top = ep.value.split(":", 1)[0].strip().split(".", 1)[0]
    try:
        found = importlib.machinery.PathFinder.find_spec(top)
    except (ImportError, ValueError):
        return None
    if folder is None or found is None or not found.origin or not os.path.isabs(found.origin):
        return None
    places = [os.path.join(folder, leaf) for leaf in ("METADATA", "RECORD", "entry_points.txt")]
    roots = list(found.submodule_search_locations or []) or [found.origin]
    parts = [ep.name, ep.value, folder]
    seen = 0
    for place in [*places, *roots]:
        for path in _tree(place):
            seen += 1
            if seen > VETTING_TREE_FILES:
                return None  # too large to key cheaply: vetted every time
            try:
                stat = os.stat(path)
            except OSError:
                parts.append(f"{path}:-")
                continue
            parts.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    import hashlib

    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _tree(place: str) -> list[str]:
    """The files under a folder (sorted), or the path itself."""
    if not os.path.isdir(place):
        return [place]
    found: list[str] = []
    for root, dirs, files in os.walk(place):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found.extend(os.path.join(root, leaf) for leaf in sorted(files))
        if len(found) > VETTING_TREE_FILES:
            break
    return found


@attrs.define
class _VettingCache:
    """The vetting keys of the plugins that passed (``$XDG_CACHE_HOME/gridgames/vetted-plugins.json``)."""

    path: Path | None
    keys: list[str]

    @classmethod
    def open(cls) -> _VettingCache:
        """The cache as on disk (empty when missing, unreadable, too large or malformed)."""
        import json

        base = os.environ.get("XDG_CACHE_HOME", "")
        try:
            root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
        except RuntimeError:  # no home folder
            return cls(None, [])
        path = root / "gridgames" / "vetted-plugins.json"
        try:
            with open(path, "rb") as handle:
                raw = handle.read(VETTING_CACHE_BYTES + 1)
            keys = json.loads(raw) if len(raw) <= VETTING_CACHE_BYTES else []
        except (OSError, ValueError, RecursionError):
            keys = []
        if not isinstance(keys, list) or not all(isinstance(k, str) and len(k) == 64 for k in keys):
            keys = []
        return cls(path, keys)

    def has(self, key: str) -> bool:
        """Whether a plugin with this vetting key passed before."""
        return key in self.keys

    def add(self, keys: list[str]) -> None:
        """Remember these keys (written atomically; a cache that cannot be written is no error)."""
        fresh = [key for key in keys if key not in self.keys]
        if not fresh or self.path is None:
            return
        import json

        from gridgames.files import write_user_text

        self.keys = [*self.keys, *fresh][-VETTING_CACHE_ENTRIES:]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_user_text(self.path, json.dumps(self.keys), what="plugin vetting cache")
        except (OSError, GridGamesError):
            pass


def _trusted(ep: EntryPoint) -> bool:
    dist = getattr(ep, "dist", None)
    return dist is not None and dist.name == OWN_DISTRIBUTION


def _plugin_seconds() -> float:
    try:
        seconds = float(os.environ.get("GRIDGAMES_PLUGIN_SECONDS", PLUGIN_IMPORT_SECONDS))
    except ValueError:
        return PLUGIN_IMPORT_SECONDS
    return seconds if 0 < seconds < 3600 else PLUGIN_IMPORT_SECONDS


def _probe_slots() -> int:
    """How many plugin probes run at once: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def _waiting_seconds(pid: int) -> float | None:
    """How long the process has waited for a CPU in all (Linux's /proc/PID/schedstat), or None where unknown."""
    try:
        with open(f"/proc/{pid}/schedstat", encoding="ascii") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


@attrs.define
class _Child:
    """One probing child process and the clocks of its plugin's import."""

    name: str
    ep: EntryPoint
    process: subprocess.Popen[bytes]
    spawned: float
    started: float | None = None  # when the child began importing the plugin (monotonic)
    waited: float | None = None  # its CPU wait at that moment (None: unknown)
    buffer: bytes = b""

    def start_seconds(self, now: float) -> float:
        """How long the child has taken to start so far (Python and gridgames), not counting its waits for a CPU."""
        waited = _waiting_seconds(self.process.pid)  # the child's whole life: it began at 0
        wall = now - self.spawned
        return wall if waited is None else max(0.0, wall - waited)

    def import_seconds(self, now: float) -> float:
        """How long the plugin's import has taken so far, not counting the time the child waited for a CPU."""
        if self.started is None:
            return 0.0
        wall = now - self.started
        waited = _waiting_seconds(self.process.pid) if self.waited is not None else None
        return wall if waited is None or self.waited is None else max(0.0, wall - (waited - self.waited))


class _Probe:
    """Each plugin imported in a child process of its own, at most `_probe_slots` at once; one that stalls or dies is
    broken.

    A plugin's import is timed from the moment its child starts importing it, without the time the child
    waits for a CPU (on Linux): on a busy machine a healthy plugin is not called broken, while one that
    sleeps or blocks is. ``seconds * PLUGIN_WALL_FACTOR`` of wall-clock time is the limit in any case.
    """

    def __init__(self, entries: list[tuple[str, EntryPoint]], seconds: float, slots: int | None = None) -> None:
        self.seconds = seconds
        self.queue = list(entries)
        self.slots = slots if slots is not None else _probe_slots()
        self.running: dict[int, _Child] = {}  # by the child's standard output's file descriptor
        self.everyone: list[_Child] = []
        self._fill()

    @staticmethod
    def _start(name: str, ep: EntryPoint) -> subprocess.Popen[bytes]:
        import json
        import subprocess

        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        return subprocess.Popen(
            [sys.executable, "-m", "gridgames._plugin_probe", json.dumps([[name, ep.value]])],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )

    def _fill(self) -> None:
        """Start children for the plugins still to probe while slots are free."""
        while self.queue and len(self.running) < self.slots:
            name, ep = self.queue.pop(0)
            child = _Child(name, ep, self._start(name, ep), time.monotonic())
            self.everyone.append(child)
            self.running[child.process.stdout.fileno()] = child  # type: ignore[union-attr]

    def _late(self, child: _Child, now: float) -> str | None:
        """Why the child is given up on now, or None while it may go on."""
        if child.started is None:
            slow = (
                child.start_seconds(now) > PROBE_START_SECONDS
                or now - child.spawned > PROBE_START_SECONDS * PLUGIN_WALL_FACTOR
            )
            return "its probe did not start" if slow else None
        if child.import_seconds(now) > self.seconds or now - child.started > self.seconds * PLUGIN_WALL_FACTOR:
            return f"its import did not finish within {self.seconds:g} s"
        return None

    def _read(self, fd: int, child: _Child, listings: list[Listing], broken: list[BrokenPlugin]) -> bool:
        """Read what the child wrote; True once it is done (listed or broken)."""
        import json

        chunk = os.read(fd, 65536)
        child.buffer += chunk
        *lines, child.buffer = child.buffer.split(b"\n")
        for line in lines:
            message = json.loads(line)
            if "start" in message:
                child.started = time.monotonic()
                child.waited = _waiting_seconds(child.process.pid)
            elif "reason" in message:
                broken.append(BrokenPlugin(child.name, _source(child.ep), message["reason"]))
                return True
            else:
                listings.append(Listing(child.name, message["kind"], message["summary"]))
                return True
        if not chunk:  # the child ended without a result: the plugin ended it
            child.process.wait(timeout=5)
            broken.append(
                BrokenPlugin(
                    child.name,
                    _source(child.ep),
                    f"its import ended the process (exit code {child.process.returncode})",
                )
            )
            return True
        return False

    def _finish(self, fd: int) -> None:
        child = self.running.pop(fd)
        child.process.kill()
        child.process.wait()
        self._fill()

    def collect(self) -> tuple[list[Listing], list[BrokenPlugin]]:
        """Every plugin's listing, or why it is broken (its import stalled, ended the process or failed)."""
        import select

        listings: list[Listing] = []
        broken: list[BrokenPlugin] = []
        try:
            while self.running:
                now = time.monotonic()
                for fd, child in list(self.running.items()):
                    reason = self._late(child, now)
                    if reason is not None:
                        broken.append(BrokenPlugin(child.name, _source(child.ep), reason))
                        self._finish(fd)
                if not self.running:
                    break
                for fd in select.select(list(self.running), [], [], PROBE_POLL_SECONDS)[0]:
                    if self._read(fd, self.running[fd], listings, broken):
                        self._finish(fd)
        finally:
            for child in self.everyone:
                child.process.kill()
                child.process.wait()
                if child.process.stdout is not None:
                    child.process.stdout.close()
        return listings, broken


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry of installed games (built once)."""
    global _default
    if _default is None:
        _default = Registry.from_entry_points()
    return _default


def load_game(name: str) -> GameSpec:
    """The `GameSpec` of an installed game by name."""
    return default_registry().load(name)


def _a(noun: str) -> str:
    """The noun with its indefinite article ("an int", "a str")."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
