"""Running code written for Paddle unchanged: :func:`install_as_paddle` and ``python -m pylayer run``.

After :func:`install_as_paddle`, ``import paddle``, ``import paddle.nn.functional
as F`` and ``from paddle.autograd import PyLayer`` give pylayer's modules
(``paddle`` *is* ``pylayer``). A finder on ``sys.meta_path`` maps each
``paddle.x`` to ``pylayer.x`` when it is imported; nothing is imported ahead.
A Paddle module that pylayer does not have (``paddle.geometric``,
``paddle.audio``, ...) raises an ``ImportError`` (a
``ModuleNotFoundError``) that says why (from the data of
:mod:`pylayer._paddle_api`, installed with pylayer) and names the command that
says more, ``python -m pylayer migration paddle.geometric``. Nothing changes until
the function is called.

``python -m pylayer run script.py [arguments]`` and ``python -m pylayer run -m
module [arguments]`` install the alias, then run the script or module as
``python`` would, with ``sys.argv`` set for it: a Paddle script, or
``python -m pylayer run -m pytest`` for a Paddle test suite.

Either way the alias reaches the child processes the program starts through
``multiprocessing`` (and ``concurrent.futures``): a child started with the
spawn or forkserver method is a fresh interpreter, which receives with
multiprocessing's preparation data an object whose unpickling installs the
alias, before the child imports the main module or anything else.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import runpy
import sys

from pylayer import _paddle_api

__all__ = ["install_as_paddle"]


def _paddle_name(pylayer_name):
    """``"paddle.x.y"`` for ``"pylayer.x.y"``."""
    return "paddle" + pylayer_name[len("pylayer"):]


def _not_in_pylayer(paddle_name):
    """The error for a Paddle module, or a name ``from paddle.x import name`` imports,
    that pylayer lacks: what it is, why pylayer lacks it, and the command that says
    more. A module gives a ModuleNotFoundError, a name an ImportError."""
    module, _, name = paddle_name.rpartition(".")
    parent = sys.modules.get("pylayer" + module[len("paddle"):])
    found = None if parent is None else getattr(parent, name, None)
    if found is not None:                   # import paddle.nn.LSTM: a class, not a module
        return ModuleNotFoundError(f"No module named {paddle_name!r}: it is a "
                                   f"{type(found).__name__} of {module}, not a module",
                                   name=paddle_name)
    text = _paddle_api.explain(paddle_name)
    if text is not None and not _paddle_api.is_paddle_module(paddle_name):
        return ImportError(f"cannot import name {name!r} from {module!r} (pylayer, installed "
                           f"as paddle): {text}", name=module)
    text = text or (f"Paddle {_paddle_api.paddle_names()['paddle']} has no such public "
                    f"module either; `{_paddle_api.COMMAND}` lists what pylayer has of "
                    f"Paddle's namespaces")
    return ModuleNotFoundError(f"No module named {paddle_name!r} in pylayer, installed as "
                               f"paddle: {text}", name=paddle_name)


def _missing_attribute(module, name):
    """The AttributeError for ``module.name`` (the ``__getattr__`` of pylayer's modules):
    for a Paddle name pylayer lacks, it says why and names the command that says more."""
    message = f"module {module.__name__!r} has no attribute {name!r}"
    text = _paddle_api.explain(f"{_paddle_name(module.__name__)}.{name}")
    return AttributeError(message if text is None else f"{message}: {text}", name=name,
                          obj=module)


def _tensor_getattr(tensor, name):
    """``Tensor.__getattr__``: only names a Tensor lacks get here. The message names the
    class as Python users know it and, for a method of Paddle's Tensor, says why pylayer
    lacks it."""
    message = f"{type(tensor).__name__!r} object has no attribute {name!r}"
    text = None if name.startswith("__") else _paddle_api.explain(f"paddle.Tensor.{name}")
    raise AttributeError(message if text is None else f"{message}: {text}", name=name,
                         obj=tensor)


def _explain_missing_names():
    """Give each of pylayer's modules that stands for a Paddle namespace (and has no
    ``__getattr__`` of its own) one that answers a missing name with
    :func:`_missing_attribute`. ``pylayer/__init__`` calls it once, at its end."""
    partly = [f"paddle.{name}" for name in _paddle_api.MODULES_IN_PART]
    for namespace in [*_paddle_api.paddle_names()["namespaces"], *partly]:
        module = sys.modules.get("pylayer" + namespace[len("paddle"):])
        if module is not None and "__getattr__" not in vars(module):
            module.__getattr__ = _attribute_error_of(module)


def _attribute_error_of(module):
    def __getattr__(name):
        raise _missing_attribute(module, name)
    return __getattr__


def _exists(name, path):
    """Whether the module ``name`` (``pylayer.x.y``) can be imported from ``path``."""
    return name in sys.modules or importlib.machinery.PathFinder.find_spec(name, path) is not None


class _PaddleFinder(importlib.abc.MetaPathFinder):
    """Finds ``paddle`` and ``paddle.x`` as pylayer's modules."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "paddle":
            return importlib.util.spec_from_loader(fullname, _Alias("pylayer"))
        if fullname.startswith("paddle."):
            real = "pylayer" + fullname[len("paddle"):]
            public = not any(part.startswith("_") for part in fullname.split(".")[1:])
            if not (public and _exists(real, path)):
                raise _not_in_pylayer(fullname)
            return importlib.util.spec_from_loader(fullname, _Alias(real))
        if fullname.startswith("pylayer.") and _paddle_api.is_paddle_name(
                _paddle_name(fullname)) and not _exists(fullname, path):
            # ``from paddle import vision`` looks for pylayer.vision, ``from paddle.device
            # import x`` for pylayer.device.x: answer in Paddle's terms.
            raise _not_in_pylayer(_paddle_name(fullname))
        return None


class _Alias(importlib.abc.Loader):
    """Loads ``paddle.x`` as the module ``pylayer.x`` itself."""

    def __init__(self, real):
        self.real = real
        self._real_spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.real)
        self._real_spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self._real_spec     # the import system set the alias's spec
        alias = module.__spec__.name.replace("pylayer", "paddle", 1)
        # A submodule that an attribute of the same name hides (pylayer.autograd.gradcheck,
        # a module, behind the function gradcheck) is registered under its alias now, so
        # that importing it does not overwrite the attribute.
        prefix = self.real + "."
        for name, child in list(sys.modules.items()):
            short = name[len(prefix):]
            if name.startswith(prefix) and "." not in short \
                    and getattr(module, short, None) is not child:
                sys.modules.setdefault(f"{alias}.{short}", child)


def install_as_paddle():
    """Make ``import paddle`` (and every ``paddle.x`` that pylayer has) import pylayer.

    Code written for Paddle then runs unchanged: ``import paddle``,
    ``import paddle.nn.functional as F``, ``from paddle.autograd import
    PyLayer`` give pylayer's modules. A Paddle module that pylayer does not
    have raises a ``ModuleNotFoundError`` that says why and names the command
    that says more (``python -m pylayer migration paddle.geometric``).
    The alias reaches the child processes the program starts through
    ``multiprocessing`` and ``concurrent.futures`` (with any start
    method: a spawned child installs it before it imports anything).
    Call it before anything imports ``paddle``: if the real Paddle is already
    imported it raises ``RuntimeError`` and changes nothing. Calling it again
    does nothing.

    >>> import pylayer
    >>> pylayer.install_as_paddle()
    >>> import paddle
    >>> import paddle.nn.functional as F
    >>> from paddle.autograd import PyLayer
    >>> paddle is pylayer, F is pylayer.nn.functional
    (True, True)
    >>> try:
    ...     import paddle.geometric
    ... except ImportError as error:
    ...     print(error.name, "python -m pylayer migration paddle.geometric" in str(error))
    paddle.geometric True
    """
    import pylayer
    loaded = sys.modules.get("paddle")
    if loaded is not None and loaded is not pylayer:
        where = getattr(loaded, "__file__", None) or repr(loaded)
        raise RuntimeError(f"install_as_paddle(): the real Paddle is already imported (from "
                           f"{where}); call install_as_paddle() before anything imports "
                           f"paddle, or run the program with python -m pylayer run")
    if not any(isinstance(finder, _PaddleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PaddleFinder())
    _send_to_child_processes()


# ------------------------------------------------- child processes (multiprocessing)
class _AliasInChild:
    """Sent to every child that ``multiprocessing`` starts as a fresh interpreter (the
    spawn and forkserver methods, so ``Pool`` and ``ProcessPoolExecutor`` too), in the
    preparation data: the child unpickles that first, before it imports the parent's
    main module or unpickles what it is to run, and unpickling this installs the alias
    there. (A forked child has the parent's ``sys.meta_path`` already.)"""

    def __reduce__(self):
        return install_as_paddle, ()


_CHILD_KEY = "pylayer.install_as_paddle"    # a key multiprocessing's prepare() ignores


def _send_to_child_processes():
    """Add :class:`_AliasInChild` to multiprocessing's preparation data, once."""
    from multiprocessing import spawn
    original = spawn.get_preparation_data
    if getattr(original, "_sends_the_paddle_alias", False):
        return

    def get_preparation_data(name):
        data = original(name)
        data[_CHILD_KEY] = _AliasInChild()
        return data

    get_preparation_data._sends_the_paddle_alias = True
    spawn.get_preparation_data = get_preparation_data


# ---------------------------------------------------------- python -m pylayer run
_USAGE = """usage: python -m pylayer run script.py [arguments]
       python -m pylayer run -m module [arguments]

Run a script (or a module, as python -m does) written for Paddle on pylayer,
unchanged: `import paddle` and `import paddle.x` give pylayer's modules
(pylayer.install_as_paddle()). The arguments after the script or module are
its sys.argv[1:]. Examples: python -m pylayer run train.py --epochs 3;
python -m pylayer run -m pytest tests/."""


def _command_line(argv):
    """``python -m pylayer run ...``; returns the exit status (a script that exits
    with ``sys.exit`` ends the process with its own status)."""
    argv = list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "-m":
        if len(argv) < 2:
            print("python -m pylayer run: -m needs a module name\n\n" + _USAGE, file=sys.stderr)
            return 2
        install_as_paddle()
        module = argv[1]
        if module == "paddle" or module.startswith("paddle."):   # the module it stands for
            module = "pylayer" + module[len("paddle"):]
        sys.argv = [module, *argv[2:]]       # runpy puts the module's file first
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    if argv[0].startswith("-"):
        print(f"python -m pylayer run: unknown option {argv[0]!r}\n\n" + _USAGE, file=sys.stderr)
        return 2
    script = argv[0]
    if not os.path.exists(script):
        print(f"python -m pylayer run: can't open file {script!r}: no such file",
              file=sys.stderr)
        return 2
    install_as_paddle()
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(os.path.abspath(script))   # as python script.py does
    runpy.run_path(script, run_name="__main__")
    return 0
