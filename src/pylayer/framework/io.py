"""``save`` and ``load`` in Paddle's checkpoint format, and copies of tensors.

The format is Paddle's: a pickle (protocol 4 by default) of

* a state dict (a dict whose values are all Tensors, or dicts without
  Tensors such as a scheduler's state) as a dict of key -> numpy array plus
  ``"StructuredToParameterName@@"``, a dict of key -> the tensor's name;
* anything else (a Tensor, nested lists, tuples and dicts) as it is, each
  Tensor written as the tuple ``(name, numpy array)``.

So a ``.pdparams`` written by :func:`save` loads with Paddle's
``paddle.load`` and the other way round. :func:`load` never runs code from
the file: its unpickler rebuilds numpy arrays, numbers, strings and plain
containers only, and refuses any other object the file names.

Tensors and Parameters also support ``copy.copy``, ``copy.deepcopy`` and
``pickle``: the copy keeps the values, dtype, ``stop_gradient``, name and
attributes (a Parameter's ``optimize_attr``, ...), not the gradient or the
graph; no copy shares data with the original.
"""
import copyreg
import io
import os
import pickle

import numpy as np

from pylayer._tensor import Tensor, make_tensor
from pylayer.nn.param import Parameter

__all__ = ["save", "load"]

NAME_TABLE_KEY = "StructuredToParameterName@@"

# What a checkpoint may name: numpy's array and scalar reconstructors (numpy
# 1 and 2 spellings), dtypes, and plain containers.
_ALLOWED_GLOBALS = {
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
    ("numpy._core.numeric", "_frombuffer"), ("numpy.core.numeric", "_frombuffer"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("collections", "OrderedDict"), ("builtins", "tuple"), ("builtins", "list"),
    ("builtins", "dict"), ("builtins", "set"), ("builtins", "frozenset"),
    ("_codecs", "encode"),      # bytes in protocol-2 pickles
}
_ARRAY_KINDS = "biuf"          # bool, integers, floats: what a Tensor holds
_SCALAR_TYPES = (type(None), bool, int, float, str, bytes, np.number, np.bool_)


# ------------------------------------------------------------------- copies
def _rebuild(cls, array, stop_gradient, name, attributes):
    tensor = cls.__new__(cls)
    Tensor.__init__(tensor, array, stop_gradient=stop_gradient)
    tensor.name = name
    tensor.__dict__.update(attributes)
    return tensor


def _reduce_tensor(tensor):
    """How copy and pickle rebuild a Tensor: data (copied, as Paddle's copy.copy does:
    the copy is a leaf of its own), flags, name and attributes."""
    return _rebuild, (type(tensor), tensor.numpy().copy(), tensor.stop_gradient, tensor.name,
                      dict(tensor.__dict__))


copyreg.pickle(Tensor, _reduce_tensor)
copyreg.pickle(Parameter, _reduce_tensor)


# --------------------------------------------------------------------- save
def _is_state_dict(obj):
    """Paddle's test: a dict whose values are Tensors or dicts holding no Tensor."""
    if not isinstance(obj, dict):
        return False
    for value in obj.values():
        if isinstance(value, dict):
            if _holds_tensor(value):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


def _holds_tensor(value):
    if isinstance(value, Tensor):
        return True
    if isinstance(value, dict):
        return any(_holds_tensor(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_tensor(v) for v in value)
    return False


def _check_savable(value, where):
    """Refuse what Paddle's format cannot hold (layers, optimizers, functions...)."""
    if isinstance(value, (Tensor, *_SCALAR_TYPES)):
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _ARRAY_KINDS:
            raise TypeError(f"save(): argument 'obj' holds a numpy array of dtype "
                            f"{value.dtype} at {where}; only bool, integer and float arrays "
                            f"can be saved")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _check_savable(key, f"{where} (a key)")
            _check_savable(item, f"{where}[{key!r}]")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_savable(item, f"{where}[{i}]")
        return
    hint = "; save its state_dict() instead" if hasattr(value, "state_dict") else ""
    raise TypeError(f"save(): argument 'obj' holds a {type(value).__name__} at {where}, "
                    f"which cannot be saved: only Tensors, numpy arrays, numbers, strings "
                    f"and lists, tuples and dicts of them can{hint}")


def _state_dict_payload(state_dict):
    payload, names = {}, {}
    for key, value in state_dict.items():
        if isinstance(value, Tensor):
            payload[key] = np.asarray(value.numpy())
            names[key] = value.name
        else:
            payload[key] = value
    payload[NAME_TABLE_KEY] = names
    return payload


class _CheckpointPickler(pickle.Pickler):
    """Writes every Tensor as Paddle does: the tuple ``(name, array)``."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return tuple, ((obj.name, np.asarray(obj.numpy())),)
        return NotImplemented


def save(obj, path, protocol=4, **configs):
    """Write ``obj`` to ``path`` in Paddle's checkpoint format.

    ``obj`` is a Tensor, a state dict (``layer.state_dict()``,
    ``optimizer.state_dict()``), or lists, tuples and dicts of Tensors,
    numpy arrays, numbers and strings. ``path`` is a file name (missing
    directories are made; ``.pdparams`` and ``.pdopt`` are the usual
    endings) or a writable binary file object. ``protocol`` is the pickle
    protocol, 2 to 4 as in Paddle. The file is written only when the whole
    object could be encoded.

    >>> import os, tempfile, pylayer as paddle
    >>> model = paddle.nn.Linear(2, 1)
    >>> path = os.path.join(tempfile.mkdtemp(), "linear.pdparams")
    >>> paddle.save(model.state_dict(), path)
    >>> sorted(paddle.load(path))
    ['bias', 'weight']
    """
    if configs:
        raise TypeError(f"save(): unexpected keyword argument(s) {sorted(configs)}")
    if not isinstance(protocol, int) or isinstance(protocol, bool) or not 1 < protocol < 5:
        raise ValueError(f"save(): argument 'protocol' must be 2, 3 or 4 (Paddle's pickle "
                         f"protocols), got {protocol!r}")
    _check_savable(obj, "the top level")
    payload = _state_dict_payload(obj) if _is_state_dict(obj) else obj
    buffer = io.BytesIO()
    _CheckpointPickler(buffer, protocol).dump(payload)
    if hasattr(path, "write"):
        path.write(buffer.getvalue())
        return
    path = _file_name(path, "save")
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "wb") as f:
        f.write(buffer.getvalue())


def _file_name(path, fn):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{fn}(): argument 'path' must be a file name or a binary file "
                        f"object, got {type(path).__name__}")
    path = os.fspath(path)
    if not path or os.path.basename(path) == "":
        raise ValueError(f"{fn}(): argument 'path' must name a file, got {path!r}")
    return path


# --------------------------------------------------------------------- load
class _RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that can only rebuild arrays, numbers, strings and containers."""

    def find_class(self, module, name):
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"load(): the file asks for {module}.{name}, which a checkpoint does not need; "
            f"pylayer.load only rebuilds numpy arrays, numbers, strings and lists, tuples "
            f"and dicts, and never runs code from a file")


def _check_arrays(value):
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _ARRAY_KINDS:
            raise pickle.UnpicklingError(f"load(): the file holds an array of dtype "
                                         f"{value.dtype}; a checkpoint holds bool, integer "
                                         f"and float arrays only")
    elif isinstance(value, dict):
        for item in value.values():
            _check_arrays(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _check_arrays(item)


def _as_tensor(array, name, return_numpy):
    if return_numpy:
        return array
    tensor = make_tensor(array)
    if name is not None:
        tensor.name = name
    return tensor


def _restore(value, return_numpy):
    """Tensors back from Paddle's ``(name, array)`` tuples and bare arrays."""
    if isinstance(value, np.ndarray):
        return _as_tensor(value, None, return_numpy)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) \
            and isinstance(value[1], np.ndarray):
        return _as_tensor(value[1], value[0], return_numpy)
    if isinstance(value, dict):
        return type(value)((k, _restore(v, return_numpy)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_restore(v, return_numpy) for v in value)
    return value


def load(path, **configs):
    """Read what :func:`save` (or Paddle's ``paddle.save``) wrote.

    Tensors come back as Tensors with their saved names and
    ``stop_gradient=True`` (numpy arrays with ``return_numpy=True``); a
    state dict loses its name table unless ``keep_name_table=True``. Give
    the result to ``layer.set_state_dict`` or ``optimizer.set_state_dict``.
    ``path`` is a file name or a readable binary file object.

    Nothing in the file is executed: anything other than numpy arrays,
    numbers, strings and plain containers is refused with
    ``pickle.UnpicklingError``.

    >>> import io, pylayer as paddle
    >>> buffer = io.BytesIO()
    >>> paddle.save({"w": paddle.to_tensor([1.0, 2.0])}, buffer)
    >>> _ = buffer.seek(0)
    >>> paddle.load(buffer)["w"].numpy()
    array([1., 2.], dtype=float32)
    """
    unknown = sorted(set(configs) - {"return_numpy", "keep_name_table"})
    if unknown:
        raise TypeError(f"load(): unexpected keyword argument(s) {unknown}; pylayer.load "
                        f"accepts return_numpy and keep_name_table")
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))
    if hasattr(path, "read"):
        result = _RestrictedUnpickler(path).load()
    else:
        path = _file_name(path, "load")
        if not os.path.isfile(path):
            raise ValueError(f"load(): argument 'path' names no file: {path!r}")
        with open(path, "rb") as f:
            result = _RestrictedUnpickler(f).load()
    _check_arrays(result)
    if isinstance(result, dict) and isinstance(result.get(NAME_TABLE_KEY), dict):
        names = result[NAME_TABLE_KEY]
        restored = {k: _as_tensor(v, names.get(k), return_numpy)
                    if isinstance(v, np.ndarray) else v
                    for k, v in result.items() if k != NAME_TABLE_KEY}
        if keep_name_table:
            restored[NAME_TABLE_KEY] = names
        return restored
    return _restore(result, return_numpy)
