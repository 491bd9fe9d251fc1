"""``gridgames serve``'s options (issue 46): limits finite and positive, bad hosts one line; exit 2, nothing served."""

from __future__ import annotations

import pytest

from gridgames_test_support.cli_runs import assert_one_line_error

uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")


@pytest.fixture(autouse=True)
def never_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any call reaching uvicorn is a failure (and must not serve forever)."""

    def served(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the server was started with {kwargs}")

    monkeypatch.setattr(uvicorn, "run", served)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--max-seconds", "nan"], "--max-seconds must be a number of seconds"),
        (["--max-seconds", "inf"], "--max-seconds"),
        (["--max-seconds", "1e308"], "--max-seconds"),
        (["--host", "999.1.1.1"], "--host '999.1.1.1'"),
        (["--host", ""], "--host must name an address"),
        (["--host", "   "], "--host must name an address"),
        (["--host", "no-such-host.invalid"], "--host 'no-such-host.invalid'"),
        # TEST-NET-1: resolves, cannot be bound
        (["--host", "192.0.2.1"], "is not an address of this machine"),
        (["--port", "99999"], "--port must be 0 to 65535"),
    ],
)
def test_bad_serve_options_are_one_line(args: list[str], needle: str) -> None:
    assert_one_line_error(["serve", *args], needle)
