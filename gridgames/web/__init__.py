"""``gridgames serve``: play and solve every installed game in the browser (optional extra ``gridgames[web]``).

`create_app` builds the Starlette application (pages, JSON API, sessions, jobs);
`gridgames.web.server.serve` runs it with uvicorn. Static assets (plain HTML, JS, CSS)
ship in ``gridgames/web/static``: the pages need no CDN and no network. A game may offer
more than the generic pages through optional hooks (`gridgames.web.hooks`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """The web application (see `gridgames.web.app.create_app`); needs the ``web`` extra."""
    from gridgames.web.app import create_app as create

    return create(*args, **kwargs)
