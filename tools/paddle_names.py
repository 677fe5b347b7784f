"""Write PaddlePaddle's public names, per namespace, to src/pylayer/_paddle_api/paddle_names.json.

Paddle is never a dependency of pylayer: run this by hand, in a scratch
environment outside the project that has the Paddle release pylayer follows::

    python3.11 -m venv /tmp/scratch-paddle
    /tmp/scratch-paddle/bin/pip install paddlepaddle==3.3.1
    /tmp/scratch-paddle/bin/python tools/paddle_names.py

and commit the rewritten file. The names of a namespace are its ``__all__``
when it declares a non-empty one, otherwise the names ``dir()`` lists; in
both cases without private names (a leading ``_``) and without submodules
(each namespace is listed on its own). ``paddle.Tensor`` lists the public
names of ``dir(paddle.Tensor)``: its methods and properties. Beside a
namespace's ``__all__``, ``attributes`` lists the other public names that
``dir()`` shows (``paddle.set_device`` is one): pylayer may have them, but
they do not count in its coverage.

tests/api/test_paddle_coverage.py and the migration guide read this file
(with src/pylayer/_paddle_api/not_applicable.toml and tools/paddle_api/pylayer_extras.toml) through
tools/paddle_coverage.py, without Paddle.
"""
import importlib
import json
import pathlib
import sys
import types
import warnings

OUT = pathlib.Path(__file__).resolve().parents[1] / "src" / "pylayer" / "_paddle_api" / "paddle_names.json"
VERSION = "3.3.1"

# The namespaces compared, in the order the coverage table shows them.
NAMESPACES = [
    "paddle", "paddle.Tensor", "paddle.linalg", "paddle.fft", "paddle.signal",
    "paddle.nn", "paddle.nn.functional", "paddle.nn.initializer", "paddle.nn.utils",
    "paddle.optimizer", "paddle.optimizer.lr", "paddle.regularizer",
    "paddle.autograd", "paddle.incubate", "paddle.incubate.autograd",
    "paddle.static", "paddle.static.nn", "paddle.jit", "paddle.amp",
    "paddle.framework", "paddle.device", "paddle.io", "paddle.metric",
    "paddle.distribution", "paddle.distributed", "paddle.distributed.fleet",
    "paddle.sparse", "paddle.utils", "paddle.vision.transforms", "paddle.text", "paddle.audio",
]


def public(module, names):
    return sorted({name for name in names if not name.startswith("_")
                   and not isinstance(getattr(module, name, None), types.ModuleType)})


def namespace_entry(namespace):
    """``{"rule", "names", "attributes"}`` of one namespace of the imported Paddle:
    ``attributes`` are the public names that ``dir()`` lists beside ``__all__``."""
    if namespace == "paddle.Tensor":
        import paddle
        return {"rule": "dir()", "names": public(paddle.Tensor, dir(paddle.Tensor)),
                "attributes": []}
    module = importlib.import_module(namespace)
    declared = getattr(module, "__all__", None)
    if not declared:
        return {"rule": "dir()", "names": public(module, dir(module)), "attributes": []}
    names = public(module, declared)
    return {"rule": "__all__", "names": names,
            "attributes": sorted(set(public(module, dir(module))) - set(names))}


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle
    if paddle.__version__ != VERSION:
        sys.exit(f"paddle_names.py: Paddle {VERSION} is needed, this environment has "
                 f"{paddle.__version__}")
    namespaces = {namespace: namespace_entry(namespace) for namespace in NAMESPACES}
    data = {"paddle": VERSION, "written_by": "tools/paddle_names.py", "namespaces": namespaces}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    total = sum(len(entry["names"]) for entry in namespaces.values())
    print(f"wrote {OUT}: {total} names in {len(namespaces)} namespaces")


if __name__ == "__main__":
    main()
