"""A pytest plugin that runs ``opcheck`` on every PyLayer that a test or a doc example applies.

``test_opcheck_corpus.py`` loads it into a pytest run of its own
(``-p _opcheck_corpus``). While a test runs, the first call of each PyLayer
subclass that could be checked (dynamic mode, recording on, a float Tensor
input with ``stop_gradient=False``, at most ``MAX_ELEMENTS`` elements per
Tensor) is noted with a copy of its arguments; when the test ends, opcheck runs
on it. The outcomes go, as JSON, to the file named by ``OPCHECK_CORPUS_OUT``:
``{key: {"failures": [...], "notes": [...], "report": text}}`` or
``{key: {"error": text}}``, where the key is ``<file>[<parameter>]::<class qualname>``.

Doctest namespaces are kept until the test ends (doctest clears them after
running an example), so that the classes defined in examples still find
their globals when opcheck runs them.
"""
import doctest
import functools
import json
import os
import sys
import traceback

import pytest

import pylayer
from pylayer.autograd import PyLayer, opcheck

MAX_ELEMENTS = 200
_APPLY = PyLayer.__dict__["apply"].__func__
_RUN_DOCTEST = {runner: runner.run for runner in (doctest.DocTestRunner, doctest.DebugRunner)}
_seen = set()
_pending = []
_outcomes = {}


def _tensors(values):
    for value in values:
        if isinstance(value, pylayer.Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, pylayer.Tensor))


def _checkable(cls, args, kwargs):
    tensors = list(_tensors(list(args) + list(kwargs.values())))
    return (pylayer.is_grad_enabled()
            and pylayer.in_dynamic_mode()
            and any(t.dtype.is_floating_point and not t.stop_gradient for t in tensors)
            and all(t.size <= MAX_ELEMENTS for t in tensors))


def _copy(value):
    if isinstance(value, pylayer.Tensor):
        copy = pylayer.to_tensor(value.numpy().copy())
        copy.stop_gradient = value.stop_gradient
        return copy
    if isinstance(value, (list, tuple)) and any(isinstance(v, pylayer.Tensor) for v in value):
        return type(value)(_copy(v) for v in value)
    return value


@functools.wraps(_APPLY)
def _recording_apply(cls, *args, **kwargs):
    new = cls not in _seen and _checkable(cls, args, kwargs) and not _inside_opcheck()
    if new:
        copies = ([_copy(v) for v in args], {k: _copy(v) for k, v in kwargs.items()})
    result = _APPLY(cls, *args, **kwargs)
    if new and cls not in _seen:
        _seen.add(cls)
        _pending.append((cls, *copies))
    return result


def _keeping_globals(runner):
    def run(self, test, compileflags=None, out=None, clear_globs=True):
        return _RUN_DOCTEST[runner](self, test, compileflags, out, clear_globs=False)
    return run


def _inside_opcheck():
    """Whether opcheck itself is running (its own calls of a layer are not noted)."""
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith("pylayer.autograd.") and "opcheck" in name:
            return True
        frame = frame.f_back
    return False


def pytest_configure(config):
    PyLayer.apply = classmethod(_recording_apply)
    for runner in _RUN_DOCTEST:
        runner.run = _keeping_globals(runner)


def _key(nodeid, cls):
    path, _, rest = nodeid.partition("::")
    parameter = rest[rest.index("["):] if "[" in rest else ""
    key = f"{path}{parameter}::{cls.__qualname__}"
    number = 2
    while key in _outcomes:
        key = f"{path}{parameter}::{cls.__qualname__}#{number}"
        number += 1
    return key


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield
    for cls, args, kwargs in _pending:
        key = _key(item.nodeid, cls)
        try:
            report = opcheck(cls, tuple(args), kwargs)
        except Exception as error:
            _outcomes[key] = {"error": "".join(traceback.format_exception_only(error))}
            continue
        _outcomes[key] = {"failures": [entry.name for entry in report.failures],
                          "notes": [entry.name for entry in report.entries
                                    if entry.verdict == "note"],
                          "report": str(report)}
    _pending.clear()


def pytest_sessionfinish(session):
    with open(os.environ["OPCHECK_CORPUS_OUT"], "w", encoding="utf-8") as out:
        json.dump(_outcomes, out, indent=1, sort_keys=True)
