"""Figures as bytes: PNG and SVG, the same bytes for the same figure.

Below both the page (:mod:`.html`, which inlines the SVGs) and the report folder (:mod:`.output`,
which writes both formats), so neither imports the other's module for it.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

DPI = 120


def render(fig: Any, fmt: str) -> bytes:
    """A figure as PNG or SVG bytes; the same figure gives the same bytes (no dates, fixed ids)."""
    import matplotlib

    buf = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {}
    with matplotlib.rc_context({"svg.hashsalt": "shipcheck", "svg.fonttype": "path"}), warnings.catch_warnings():
        # a ship named in a script the font lacks (日本) is drawn with empty boxes there, not a
        # warning per glyph on the user's terminal
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)
        fig.savefig(buf, format=fmt, dpi=DPI, metadata=metadata,
                    facecolor="white")
    return buf.getvalue()
