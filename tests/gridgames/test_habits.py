"""Habits the tree keeps: code and docs say the reason for a choice, not the number of an issue in a tracker the
repository does not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+")
WHERE = ("gridgames", "games", "examples", "docs")


def issue_references(root: Path) -> list[str]:
    """Each ``path:line`` under ``root``'s code and docs folders that names an issue by its number."""
    found = []
    for folder in WHERE:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".py", ".md", ".js", ".html", ".css") or ".venv" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if ISSUE.search(line):
                    found.append(f"{path.relative_to(root)}:{number}")
    return found


def test_no_code_or_doc_names_an_issue_number() -> None:
    assert issue_references(ROOT) == [], "say the reason instead of the issue's number"


def test_the_check_finds_an_issue_number(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("fine\nas issue 38 asked\n", encoding="utf-8")
    (tmp_path / "gridgames").mkdir()
    (tmp_path / "gridgames" / "b.py").write_text("x = 1  # the tissue 3 is no issue\n", encoding="utf-8")
    assert issue_references(tmp_path) == ["docs/a.md:2"]
