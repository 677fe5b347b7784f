"""Hostile input for every public callable: a clear TypeError, ValueError or IndexError, never
anything else.

The walker lists every callable in the ``__all__`` of ``pylayer`` and of each
public submodule (as ``tests/api/test_docstrings.py`` does) and FAILS for one
that has no entry in ``_hostile_calls.CALLS``, and for a public method with
parameters that is neither in ``_hostile_methods.METHODS`` nor in ``EXEMPT``: a new function
cannot skip this test. Each entry's valid call must succeed; then each
argument in turn is replaced by every hostile value of its kind (strings,
None, dicts, ragged lists, object arrays, integer tensors for float-only
ops, negative or huge sizes, ...) and by the entry's extra cases
(mismatched shapes, values out of range). Each must raise ``TypeError`` or
``ValueError`` (``IndexError`` for a position out of range of what it
indexes) whose message names the function and the argument, within a
time limit: no crash, no hang, no other exception, no silent result.
"""
import importlib
import inspect
import pkgutil
import re
import signal
from contextlib import contextmanager

import pytest

import pylayer
from pylayer import static
from pylayer._core import graph as _graph
from pylayer._core.tensor import set_grad_enabled_flag

from _hostile_calls import CALLS
from _hostile_methods import EXEMPT, METHODS
from _hostile_values import HOSTILE

TIME_LIMIT = 2  # seconds for one call; hostile input must never make a call hang


def public_modules():
    names = ["pylayer"]
    for info in pkgutil.walk_packages(pylayer.__path__, "pylayer."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def public_callables():
    seen, found = set(), []
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            found.append((f"{module_name}.{name}", obj))
    return sorted(found, key=lambda item: item[0])


def public_methods(cls):
    """(name, function) for the public methods that ``cls`` itself defines. Tensor's
    methods from the method table are walked as the functions they are (``x.exp`` is
    ``pylayer.exp``; ``x.exp_`` hands its arguments to it)."""
    table = pylayer.tensor_methods() if cls is pylayer.Tensor else {}
    for name, member in vars(cls).items():
        if name.startswith("_") or isinstance(member, (property, type)) or name in table:
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if callable(member):
            yield name, member


def has_parameters(function, is_static):
    try:
        params = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return True
    return bool(params[0 if is_static else 1:])


PUBLIC = public_callables()


def test_every_public_callable_has_an_entry_in_the_call_table():
    missing = [qualname for qualname, obj in PUBLIC if obj not in CALLS]
    assert not missing, (f"add these to CALLS in tests/reliability/_hostile_calls.py (how to "
                         f"call them with valid arguments, and the kind of each): {missing}")


def test_every_public_method_with_parameters_has_an_entry_or_an_exemption():
    missing = []
    for qualname, obj in PUBLIC:
        if not inspect.isclass(obj):
            continue
        for name, method in public_methods(obj):
            is_static = isinstance(vars(obj)[name], staticmethod)
            if has_parameters(method, is_static) and (obj, name) not in METHODS \
                    and (obj, name) not in EXEMPT:
                missing.append(f"{qualname}.{name}")
    assert not missing, (f"add these methods to METHODS (or, with a reason, to EXEMPT) in "
                         f"tests/reliability/_hostile_methods.py: {missing}")


# ------------------------------------------------------------------ running
class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds):
    def expire(signum, frame):
        raise Hang(f"the call did not return within {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def restore_global_state():
    """Valid calls of enable_static, set_grad_enabled... change process state: undo that."""
    pylayer.disable_static()
    set_grad_enabled_flag(True)
    while _graph.current_saved_tensors_hooks() is not None:
        _graph.pop_saved_tensors_hooks()


def invoke(target, method, call, overrides):
    env = {}
    programs = static.program_guard(static.Program(), static.Program()) if call.static else None
    try:
        if programs is not None:
            pylayer.enable_static()
            programs.__enter__()
        if call.setup is not None:
            call.setup(env)
        function = getattr(env["self"], method) if method else target
        args, kwargs = [], {}
        for arg in call.args:
            value = (overrides[arg.name] if arg.name in overrides else arg.make)(env)
            if arg.keyword:
                kwargs[arg.name] = value
            else:
                args.append(value)
        with time_limit(TIME_LIMIT):
            return function(*args, **kwargs)
    finally:
        if programs is not None:
            programs.__exit__(None, None, None)
        restore_global_state()


def callable_names(target, method, call):
    """Names the error message may use for the callable."""
    if method:
        return [method, target.__name__, *call.names]
    return [getattr(target, "__name__", str(target)), *call.names]


# ------------------------------------------------------------------- cases
ENTRIES = [(qualname, obj, None, CALLS[obj]) for qualname, obj in PUBLIC if obj in CALLS]
ENTRIES += [(f"{cls.__module__}.{cls.__name__}.{name}", cls, name, call)
            for (cls, name), call in METHODS.items()]


def hostile_cases():
    for qualname, target, method, call in ENTRIES:
        for arg in call.args:
            for label, make in HOSTILE[arg.kind] if arg.kind else []:
                yield case_id(qualname, f"{arg.name}={label}"), (
                    target, method, call, {arg.name: make}, (arg.name,))
        for label, replaced, blamed in call.extra:
            blamed = (blamed,) if isinstance(blamed, str) else blamed
            yield case_id(qualname, label), (target, method, call, replaced, blamed)


def case_id(qualname, what):
    return f"{qualname}({what})"


CASES = dict(hostile_cases())


@pytest.mark.parametrize("target,method,call", [pytest.param(t, m, c, id=q)
                                                for q, t, m, c in ENTRIES])
def test_the_valid_call_of_the_table_succeeds(target, method, call):
    invoke(target, method, call, {})


# Positions out of range of what they index are an IndexError, as in Paddle and numpy.
INDEX_ARGUMENTS = {"index", "label", "key"}


def check_refusal(error, target, method, call, blamed):
    allowed = (TypeError, ValueError)
    if INDEX_ARGUMENTS.intersection(blamed):
        allowed += (IndexError,)
    assert isinstance(error, allowed), (
        f"expected {' or '.join(e.__name__ for e in allowed)}, got {type(error).__name__}: "
        f"{error}")
    message = str(error)
    names = callable_names(target, method, call)
    assert any(re.search(rf"\b{re.escape(n)}\b", message) for n in names), (
        f"the message does not name the function ({' or '.join(names)}): {message!r}")
    blamed = [alias for a in blamed for alias in (a, *call.aliases.get(a, ()))]
    assert any(re.search(rf"\b{re.escape(a)}s?\b", message) for a in blamed), (
        f"the message does not name the argument ({' or '.join(blamed)}): {message!r}")


def refusal_problem(target, method, call, overrides, blamed):
    """None when the hostile call is refused as it should be, else what went wrong."""
    try:
        result = invoke(target, method, call, overrides)
    except Exception as error:  # noqa: BLE001 - the type is what is checked
        try:
            check_refusal(error, target, method, call, blamed)
        except AssertionError as problem:
            return str(problem)
        return None
    return f"accepted the hostile value and returned a {type(result).__name__}"


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_argument_is_refused_with_a_clear_message(case):
    problem = refusal_problem(*CASES[case])
    assert problem is None, problem
