"""Every public name has a docstring with an example, and every example runs.

Walks ``__all__`` of every public module of the installed package (compiled
modules included, which doctest's own finder does not see reliably).
"""
import doctest
import importlib
import inspect
import pkgutil
import sys

import pytest

import pylayer
from pylayer.ops.inplace import twin_of


def public_modules():
    names = ["pylayer"]
    for info in pkgutil.walk_packages(pylayer.__path__, "pylayer."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def public_objects():
    seen = set()
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.ismodule(obj) or id(obj) in seen:
                continue
            if not (callable(obj) or inspect.isclass(obj)):
                continue  # dtype constants and other values
            seen.add(id(obj))
            yield f"{module_name}.{name}", obj


def documented_members(qualname, obj):
    yield qualname, obj
    if inspect.isclass(obj):
        for name, member in vars(obj).items():
            if name.startswith("_"):
                continue
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if callable(member) or isinstance(member, property):
                yield f"{qualname}.{name}", member


PUBLIC = sorted(public_objects(), key=lambda item: item[0])


def test_every_public_module_has_all():
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        assert hasattr(module, "__all__"), f"{module_name} has no __all__"


@pytest.mark.parametrize("qualname,obj", PUBLIC, ids=[q for q, _ in PUBLIC])
def test_public_name_has_a_runnable_example(qualname, obj):
    obj = twin_of(obj) or obj    # an in-place twin (abs_) is shown by its op's example
    doc = inspect.getdoc(obj) or ""
    assert ">>>" in doc, f"{qualname} has no doctest example in its docstring"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for name, member in documented_members(qualname, obj):
        member_doc = inspect.getdoc(member) or ""
        if ">>>" not in member_doc:
            continue
        module = sys.modules.get(getattr(obj, "__module__", ""), pylayer)
        globs = dict(vars(module), pylayer=pylayer)
        test = parser.get_doctest(member_doc, globs, name, None, 0)
        runner.run(test, out=lambda text: None)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) failed in {qualname}; run " \
                               f"python -m doctest on its docstring to see them"
