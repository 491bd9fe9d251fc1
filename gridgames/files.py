"""The one bounded reader of user files (save files, boards, pieces, books), and the safe writer.

Every file a user names on the command line is read through `read_user_text`: it
refuses what is not a regular file (a directory, a FIFO that would block for ever, a
device such as ``/dev/zero`` that never ends) and anything larger than ``max_bytes``
*before* reading it, never reads more than ``max_bytes + 1`` bytes, and reports every
problem as one `UserFileError` line naming the file::

    text = read_user_text(path, what="board file", max_bytes=MAX_PUZZLE_FILE_BYTES)

`write_user_text` writes atomically (a temporary file in the same folder, flushed and
fsynced, then renamed over the target; a symlink is followed, so the file it points
to is replaced and the link kept). The temporary file's name, ``.NAME.PID.XXXX.tmp``,
holds the writer's process id: a save killed before its rename leaves one behind, and
the next save of the same file removes those whose process is gone. `user_path` turns
a name typed by the user (``~`` expanded) into a path, or one `UserFileError` line.

Interrupted games are autosaved under `autosave_dir` (``$XDG_DATA_HOME/gridgames/autosave``,
by default ``~/.local/share/gridgames/autosave``) as ``GAME-YYYYMMDD-HHMMSS-PID.json``.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from pathlib import Path

from gridgames.errors import GridGamesError

__all__ = [
    "MAX_PUZZLE_FILE_BYTES",
    "MAX_SAVE_FILE_BYTES",
    "UserFileError",
    "autosave_dir",
    "cache_dir",
    "data_dir",
    "latest_autosave",
    "read_user_bytes",
    "read_user_text",
    "user_path",
    "write_autosave",
    "write_user_text",
]

MAX_SAVE_FILE_BYTES = 1_000_000
"""A save file is a few hundred bytes; anything past a megabyte is not one."""

MAX_PUZZLE_FILE_BYTES = 1_000_000
"""A board or pieces file past a megabyte (a million cells) is far beyond what the solver can handle."""


class UserFileError(GridGamesError, ValueError):
    """A file named by the user that cannot be read as text: missing, not a regular file, too large, not UTF-8."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_user_text(
    path: str | os.PathLike[str], *, what: str, max_bytes: int, error: type[GridGamesError] | None = None
) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``; one line of ``error`` (`UserFileError`) for anything
    else."""
    try:
        return _read(path, what, max_bytes)
    except UserFileError as problem:
        if error is None or isinstance(problem, error):
            raise
        raise error(str(problem)) from None


def read_user_bytes(
    path: str | os.PathLike[str], *, what: str, max_bytes: int, error: type[GridGamesError] | None = None
) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (a binary file, e.g. an opening book); errors as
    `read_user_text`."""
    try:
        return _read_bytes(path, what, max_bytes)
    except UserFileError as problem:
        if error is None or isinstance(problem, error):
            raise
        raise error(str(problem)) from None


def _read(path: str | os.PathLike[str], what: str, max_bytes: int) -> str:
    raw = _read_bytes(path, what, max_bytes)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise UserFileError(
            f"{what} {repr(str(path))} is not a text file (not UTF-8 at byte {problem.start})"
        ) from None


def _read_bytes(path: str | os.PathLike[str], what: str, max_bytes: int) -> bytes:
    name = repr(str(path))
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not block; it is refused below by fstat.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise UserFileError(f"cannot read {what} {name}: no such file") from None
    except IsADirectoryError:
        raise UserFileError(f"{what} {name} is a directory, not a file") from None
    except (OSError, ValueError) as problem:  # ValueError: a NUL byte in the name
        raise UserFileError(f"cannot read {what} {name}: {getattr(problem, 'strerror', None) or problem}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(f"{what} {name} is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            raise UserFileError(f"{what} {name} is too large ({info.st_size:,} bytes; at most {max_bytes:,})")
        chunks = []
        left = max_bytes + 1  # a file that grows while read is still bounded
        while left > 0:
            # usually the whole file at once
            chunk = os.read(fd, min(left, max(1 << 16, info.st_size + 1)))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as problem:
        raise UserFileError(f"cannot read {what} {name}: {problem.strerror or problem}") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > max_bytes:
        raise UserFileError(f"{what} {name} is too large (more than {max_bytes:,} bytes)")
    return raw


TEMP_SUFFIX = ".tmp"
_TEMP_NAME_CHARS = 64
"""At most this much of the target's name goes into its temporary file's name (a long name must still fit)."""


def user_path(name: str, *, what: str = "file") -> Path:
    """The path a user typed (``~`` and ``~user`` expanded); one `UserFileError` line when it cannot name a file."""
    shown = repr(name if len(name) <= 80 else name[:77] + "...")
    if "\0" in name:
        raise UserFileError(f"cannot use {shown} as a {what} name: it holds a NUL byte")
    try:
        return Path(name).expanduser()
    except RuntimeError:  # ~nouser, or no home folder
        raise UserFileError(f"cannot use {shown} as a {what} name: its home folder is unknown") from None


def write_user_text(
    path: str | os.PathLike[str], text: str, *, what: str = "file", error: type[GridGamesError] | None = None
) -> Path:
    """Write ``text`` atomically and durably (fsync before and after the rename); returns the path written."""
    try:
        return _write(Path(path), text, what)
    except UserFileError as problem:
        if error is None or isinstance(problem, error):
            raise
        raise error(str(problem)) from None


def _temp_prefix(target: Path) -> str:
    return f".{target.name[:_TEMP_NAME_CHARS]}."


def _remove_stale_temporaries(folder: Path, target: Path) -> None:
    """Remove the temporary files of earlier writes of ``target`` whose writing process is gone (killed mid-save)."""
    prefix = _temp_prefix(target)
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(prefix) and e.name.endswith(TEMP_SUFFIX)]
    except OSError:
        return
    for name in names:
        pid_text = name[len(prefix) :].split(".", 1)[0]
        if not pid_text.isdigit() or len(pid_text) > 9:
            continue  # not one of ours
        pid = int(pid_text)
        if pid != os.getpid() and _alive(pid):
            continue  # another process is writing it now
        with contextlib.suppress(OSError):
            (folder / name).unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _write(path: Path, text: str, what: str) -> Path:
    shown = repr(str(path) if len(str(path)) <= 120 else str(path)[:117] + "...")
    try:
        # keep the link, replace what it points to
        target = Path(os.path.realpath(path)) if path.is_symlink() else path
        folder = target.parent if str(target.parent) else Path(".")
        if target.exists() and not target.is_file():
            raise UserFileError(f"cannot write {what} {shown}: it exists and is not a regular file")
        _remove_stale_temporaries(folder, target)
        fd, tmp = tempfile.mkstemp(prefix=f"{_temp_prefix(target)}{os.getpid()}.", suffix=TEMP_SUFFIX, dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o644)  # mkstemp makes the file private; a saved file is an ordinary file
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _fsync_folder(folder)
    except (OSError, ValueError) as problem:  # ValueError: a NUL byte in the name
        raise UserFileError(f"cannot write {what} {shown}: {getattr(problem, 'strerror', None) or problem}") from None
    return path


def _fsync_folder(folder: Path) -> None:
    """Make a rename durable (where folders can be opened; elsewhere nothing to do)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


AUTOSAVE_KEEP = 20
"""Autosaves kept per game (the oldest beyond this are removed when a new one is written)."""


def data_dir() -> Path:
    """gridgames' per-user data folder: $XDG_DATA_HOME/gridgames, by default ~/.local/share/gridgames."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "gridgames"


def cache_dir() -> Path:
    """gridgames' per-user cache folder: $XDG_CACHE_HOME/gridgames, by default ~/.cache/gridgames."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "gridgames"


def autosave_dir() -> Path:
    """Where interrupted games are saved: ``data_dir() / "autosave"``."""
    return data_dir() / "autosave"


def autosave_path(game: str) -> Path:
    """A new autosave file name for ``game``: GAME-YYYYMMDD-HHMMSS-PID.json (sortable by time)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return autosave_dir() / f"{game}-{stamp}-{os.getpid()}.json"


def autosaves(game: str) -> list[Path]:
    """The autosave files of ``game``, oldest first."""
    folder = autosave_dir()
    try:
        found = [p for p in folder.glob(f"{game}-*.json") if p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name))


def latest_autosave(game: str) -> Path | None:
    """The newest autosave of ``game``, or None."""
    found = autosaves(game)
    return found[-1] if found else None


def write_autosave(game: str, text: str, path: Path | None = None) -> Path:
    """Write an autosave of ``game`` (creating the folder; to ``path``, the game's own autosave, else a new one) and
    prune the oldest beyond `AUTOSAVE_KEEP`; its path."""
    path = autosave_path(game) if path is None else path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise UserFileError(
            f"cannot create the autosave folder {str(path.parent)!r}: {problem.strerror or problem}"
        ) from None
    write_user_text(path, text, what="autosave")
    for old in autosaves(game)[:-AUTOSAVE_KEEP]:
        with contextlib.suppress(OSError):
            old.unlink()
    return path
