"""Paddle's ``paddle.utils``: marking an API deprecated (:func:`deprecated`), requiring a
version of the API (:func:`require_version`), checking the installation (:func:`run_check`)
and importing an optional module with a helpful error (:func:`try_import`)."""
import functools
import importlib
import inspect
import re
import warnings

from pylayer import version as _version

__all__ = ["deprecated", "require_version", "run_check", "try_import"]


class VisibleDeprecationWarning(UserWarning):
    """The warning a :func:`deprecated` function gives when called (a UserWarning, so
    Python shows it by default, unlike DeprecationWarning)."""


def _version_parts(text):
    parts = [int(part) for part in text.split(".") if part.isdigit()]
    return parts + [0] * (4 - len(parts))


def deprecated(update_to="", since="", reason="", level=0):
    """A decorator that marks a function or class deprecated: its docstring starts with a
    warning saying since when (``since``), what to use instead (``update_to``, a
    ``"paddle."`` or ``"pylayer."`` name) and why (``reason``). ``level`` says what a call
    does: 0 nothing more, 1 a :class:`VisibleDeprecationWarning` (when the API version
    pylayer follows, :data:`pylayer.version.paddle_version`, is ``since`` or newer, or
    ``since`` is empty), 2 a RuntimeError.

    >>> import warnings, pylayer
    >>> @pylayer.utils.deprecated(update_to="paddle.add", since="2.0", level=1)
    ... def plus(a, b):
    ...     return a + b
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     plus(1, 2)
    3
    >>> message = str(caught[0].message)
    >>> "is deprecated since 2.0" in message, message.endswith('Please use "paddle.add" instead.')
    (True, True)
    """
    for arg, value in (("update_to", update_to), ("since", since), ("reason", reason)):
        if not isinstance(value, str):
            raise TypeError(f"deprecated(): argument '{arg}' must be a str, got "
                            f"{type(value).__name__}")
    if isinstance(level, bool) or not isinstance(level, int) or level not in (0, 1, 2):
        raise ValueError(f"deprecated(): argument 'level' must be 0, 1 or 2, got {level!r}")
    since, update_to, reason = since.strip(), update_to.strip(), reason.strip()
    if update_to and not update_to.startswith(("paddle.", "pylayer.")):
        raise ValueError(f"deprecated(): argument 'update_to' must start with 'paddle.' or "
                         f"'pylayer.', got {update_to!r}")

    def decorate(func):
        if not callable(func):
            raise TypeError(f"deprecated(): the decorated object must be a function or a "
                            f"class, got {type(func).__name__}")
        message = f'API "{func.__module__}.{func.__name__}" is deprecated'
        if since:
            message += f" since {since}"
        message += ", and will be removed in future versions."
        if update_to:
            message += f' Please use "{update_to}" instead.'
        if reason:
            message += f"\n    Reason: {reason}"
        if func.__doc__:
            func.__doc__ = f"\n\nWarning:\n    {message}\n\n{inspect.cleandoc(func.__doc__)}"
        if level == 0:
            return func
        due = not since or _version_parts(_version.paddle_version) >= _version_parts(since)

        @functools.wraps(func)
        def warned(*args, **kwargs):
            if level == 2:
                raise RuntimeError(f'API "{func.__module__}.{func.__name__}" has been '
                                   f'deprecated.')
            if due:
                warnings.warn(message, VisibleDeprecationWarning, stacklevel=2)
            return func(*args, **kwargs)

        return warned

    return decorate


_VERSION = re.compile(r"\d+(\.\d+){0,3}")


def require_version(min_version, max_version=None):
    """Check that the version of Paddle's API that pylayer follows
    (:data:`pylayer.version.paddle_version`, ``'3.3.1'``) is at least ``min_version`` and,
    when given, at most ``max_version`` (versions such as ``'2.0'`` or ``'1.5.2.0'``);
    returns None, or raises a RuntimeError that says which version is required.

    >>> import pylayer
    >>> pylayer.utils.require_version('2.0')
    >>> pylayer.utils.require_version('4.0')
    Traceback (most recent call last):
    ...
    RuntimeError: require_version(): Paddle's API 4.0 or newer is required, but pylayer follows Paddle 3.3.1
    """
    if not isinstance(min_version, str):
        raise TypeError(f"require_version(): argument 'min_version' must be a str, got "
                        f"{type(min_version).__name__}")
    if max_version is not None and not isinstance(max_version, str):
        raise TypeError(f"require_version(): argument 'max_version' must be a str or None, "
                        f"got {type(max_version).__name__}")
    for arg, value in (("min_version", min_version), ("max_version", max_version)):
        if value is not None and not _VERSION.fullmatch(value):
            raise ValueError(f"require_version(): argument '{arg}' must be a version of one "
                             f"to four numbers such as '1.5.2.0', got {value!r}")
    have = _version_parts(_version.paddle_version)
    if have < _version_parts(min_version) or (
            max_version is not None and have > _version_parts(max_version)):
        wanted = (f"{min_version} or newer" if max_version is None
                  else f"in [{min_version}, {max_version}]")
        raise RuntimeError(f"require_version(): Paddle's API {wanted} is required, but "
                           f"pylayer follows Paddle {_version.paddle_version}")


def run_check():
    """Check that pylayer works here: train a small linear layer for a step in dynamic
    mode, and run the same computation as a static Program; print what was found.

    >>> import pylayer
    >>> pylayer.utils.run_check()  # doctest: +ELLIPSIS
    Running verify pylayer program ...
    pylayer ... (Paddle 3.3.1 API) with numpy ...
    pylayer works well on 1 CPU.
    pylayer is installed successfully! Let's start deep learning with pylayer now.
    """
    import numpy as np

    import pylayer

    print("Running verify pylayer program ...")
    print(f"pylayer {_version.full_version} (Paddle {_version.paddle_version} API) with numpy "
          f"{np.__version__}")
    data = np.linspace(-1.0, 1.0, 8, dtype="float32").reshape(4, 2)
    layer = pylayer.nn.Linear(2, 1)
    optimizer = pylayer.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters())
    before = layer.weight.numpy().copy()
    loss = layer(pylayer.to_tensor(data)).square().mean()
    loss.backward()
    optimizer.step()
    if not np.isfinite(float(loss)) or np.array_equal(before, layer.weight.numpy()):
        raise RuntimeError("run_check(): a training step in dynamic mode did not update "
                           "the layer")
    expected = data @ layer.weight.numpy() + layer.bias.numpy()
    pylayer.enable_static()
    try:
        program = pylayer.static.Program()
        with pylayer.static.program_guard(program):
            x = pylayer.static.data("x", [-1, 2], "float32")
            y = pylayer.matmul(x, pylayer.to_tensor(layer.weight.numpy())) + pylayer.to_tensor(
                layer.bias.numpy())
        got, = pylayer.static.Executor(pylayer.CPUPlace()).run(
            program, feed={"x": data}, fetch_list=[y])
    finally:
        pylayer.disable_static()
    if not np.allclose(got, expected, rtol=1e-5, atol=1e-6):
        raise RuntimeError("run_check(): a static Program gave a different result from "
                           "dynamic mode")
    print("pylayer works well on 1 CPU.")
    print("pylayer is installed successfully! Let's start deep learning with pylayer now.")


def try_import(module_name, err_msg=None):
    """Import the module ``module_name`` and return it; when it is not installed, raise an
    ImportError with ``err_msg``, or by default one that says which package to install
    (the first part of a dotted name; ``opencv-python`` for ``cv2``).

    >>> import pylayer
    >>> pylayer.utils.try_import('json').__name__
    'json'
    >>> pylayer.utils.try_import('no_such_module_xyz')
    Traceback (most recent call last):
    ...
    ImportError: Failed importing no_such_module_xyz. This likely means that some modules require additional dependencies that have to be installed by hand (usually with `pip install no_such_module_xyz`).
    """
    if not isinstance(module_name, str):
        raise TypeError(f"try_import(): argument 'module_name' must be a str, got "
                        f"{type(module_name).__name__}")
    if err_msg is not None and not isinstance(err_msg, str):
        raise TypeError(f"try_import(): argument 'err_msg' must be a str or None, got "
                        f"{type(err_msg).__name__}")
    try:
        return importlib.import_module(module_name)
    except ImportError:
        package = "opencv-python" if module_name == "cv2" else module_name.split(".")[0]
        if err_msg is None:
            err_msg = (f"Failed importing {module_name}. This likely means that some modules "
                       f"require additional dependencies that have to be installed by hand "
                       f"(usually with `pip install {package}`).")
        raise ImportError(err_msg) from None
