"""The package's version, in a module of its own: every layer may read it (the package's
``__init__`` re-exports every public name, so no module below may import it)."""

__version__ = "0.1.0"
