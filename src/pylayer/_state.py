"""Process-wide switches shared by the compiled core and the Python modules."""

__all__ = []

from pylayer._tensor import set_static_flag

#: True between enable_static() and disable_static(): ops append to a Program.
#: Read it here; change it only with set_static_mode (the compiled ops keep a copy).
static_mode = False


def set_static_mode(on):
    """Turn static mode on or off for the process; returns the previous setting."""
    global static_mode
    previous = static_mode
    static_mode = bool(on)
    set_static_flag(static_mode)
    return previous


def static_call(function, *args, **kwargs):
    """Record ``function(*args, **kwargs)`` in the current static Program.

    Replaced by :mod:`pylayer.static` when it is imported.
    """
    raise RuntimeError("static mode is on, but pylayer.static is not loaded")


def static_minimize(optimizer, loss, parameters=None, no_grad_set=None):
    """Append backward and update ops for ``optimizer`` (set by pylayer.static)."""
    raise RuntimeError("static mode is on, but pylayer.static is not loaded")
