"""The colours and short labels of the ship drawings, shared by the report's figures and the
workbench's page (no drawing library needed to read them)."""

from __future__ import annotations

__all__ = ["ALIEN", "ARROW", "BAD", "BARREL", "FACE", "FLAME", "GOOD", "GRID", "INK", "LABEL", "MUTED", "PIPE",
           "SHIELD", "WARN", "palette"]

INK = "#1f2430"
MUTED = "#6b7280"
GRID = "#c9ced6"
BAD = "#d7263d"
WARN = "#e09f3e"
GOOD = "#2a9d8f"
SHIELD = "#14b8a6"
FLAME = ("#ff7b00", "#ffd166")
BARREL = "#3b2a5a"
PIPE = "#5b6170"
ARROW = "#c2410c"

# tile faces by family: crew blue, engines orange, cannons purple (the aliens that boost them have
# those colours in the game), shields teal, batteries green, cargo blue/red, the rest grey
FACE = {
    "start_cabin": "#7fb3e6", "cabin": "#b9d6f2", "luxury_cabin": "#d9c2f0", "stasis_chamber": "#c7d2fe",
    "engine": "#ffc999", "double_engine": "#ffa860", "cannon_engine": "#f9b98c",
    "cannon": "#d4bff5", "double_cannon": "#b794f0", "bidirectional_cannon": "#c4a7f5",
    "shield": "#9ee6da", "battery": "#c7ec9c", "battery_hold": "#b5e3a0", "reactor_furnace": "#a8d89a",
    "cargo": "#a9c8f5", "special_cargo": "#f5a9ae", "mixed_cargo": "#e2b6e8",
    "life_support": "#e5e7eb", "structural": "#dfe3e8", "plating": "#9aa3ad",
    "shield_booster": "#c5efe8", "cannon_booster": "#e4d6fa", "engine_booster": "#ffe0c2",
}
ALIEN = {"purple": "#8e44ad", "orange": "#e67e22", "cyan": "#17a2b8"}
LABEL = {
    "start_cabin": "pilot", "cabin": "cabin", "luxury_cabin": "luxury", "stasis_chamber": "stasis",
    "engine": "engine", "double_engine": "engine×2", "cannon_engine": "can+eng",
    "cannon": "cannon", "double_cannon": "cannon×2", "bidirectional_cannon": "bi-cannon",
    "shield": "shield", "battery": "battery", "battery_hold": "batt.hold", "reactor_furnace": "furnace",
    "cargo": "cargo", "special_cargo": "special", "mixed_cargo": "mixed",
    "life_support": "life sup.", "structural": "struct.", "plating": "plating",
    "shield_booster": "sh.boost", "cannon_booster": "can.boost", "engine_booster": "eng.boost",
}



def palette() -> dict[str, object]:
    """Everything above as one JSON-ready mapping."""
    return {"ink": INK, "muted": MUTED, "grid": GRID, "bad": BAD, "warn": WARN, "good": GOOD, "shield": SHIELD,
            "flame": list(FLAME), "barrel": BARREL, "pipe": PIPE, "arrow": ARROW, "face": dict(FACE),
            "alien": dict(ALIEN), "label": dict(LABEL)}
