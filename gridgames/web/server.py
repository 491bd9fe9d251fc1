"""Run the web application with uvicorn (``gridgames serve``), on loopback unless told otherwise."""

from __future__ import annotations

import errno
import ipaddress
import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable

from gridgames.errors import MissingExtraError, OptionError
from gridgames.parsing import check_seconds

__all__ = ["check_host", "check_port_free", "is_loopback", "serve"]

HOST_LOOKUP_SECONDS = 10.0
"""How long the name given to ``--host`` may take to resolve before it is refused."""


def check_port_free(host: str, port: int) -> None:
    """`OptionError` (one line) when ``port`` on ``host`` cannot be listened on: in use, or privileged."""
    if port == 0:
        return  # the system picks a free one
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (OSError, UnicodeError, IndexError):
        return  # not an address: the host's own check, or uvicorn, says so
    with socket.socket(family, kind, proto) as trial:
        # as uvicorn does: a closed server's port is free
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            trial.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise OptionError(
                    f"port {port} on {host} is in use (another server?): choose another with --port"
                ) from None
            if error.errno == errno.EACCES:
                raise OptionError(
                    f"port {port} needs privileges to listen on: choose one from 1024 up with --port"
                ) from None
            raise OptionError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None


def is_loopback(host: str) -> bool:
    """True when ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_host(host: str, port: int) -> str:
    """``host`` if this machine can listen on it (an address, or a name that resolves), else `OptionError` in one
    line."""
    if not host.strip():
        raise OptionError("--host must name an address (127.0.0.1: this machine only; 0.0.0.0: every address)")
    if host != host.strip() or len(host) > 253:
        raise OptionError(f"--host {host[:60]!r} is not an address or a host name")
    result: list[BaseException | None] = [None]

    def look_up() -> None:
        try:
            family, kind, proto, _name, address = socket.getaddrinfo(
                host.strip("[]"), 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            )[0]
            # port 0: only whether the address is this machine's
            with socket.socket(family, kind, proto) as probe:
                probe.bind(address)
        except (OSError, UnicodeError) as error:
            result[0] = error

    # a resolver that hangs cannot hang the start
    finder = threading.Thread(target=look_up, daemon=True)
    finder.start()
    finder.join(HOST_LOOKUP_SECONDS)
    if finder.is_alive():
        raise OptionError(f"--host {host!r}: the name did not resolve within {HOST_LOOKUP_SECONDS:g} s")
    if result[0] is not None:
        reason = result[0].args[-1] if isinstance(result[0], OSError) and result[0].args else result[0]
        raise OptionError(f"--host {host!r} is not an address of this machine ({reason})")
    return host


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    workers: int = 2,
    job_seconds: float = 60.0,
    max_sessions: int = 256,
    say: Callable[[str], None] = print,
) -> None:
    """Serve every installed game's page at http://HOST:PORT/ until Ctrl-C (says where, and whether only this machine
    can reach it)."""
    try:
        import uvicorn

        from gridgames.web.app import ServerConfig, create_app, prepare_games
    except ImportError as error:
        raise MissingExtraError(
            f'gridgames serve needs the web extra: pip install "gridgames[web]" ({error})'
        ) from None
    if not 0 <= port <= 65535:
        raise OptionError(f"--port must be 0 to 65535, not {port}")
    job_seconds = check_seconds(job_seconds, what="--max-seconds")
    for value, what in ((workers, "--workers"), (max_sessions, "--max-sessions")):
        if value < 1:
            raise OptionError(f"{what} must be at least 1, not {value}")
    check_host(host, port)
    # before the banner: a busy port is one line, not uvicorn's [Errno 98]
    check_port_free(host, port)
    loopback = is_loopback(host)
    hosts = ("127.0.0.1", "localhost", "[::1]", "::1") if loopback else ("*",)
    # off loopback: every API call needs this launch's token
    token = None if loopback else secrets.token_urlsafe(18)
    config = ServerConfig(
        workers=workers, job_seconds=job_seconds, max_sessions=max_sessions, allowed_hosts=hosts, token=token
    )
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if loopback:
        say(f"gridgames serve: {url} (loopback only: other machines cannot reach it; --host 0.0.0.0 to share)")
    else:
        say(f"gridgames serve: {url}?token={token}")
        say(
            f"WARNING: listening on {host}, reachable from other machines over plain HTTP; anyone with this URL (its "
            "token) "
            "can use the server: share it only on a network you trust"
        )
        url = f"{url}?token={token}"
    say("Ctrl-C stops the server.")
    app = create_app(config)
    # a game's slow first-use setup (Connect Four: its solver) before the first request
    prepare_games(app, say)
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    from gridgames.web.slow_clients import timed_protocol

    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, http=timed_protocol())
