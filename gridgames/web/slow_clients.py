"""A deadline for each request's headers and body, against clients that send them slowly.

uvicorn times out only idle keep-alive connections, and any byte received resets that: fifty clients sending a header
byte now and then held their connections for as long as they liked. `timed_protocol` is uvicorn's h11 protocol with
one more timer: a connection must deliver a whole request (headers and body) within ``seconds`` of its opening or of
the end of its previous answer, else it is closed. A request received whole is never cut: the handler's own budgets
bound its answer.
"""

from __future__ import annotations

from typing import Any

__all__ = ["REQUEST_SECONDS", "timed_protocol"]

REQUEST_SECONDS = 20.0
"""How long a client may take to send a request's headers and body (``gridgames serve``)."""


def timed_protocol(seconds: float = REQUEST_SECONDS) -> type[Any]:
    """uvicorn's h11 protocol class, with a connection closed when a request takes more than ``seconds`` to arrive."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        """`H11Protocol` with a deadline for each request to arrive whole."""

        _deadline_task: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline_task = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline_task is not None:
                self._deadline_task.cancel()
                self._deadline_task = None

        def _too_slow(self) -> None:
            self._deadline_task = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete and not cycle.more_body:
                return  # the request arrived whole: the application is answering it
            if not self.transport.is_closing():
                self.transport.close()

    return TimedH11Protocol
