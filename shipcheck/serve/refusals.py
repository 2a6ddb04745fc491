"""Bad input as the API answers it, and values made safe for JSON."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from shipcheck.errors import InputError


def error_lines(exc: InputError) -> list[str]:
    """The lines the command line prints for ``exc`` (after ``shipcheck: error:``)."""
    return exc.lines()


def jsonable(obj: Any) -> Any:
    """``obj`` with what JSON cannot hold made plain: NaN and infinities become None, fractions floats,
    tuples lists, numpy scalars and arrays Python values."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, (str, int, bool)) or obj is None:
        return obj
    if isinstance(obj, Fraction):
        return float(obj)
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if hasattr(obj, "tolist"):  # numpy
        return jsonable(obj.tolist())
    if hasattr(obj, "item"):
        return jsonable(obj.item())
    return str(obj)


def text(body: dict[str, Any], key: str, default: str | None = None, *, limit: int = 1024) -> str | None:
    v = body.get(key, default)
    if v is None:
        return None
    if not isinstance(v, str) or len(v) > limit:
        raise InputError(f"bad `{key}`", key=key, value=v, expected=f"a string of at most {limit} characters")
    return v


def strings(body: dict[str, Any], key: str, *, most: int, limit: int = 200) -> list[str]:
    v = body.get(key, [])
    if v is None:
        return []
    if not isinstance(v, list) or len(v) > most or not all(isinstance(x, str) and len(x) <= limit for x in v):
        raise InputError(f"bad `{key}`", key=key, value=v, expected=f"a list of at most {most} strings")
    return v


def boolean(body: dict[str, Any], key: str) -> bool:
    """A ``true``/``false`` of the request (absent: false); anything else is refused, never read as truthy."""
    v = body.get(key, False)
    if not isinstance(v, bool):
        raise InputError(f"bad `{key}`", key=key, value=v, expected="true or false")
    return v
