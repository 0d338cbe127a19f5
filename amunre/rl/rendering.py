"""How the environments render: the play-by-play gathered since the last call, in the
edition's words, printed ("human") or returned ("ansi"). One piece for PettingZoo's and
Gymnasium's `render`."""

from __future__ import annotations


def render_lines(lines: list[str], mode: str | None) -> str | None:
    """Take the gathered `lines` (emptied) and render them by `mode`: the text for "ansi",
    printed for "human" (None returned), nothing for None (the lines kept)."""
    if mode is None:
        return None
    text = "\n".join(lines)
    lines.clear()
    if mode == "ansi":
        return text
    if text:
        print(text)
    return None
