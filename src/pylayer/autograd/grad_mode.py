"""Per-thread gradient recording switches."""
import functools
import inspect

from pylayer._reprs import settings_repr
from pylayer._core.tensor import is_grad_enabled, set_grad_enabled_flag

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"]


def decorate_in_mode(function, make_guard):
    """``function`` run inside a fresh ``make_guard()`` context at each call. A generator
    function runs its body inside one at each resumption (``next``, ``send``, ``throw``,
    ``close``), and its caller gets its own state back at every ``yield``.

    >>> import pylayer
    >>> def count():
    ...     yield pylayer.is_grad_enabled()
    ...     yield pylayer.is_grad_enabled()
    >>> gen = decorate_in_mode(count, pylayer.no_grad)()
    >>> next(gen), pylayer.is_grad_enabled(), next(gen)
    (False, True, False)
    """
    if inspect.isgeneratorfunction(function):
        @functools.wraps(function)
        def resume_in_mode(*args, **kwargs):
            gen = function(*args, **kwargs)
            step, value = gen.send, None
            while True:
                try:
                    with make_guard():
                        item = step(value)
                except StopIteration as stop:
                    return stop.value
                try:
                    value = yield item
                except GeneratorExit:
                    with make_guard():
                        gen.close()
                    raise
                except BaseException as error:  # noqa: BLE001 - thrown into the body
                    step, value = gen.throw, error
                else:
                    step = gen.send
        return resume_in_mode

    @functools.wraps(function)
    def run_in_mode(*args, **kwargs):
        with make_guard():
            return function(*args, **kwargs)
    return run_in_mode


class _GradModeGuard:
    """Sets the grad mode for a ``with`` block or a decorated function (or generator),
    then restores it."""
    _mode = True

    def __enter__(self):
        self._previous = set_grad_enabled_flag(self._mode)
        return self

    def __exit__(self, *exc):
        set_grad_enabled_flag(self._previous)
        return False

    def _fresh(self):
        """A new guard of the same mode, for one call of a decorated function."""
        return self.__class__()

    def __call__(self, function):
        return decorate_in_mode(function, self._fresh)

    def __repr__(self):
        return settings_repr(self, {})


class no_grad(_GradModeGuard):
    """Turn gradient recording off, as a context manager or a decorator (of a function,
    or of a generator, whose body then runs without recording).

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
    """Set gradient recording on or off: at once when called, until the end of a
    ``with`` block, or for each call of a decorated function.

    >>> import pylayer
    >>> with pylayer.set_grad_enabled(False):
    ...     print(pylayer.is_grad_enabled())
    False
    >>> @pylayer.set_grad_enabled(False)
    ... def frozen():
    ...     return pylayer.is_grad_enabled()
    >>> frozen(), pylayer.is_grad_enabled()
    (False, True)
    """

    def __init__(self, mode):
        self._mode = bool(mode)
        self._previous = set_grad_enabled_flag(self._mode)

    def __enter__(self):
        return self

    def _fresh(self):
        guard = _GradModeGuard()
        guard._mode = self._mode
        return guard

    def __call__(self, function):
        set_grad_enabled_flag(self._previous)
        return super().__call__(function)

    def __repr__(self):
        return settings_repr(self, {"mode": self._mode})
