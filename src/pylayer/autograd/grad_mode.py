"""Per-thread gradient recording switches."""
import functools

from pylayer._reprs import settings_repr
from pylayer._tensor import is_grad_enabled, set_grad_enabled_flag

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


class _GradModeGuard:
    """Sets the grad mode for a ``with`` block or a decorated function, then restores it."""
    _mode = True

    def __enter__(self):
        self._previous = set_grad_enabled_flag(self._mode)
        return self

    def __exit__(self, *exc):
        set_grad_enabled_flag(self._previous)
        return False

    def __call__(self, function):
        @functools.wraps(function)
        def run_in_mode(*args, **kwargs):
            with self.__class__():
                return function(*args, **kwargs)
        return run_in_mode

    def __repr__(self):
        return settings_repr(self, {})


class no_grad(_GradModeGuard):
    """Turn gradient recording off, as a context manager or a decorator.

    >>> import pylayer
    >>> x = pylayer.ones([1]); x.stop_gradient = False
    >>> with pylayer.no_grad():
    ...     y = x * 2
    >>> y.stop_gradient
    True
    """
    _mode = False


class enable_grad(_GradModeGuard):
    """Turn gradient recording back on inside a ``no_grad`` region.

    >>> import pylayer
    >>> with pylayer.no_grad():
    ...     with pylayer.enable_grad():
    ...         print(pylayer.is_grad_enabled())
    True
    """
    _mode = True


class set_grad_enabled(_GradModeGuard):
    """Set gradient recording on or off; usable as a context manager.

    >>> import pylayer
    >>> with pylayer.set_grad_enabled(False):
    ...     print(pylayer.is_grad_enabled())
    False
    """

    def __init__(self, mode):
        self._mode = bool(mode)
        self._previous = set_grad_enabled_flag(self._mode)

    def __enter__(self):
        return self

    def __call__(self, function):
        set_grad_enabled_flag(self._previous)
        return super().__call__(function)

    def __repr__(self):
        return settings_repr(self, {"mode": self._mode})
