"""Process-wide switches shared by the compiled core and the Python modules."""

__all__ = []

#: True between enable_static() and disable_static(): ops append to a Program.
static_mode = False


def static_call(function, *args, **kwargs):
    """Record ``function(*args, **kwargs)`` in the current static Program.

    Replaced by :mod:`pylayer.static` when it is imported.
    """
    raise RuntimeError("static mode is on, but pylayer.static is not loaded")


def static_minimize(optimizer, loss, parameters=None, no_grad_set=None):
    """Append backward and update ops for ``optimizer`` (set by pylayer.static)."""
    raise RuntimeError("static mode is on, but pylayer.static is not loaded")
