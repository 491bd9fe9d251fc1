"""Run the web application with uvicorn (``gridgames serve``), on loopback unless told otherwise."""

from __future__ import annotations

import ipaddress
import secrets
import threading
import webbrowser
from collections.abc import Callable

from gridgames.errors import MissingExtraError, OptionError

__all__ = ["is_loopback", "serve"]


def is_loopback(host: str) -> bool:
    """True when ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(
    host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False, workers: int = 2,
    job_seconds: float = 60.0, max_sessions: int = 256, say: Callable[[str], None] = print
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
    loopback = is_loopback(host)
    hosts = ("127.0.0.1", "localhost", "[::1]", "::1") if loopback else ("*",)
    token = None if loopback else secrets.token_urlsafe(18)  # off loopback: every API call needs this launch's token
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
    prepare_games(app, say)  # a game's slow first-use setup (Connect Four: its solver) before the first request
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
