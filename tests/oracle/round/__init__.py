"""The memoised round engine: the reference the engine is held to (see :mod:`oracle`)."""
