"""Saving and loading static programs and their persistable values.

Parameter files (``.pdparams``, ``.pdopt``, ``.pdiparams``) are what Paddle's
``paddle.static.save`` writes: a pickled dict from variable names to numpy
arrays, so each library reads the other's. A program (``.pdmodel``) is
pylayer's own format: the pickled :class:`Program`, its operators naming the
pylayer functions they call. Paddle's inference engine cannot read it (Paddle
stores a protobuf of its C++ operators, which pylayer does not have), nor can
pylayer read Paddle's.

Every file is untrusted input: parameters are read by :func:`pylayer.load`, and a
program may refer only to pylayer's classes and public ops and to numpy's arrays and
dtypes; anything else (a function of another module: a ``py_func`` callback too) is
refused with ``pickle.UnpicklingError`` before it is built, so nothing in a file runs.
"""
import importlib
import io
import os
import pickle

import numpy as np

from pylayer.extend import check_str, describe, write_atomically
from pylayer.framework import load as _load_file
from pylayer.static._executor import Executor, global_scope
from pylayer.static._program import Program, default_main_program
from pylayer.static._variable import Parameter, Variable

__all__ = ["save", "load", "load_program_state", "set_program_state", "normalize_program",
           "serialize_program", "deserialize_program", "serialize_persistables",
           "deserialize_persistables", "save_to_file", "load_from_file",
           "save_inference_model", "load_inference_model"]

_FORMAT = "pylayer-static-program-1"


# -------------------------------------------------------------- pickling
def _public_function(module, qualname):
    """The function that a recorded operator calls: the op's unwrapped code when the
    module's attribute of that name is the public (dispatching) wrapper."""
    found = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return getattr(found, "__wrapped__", found)


# What a program file may name besides pylayer's classes: numpy's arrays and dtypes.
_NUMPY_NAMES = {("numpy", "dtype"), ("numpy", "ndarray"),
                ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "scalar"),
                ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice"),
                ("builtins", "complex")}


# The modules whose functions a program's operators may call (files are written
# only by this module, whose functions are not among them).
_OP_MODULES = ("pylayer.ops.", "pylayer.nn.", "pylayer.static.")


class _Refused(pickle.UnpicklingError):
    """A program file that names what a program does not hold."""


def _refused(what):
    return _Refused(
        f"deserialize_program(): the data names {what}, which a pylayer program does not "
        f"hold; building it could run code, so the data is refused")


def _checked_public_function(module, qualname):
    """``_public_function`` for a file: a public op of pylayer only."""
    if not isinstance(module, str) or not isinstance(qualname, str) \
            or not module.startswith("pylayer."):
        raise _refused(f"the function {module}.{qualname}")
    try:
        found = _public_function(module, qualname)
    except (ImportError, AttributeError) as exc:
        raise _refused(f"the function {module}.{qualname}") from exc
    return found


class _ProgramUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _NUMPY_NAMES:
            return super().find_class(module, name)
        if module == __name__ and name == "_public_function":
            return _checked_public_function
        if module.startswith("pylayer."):
            found = super().find_class(module, name)
            if isinstance(found, type) or (module.startswith(_OP_MODULES)
                                           and module != __name__ and callable(found)):
                return found
        raise _refused(f"{module}.{name}")


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if not callable(obj) or isinstance(obj, type) or not module or not qualname \
                or "<" in qualname:
            return NotImplemented
        try:
            found = importlib.import_module(module)
            for part in qualname.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError):
            return NotImplemented
        if found is not obj and getattr(found, "__wrapped__", None) is obj:
            return _public_function, (module, qualname)
        return NotImplemented


def _dumps(value, protocol=4):
    buffer = io.BytesIO()
    try:
        _Pickler(buffer, protocol=protocol).dump(value)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise ValueError(f"the program cannot be saved: one of its operators calls a function "
                         f"that cannot be stored by name ({exc}); functions given to py_func, "
                         f"static_pylayer and the like must be defined at the top level of "
                         f"a module") from exc
    return buffer.getvalue()


# ----------------------------------------------------------------- checks
def _program(value, fn, arg="program"):
    if not isinstance(value, Program):
        raise TypeError(f"{fn}(): argument '{arg}' must be a Program, got {describe(value)}")
    return value


def _path(value, fn, arg="model_path"):
    check_str(value, fn, arg)
    if not value or os.path.basename(value) == "":
        raise ValueError(f"{fn}(): argument '{arg}' must be a path prefix such as "
                         f"'dir/model' (the suffixes are added), got {value!r}")
    return value


def _vars(value, fn, arg):
    items = [value] if isinstance(value, Variable) else value
    if not isinstance(items, (list, tuple)) or not items:
        raise TypeError(f"{fn}(): argument '{arg}' must be a Variable or a non-empty list of "
                        f"Variables, got {describe(value)}")
    for i, item in enumerate(items):
        if not isinstance(item, Variable):
            raise TypeError(f"{fn}(): argument '{arg}' item {i} must be a Variable, "
                            f"got {describe(item)}")
    return list(items)


def _persistables(program):
    return [v for v in program.global_block().vars.values()
            if v.persistable and v.kind not in ("data", "grad")]


def _scope_values(names, fn):
    values = global_scope()._values
    missing = [n for n in names if values.get(n) is None]
    if missing:
        raise ValueError(f"{fn}(): {missing} have no value in the scope yet; run the startup "
                         f"program first (exe.run(paddle.static.default_startup_program()))")
    return {n: np.array(values[n], copy=True) for n in names}


def _write(path, data):
    write_atomically(path, data)


def _read_state(path, fn):
    if not os.path.exists(path):
        raise FileNotFoundError(f"{fn}(): no file {path!r}")
    state = _load_file(path, return_numpy=True)
    if not isinstance(state, dict):
        raise ValueError(f"{fn}(): {path!r} does not hold a dict of arrays")
    return {k: np.asarray(v) for k, v in state.items()}


def _assign(program, state, fn, strict):
    """Put ``state``'s arrays in the global scope for the persistables of ``program``."""
    values = global_scope()._values
    for var in _persistables(program):
        if var.name not in state:
            if strict:
                raise ValueError(f"{fn}(): the file has no value for {var.name!r}")
            continue
        array = np.asarray(state[var.name])
        if var.shape is not None and list(array.shape) != var.shape:
            raise ValueError(f"{fn}(): {var.name!r} has shape {var.shape} in the program, "
                             f"but {list(array.shape)} in the state")
        values[var.name] = np.array(array, dtype=var.dtype.np_dtype, copy=True)


# ------------------------------------------------------------- save / load
def save(program, model_path, protocol=4, **configs):
    """Save ``program``'s parameters, its other persistables and the program itself.

    Writes ``model_path + ".pdparams"`` (the Parameters), ``".pdopt"`` (other
    persistable variables, such as optimizer state) and ``".pdmodel"`` (the
    program, in pylayer's format). The values come from the global scope.

    >>> import os, tempfile, numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="save_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> path = os.path.join(tempfile.mkdtemp(), "model")
    >>> paddle.static.save(main, path)
    >>> sorted(paddle.static.load_program_state(path))
    ['save_demo.b_0', 'save_demo.w_0']
    >>> paddle.disable_static()
    """
    _program(program, "save")
    _path(model_path, "save")
    if protocol not in (2, 3, 4):
        raise ValueError(f"save(): argument 'protocol' must be 2, 3 or 4, got {protocol!r}")
    persistables = _persistables(program)
    params = [v.name for v in persistables if isinstance(v, Parameter)]
    others = [v.name for v in persistables if not isinstance(v, Parameter)]
    values = global_scope()._values
    _write(model_path + ".pdparams",
           pickle.dumps(_scope_values(params, "save"), protocol=protocol))
    _write(model_path + ".pdopt", pickle.dumps(
        {n: np.array(values[n], copy=True) for n in others if values.get(n) is not None},
        protocol=protocol))
    _write(model_path + ".pdmodel", _dumps((_FORMAT, program), protocol))


def load(program, model_path, executor=None, var_list=None):
    """Load the values that :func:`save` wrote for ``program`` into the global scope.

    Every parameter of ``program`` must be in ``model_path + ".pdparams"``;
    other persistables are read from ``".pdopt"`` when it exists. With
    ``var_list``, only those variables are loaded.


    >>> import os, tempfile, numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="load_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> path = os.path.join(tempfile.mkdtemp(), "model")
    >>> paddle.static.save(main, path)
    >>> scope = paddle.static.global_scope()
    >>> scope.find_var("load_demo.b_0").get_tensor().set(np.ones([1], "float32"))
    >>> paddle.static.load(main, path, exe)
    >>> np.array(scope.find_var("load_demo.b_0").get_tensor())
    array([0.], dtype=float32)
    >>> paddle.disable_static()
    """
    _program(program, "load")
    _path(model_path, "load")
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"load(): argument 'executor' must be an Executor or None, "
                        f"got {describe(executor)}")
    state = load_program_state(model_path)
    if var_list is not None:
        names = {v.name for v in _vars(var_list, "load", "var_list")}
        state = {k: v for k, v in state.items() if k in names}
        missing = names - set(state)
        if missing:
            raise ValueError(f"load(): {sorted(missing)} are not in {model_path!r}")
        values = global_scope()._values
        for var in _persistables(program):
            if var.name in state:
                _assign_one(values, var, state[var.name], "load")
        return
    missing = [v.name for v in _persistables(program)
               if isinstance(v, Parameter) and v.name not in state]
    if missing:
        raise ValueError(f"load(): the parameters {missing} are not in "
                         f"{model_path + '.pdparams'!r}")
    _assign(program, state, "load", strict=False)


def _assign_one(values, var, array, fn):
    if list(array.shape) != var.shape:
        raise ValueError(f"{fn}(): {var.name!r} has shape {var.shape} in the program, but "
                         f"{list(array.shape)} in the file")
    values[var.name] = np.array(array, dtype=var.dtype.np_dtype, copy=True)


def load_program_state(model_path, var_list=None):
    """The arrays saved by :func:`save` (or Paddle's), as a dict from names.

    >>> import os, tempfile, numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="lps_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> path = os.path.join(tempfile.mkdtemp(), "model")
    >>> paddle.static.save(main, path)
    >>> state = paddle.static.load_program_state(path)
    >>> sorted(state), state["lps_demo.b_0"]
    (['lps_demo.b_0', 'lps_demo.w_0'], array([0.], dtype=float32))
    >>> paddle.disable_static()
    """
    _path(model_path, "load_program_state")
    path = model_path[:-len(".pdparams")] if model_path.endswith(".pdparams") else model_path
    state = _read_state(path + ".pdparams", "load_program_state")
    if os.path.exists(path + ".pdopt"):
        state.update(_read_state(path + ".pdopt", "load_program_state"))
    if var_list is not None:
        names = [v.name for v in _vars(var_list, "load_program_state", "var_list")]
        state = {n: state[n] for n in names if n in state}
    return state


def set_program_state(program, state_dict):
    """Set the persistables of ``program`` in the global scope from ``state_dict``.

    Variables of the program missing from ``state_dict`` are left as they are.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     w = paddle.static.create_parameter([2], "float32", name="sps_w")
    >>> paddle.static.set_program_state(main, {"sps_w": np.array([1., 2.], "float32")})
    >>> np.array(paddle.static.global_scope().find_var("sps_w").get_tensor())
    array([1., 2.], dtype=float32)
    >>> paddle.disable_static()
    """
    _program(program, "set_program_state")
    if not isinstance(state_dict, dict):
        raise TypeError(f"set_program_state(): argument 'state_dict' must be a dict from "
                        f"names to arrays, got {describe(state_dict)}")
    _assign(program, state_dict, "set_program_state", strict=False)


# -------------------------------------------------------- inference models
def normalize_program(program, feed_vars, fetch_vars, **kwargs):
    """A copy of ``program`` for inference: no backward or optimizer ops, ops that take
    ``training`` set to evaluation, and only the ops that ``fetch_vars`` need.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     y = paddle.exp(x)
    ...     unused = paddle.tanh(x)
    >>> [op.type for op in paddle.static.normalize_program(main, [x], [y]).global_block().ops]
    ['exp']
    >>> paddle.disable_static()
    """
    return _normalized(program, feed_vars, fetch_vars, "normalize_program")


def _normalized(program, feed_vars, fetch_vars, fn):
    _program(program, fn, "program")
    feeds = _vars(feed_vars, fn, "feed_vars")
    fetches = _vars(fetch_vars, fn, "fetch_vars")
    copy = program.clone(for_test=True)
    block = copy.global_block()
    for var in feeds + fetches:
        if var.name not in block.vars:
            raise ValueError(f"{fn}(): Variable {var.name!r} is not in the program")
    needed = {v.name for v in fetches}
    kept = []
    for op in reversed(block.ops):
        if any(v.name in needed for v in op.outputs):
            kept.append(op)
            needed.update(v.name for v in op.inputs)
    block.ops = kept[::-1]
    needed.update(v.name for v in feeds)
    block.vars = {name: var for name, var in block.vars.items() if name in needed}
    copy._bump()
    copy._feed_names = [v.name for v in feeds]
    copy._fetch_names = [v.name for v in fetches]
    return copy


def serialize_program(feed_vars, fetch_vars, **kwargs):
    """The normalized program (of ``kwargs['program']`` or the default main program)
    as bytes, in pylayer's format.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="ser_demo")
    >>> data = paddle.static.serialize_program([x], [y], program=main)
    >>> isinstance(data, bytes)
    True
    >>> paddle.disable_static()
    """
    program = kwargs.get("program") or default_main_program()
    return _dumps((_FORMAT, _normalized(program, feed_vars, fetch_vars, "serialize_program")))


def deserialize_program(data):
    """The Program that :func:`serialize_program` made ``data`` from.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="deser_demo")
    >>> data = paddle.static.serialize_program([x], [y], program=main)
    >>> [op.type for op in paddle.static.deserialize_program(data).global_block().ops]
    ['matmul', 'add']
    >>> paddle.disable_static()
    """
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"deserialize_program(): argument 'data' must be bytes, "
                        f"got {describe(data)}")
    try:
        tag, program = _ProgramUnpickler(io.BytesIO(bytes(data))).load()
    except _Refused:
        raise
    except Exception as exc:
        raise ValueError("deserialize_program(): 'data' is not a program saved by pylayer "
                         "(Paddle's .pdmodel files cannot be read)") from exc
    if tag != _FORMAT or not isinstance(program, Program):
        raise ValueError("deserialize_program(): 'data' is not a program saved by pylayer")
    return program


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs):
    """The values of the normalized program's persistables (from the global scope), as
    bytes: a pickled dict from names to arrays.

    >>> import pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="serp_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> data = paddle.static.serialize_persistables([x], [y], exe, program=main)
    >>> isinstance(data, bytes)
    True
    >>> paddle.disable_static()
    """
    program = kwargs.get("program") or default_main_program()
    pruned = _normalized(program, feed_vars, fetch_vars, "serialize_persistables")
    names = [v.name for v in _persistables(pruned)]
    return pickle.dumps(_scope_values(names, "serialize_persistables"), protocol=4)


def deserialize_persistables(program, data, executor):
    """Put the values in ``data`` (from :func:`serialize_persistables`) in the global
    scope for ``program``'s persistables.

    >>> import os, tempfile, numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.static.nn.fc(x, 1, name="deserp_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> program_bytes = paddle.static.serialize_program([x], [y], program=main)
    >>> params_bytes = paddle.static.serialize_persistables([x], [y], exe, program=main)
    >>> program = paddle.static.deserialize_program(program_bytes)
    >>> program = paddle.static.deserialize_persistables(program, params_bytes, exe)
    >>> [op.type for op in program.global_block().ops]
    ['matmul', 'add']
    >>> paddle.disable_static()
    """
    _program(program, "deserialize_persistables")
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"deserialize_persistables(): argument 'data' must be bytes, "
                        f"got {describe(data)}")
    state = _load_file(io.BytesIO(bytes(data)), return_numpy=True)
    if not isinstance(state, dict):
        raise ValueError("deserialize_persistables(): 'data' does not hold a dict of arrays")
    _assign(program, state, "deserialize_persistables", strict=True)
    return program


def save_to_file(path, content):
    """Write the bytes ``content`` to ``path``.

    >>> import os, tempfile, pylayer as paddle
    >>> path = os.path.join(tempfile.mkdtemp(), "blob")
    >>> paddle.static.save_to_file(path, b"abc")
    >>> paddle.static.load_from_file(path)
    b'abc'
    """
    check_str(path, "save_to_file", "path")
    if not isinstance(content, (bytes, bytearray)):
        raise TypeError(f"save_to_file(): argument 'content' must be bytes, "
                        f"got {describe(content)}")
    _write(path, bytes(content))


def load_from_file(path):
    """The bytes in the file ``path``.

    >>> import os, tempfile, pylayer as paddle
    >>> path = os.path.join(tempfile.mkdtemp(), "blob")
    >>> paddle.static.save_to_file(path, b"abc")
    >>> paddle.static.load_from_file(path)
    b'abc'
    """
    check_str(path, "load_from_file", "path")
    with open(path, "rb") as f:
        return f.read()


def save_inference_model(path_prefix, feed_vars, fetch_vars, executor, **kwargs):
    """Save what inference needs: ``path_prefix + ".pdmodel"`` (the program pruned to
    ``fetch_vars``, in pylayer's format) and ``".pdiparams"`` (its persistables).

    >>> import os, tempfile, numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     one = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
    ...     y = paddle.static.nn.fc(x, 1, weight_attr=one, name="infer_demo")
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> prefix = os.path.join(tempfile.mkdtemp(), "model")
    >>> paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
    >>> program, feed_names, fetch_vars = paddle.static.load_inference_model(prefix, exe)
    >>> feed_names
    ['x']
    >>> exe.run(program, feed={"x": np.array([[1., 2.]], "float32")}, fetch_list=fetch_vars)
    [array([[3.]], dtype=float32)]
    >>> paddle.disable_static()
    """
    fn = "save_inference_model"
    _path(path_prefix, fn, "path_prefix")
    if not isinstance(executor, Executor):
        raise TypeError(f"{fn}(): argument 'executor' must be an Executor, "
                        f"got {describe(executor)}")
    program = kwargs.get("program") or default_main_program()
    pruned = _normalized(program, feed_vars, fetch_vars, fn)
    names = [v.name for v in _persistables(pruned)]
    _write(path_prefix + ".pdmodel", _dumps((_FORMAT, pruned)))
    _write(path_prefix + ".pdiparams", pickle.dumps(_scope_values(names, fn), protocol=4))


def load_inference_model(path_prefix, executor, **kwargs):
    """``[program, feed_target_names, fetch_targets]`` saved by
    :func:`save_inference_model`; the parameters go into the global scope.

    >>> import os, tempfile, numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     y = paddle.nn.functional.relu(paddle.static.nn.fc(x, 1, name="lim_demo"))
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> prefix = os.path.join(tempfile.mkdtemp(), "model")
    >>> paddle.static.save_inference_model(prefix, [x], [y], exe, program=main)
    >>> program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    >>> feeds, [op.type for op in program.global_block().ops]
    (['x'], ['matmul', 'add', 'relu'])
    >>> paddle.disable_static()
    """
    fn = "load_inference_model"
    _path(path_prefix, fn, "path_prefix")
    if not isinstance(executor, Executor):
        raise TypeError(f"{fn}(): argument 'executor' must be an Executor, "
                        f"got {describe(executor)}")
    if not os.path.exists(path_prefix + ".pdmodel"):
        raise FileNotFoundError(f"{fn}(): no file {path_prefix + '.pdmodel'!r}")
    program = deserialize_program(load_from_file(path_prefix + ".pdmodel"))
    _assign(program, _read_state(path_prefix + ".pdiparams", fn), fn, strict=True)
    block = program.global_block()
    return [program, list(program._feed_names), [block.vars[n] for n in program._fetch_names]]
