"""Paddle's ``paddle.LazyGuard``."""

__all__ = ["LazyGuard"]


class LazyGuard:
    """A context manager under which layers are built, in Paddle, with their parameters
    left empty until ``param.initialize()`` (to build a model too large for one device
    and shard it first). pylayer computes on the host, where a model that fits in memory
    can be initialised at once, so it initialises the parameters when they are created,
    as outside the guard: the layers built inside are ready to use, with the shapes,
    names, initializers and ``state_dict()`` keys they would have anyway.

    >>> import pylayer
    >>> with pylayer.LazyGuard():
    ...     layer = pylayer.nn.Linear(3, 4)
    >>> layer.weight.shape, list(layer.state_dict())
    ([3, 4], ['weight', 'bias'])
    """

    def __repr__(self):
        return "LazyGuard()"

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_value, traceback):
        return None
