"""``save`` and ``load`` in Paddle's checkpoint format, and copies of tensors.

The format is Paddle's: a pickle (protocol 4 by default) of

* a state dict (a dict whose values are all Tensors, or dicts without
  Tensors such as a scheduler's state) as a dict of key -> numpy array plus
  ``"StructuredToParameterName@@"``, a dict of key -> the tensor's name;
* anything else (a Tensor, nested lists, tuples and dicts) as it is, each
  Tensor written as the tuple ``(name, numpy array)``;

or, for one Tensor saved with ``use_binary_format=True``, Paddle's binary
tensor file (:mod:`pylayer.framework._tensor_file`). So a ``.pdparams``
written by :func:`save` loads with Paddle's ``paddle.load`` and the other
way round. :func:`load` treats a file as untrusted input: its reader
(:mod:`pylayer.framework._reader`) rebuilds numpy arrays of pylayer's dtypes,
numbers, strings and plain containers only, checking each array against the
bytes present before making it, and never runs code from the file.

Files are written atomically (:mod:`pylayer.framework._files`): a killed
save leaves the previous file whole. :func:`async_save` encodes at once and
writes in a background thread; :func:`clear_async_save_task_queue` and
:func:`load` wait for those writes, and writes to one path land in call
order.

Tensors and Parameters also support ``copy.copy``, ``copy.deepcopy`` and
``pickle``: the copy keeps the values, dtype, ``stop_gradient``, name and
attributes (a Parameter's ``optimize_attr``, ...), not the gradient or the
graph; no copy shares data with the original.
"""
import copyreg
from typing import Any
import io
import os
import pickle
import threading
import warnings

import numpy as np

from pylayer.extend import Tensor, make_tensor
from pylayer.framework import _files, _reader, _tensor_file
from pylayer.nn.layer import Layer
from pylayer.nn.param import Parameter
from pylayer.ops import dispatch

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue"]

NAME_TABLE_KEY = "StructuredToParameterName@@"

_SCALAR_TYPES = (type(None), bool, int, float, str, bytes)


# ------------------------------------------------------------------- copies
def _rebuild(cls, array, stop_gradient, name, attributes):
    tensor = cls.__new__(cls)
    Tensor.__init__(tensor, array, stop_gradient=stop_gradient)
    tensor.name = name
    tensor.__dict__.update(attributes)
    return tensor


def _reduce_tensor(tensor):
    """How copy and pickle rebuild a Tensor: data (copied, as Paddle's copy.copy does:
    the copy is a leaf of its own), flags and name; then the attributes, as the state
    set on the new tensor, so that an attribute leading back to the tensor (``t.me =
    t``, tied parameters) finds the copy in the memo instead of copying it again."""
    return (_rebuild, (type(tensor), tensor.numpy().copy(), tensor.stop_gradient, tensor.name,
                       {}), dict(tensor.__dict__) or None)


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


def _savable_dtype(dtype):
    return dtype.str[1:] in _reader.DTYPES


def _check_savable(value, fn, where=""):
    """Refuse what Paddle's format cannot hold, or what load would not read back."""
    if isinstance(value, (Tensor, *_SCALAR_TYPES)):
        return
    place = where or "the top level"
    if isinstance(value, (np.ndarray, np.generic)):
        if not _savable_dtype(value.dtype):
            raise TypeError(f"{fn}(): argument 'obj' holds numpy data of dtype {value.dtype} "
                            f"at {place}; only {', '.join(_reader.DTYPES.values())} data can "
                            f"be saved")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _check_savable(key, fn, f"{place} (a key)")
            _check_savable(item, fn, f"{where}[{key!r}]")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_savable(item, fn, f"{where}[{i}]")
        return
    if isinstance(value, Layer):
        raise ValueError(f"{fn}(): argument 'obj' holds a Layer ({type(value).__name__}) at "
                         f"{place}; a Layer cannot be saved, save its state_dict() instead")
    hint = "; save its state_dict() instead" if hasattr(value, "state_dict") else ""
    raise TypeError(f"{fn}(): argument 'obj' holds a {type(value).__name__} at {place}, "
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


def _encode(obj, protocol, use_binary_format, fn):
    """The bytes of the file that holds ``obj``."""
    if not isinstance(protocol, int) or isinstance(protocol, bool) or not 1 < protocol < 5:
        raise ValueError(f"{fn}(): argument 'protocol' must be 2, 3 or 4 (Paddle's pickle "
                         f"protocols), got {protocol!r}")
    if use_binary_format:
        if not isinstance(obj, Tensor):
            raise NotImplementedError(f"{fn}(): use_binary_format=True writes one Tensor, got "
                                      f"{type(obj).__name__}")
        _check_savable(obj.numpy(), fn)
        return _tensor_file.encode(obj.numpy())
    _check_savable(obj, fn)
    payload = _state_dict_payload(obj) if _is_state_dict(obj) else obj
    buffer = io.BytesIO()
    _CheckpointPickler(buffer, protocol).dump(payload)
    return buffer.getvalue()


def _destination(path, fn):
    """A checked ``path``: a binary file object, or a file name."""
    if hasattr(path, "write"):
        return path
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{fn}(): argument 'path' must be a file name or a writable binary "
                         f"file object, got {type(path).__name__}")
    return _file_name(path, fn)


def _write(data, path):
    if hasattr(path, "write"):
        path.write(data)
    else:
        _files.write_atomically(path, data)


def _save_options(configs, fn):
    """``use_binary_format`` and ``pickle_protocol`` (Paddle's older name of
    ``protocol``) from the keyword arguments."""
    unknown = sorted(set(configs) - {"use_binary_format", "pickle_protocol"})
    if unknown:
        raise TypeError(f"{fn}(): unexpected keyword argument(s) {unknown}; pylayer.{fn} "
                        f"accepts protocol, use_binary_format and pickle_protocol")
    binary = configs.get("use_binary_format", False)
    if not isinstance(binary, bool):
        raise TypeError(f"{fn}(): argument 'use_binary_format' must be a bool, got "
                        f"{type(binary).__name__}")
    protocol = configs.get("pickle_protocol")
    if protocol is not None:
        warnings.warn(f"{fn}(): 'pickle_protocol' is Paddle's older name of 'protocol'; "
                      f"pass protocol={protocol!r}", DeprecationWarning, stacklevel=3)
    return binary, protocol


def save(obj: Any, path: Any, protocol: int = 4, **configs: Any) -> None:
    """Write ``obj`` to ``path`` in Paddle's checkpoint format.

    ``obj`` is a Tensor, a state dict (``layer.state_dict()``,
    ``optimizer.state_dict()``), or lists, tuples and dicts of Tensors,
    numpy arrays, numbers and strings. ``path`` is a file name (missing
    directories are made; ``.pdparams`` and ``.pdopt`` are the usual
    endings) or a writable binary file object. ``protocol`` is the pickle
    protocol, 2 to 4 as in Paddle (``pickle_protocol=``, Paddle's older
    name, also works). ``use_binary_format=True`` writes one Tensor in
    Paddle's binary tensor format instead of a pickle. The file is written
    only when the whole object could be encoded, and atomically: the data
    goes to a temporary file in the same directory, is flushed to disk,
    then replaces ``path``, so a crash or a kill at any moment leaves the
    previous checkpoint or the new one, never a truncated file. A pending
    :func:`async_save` to the same path is waited for first, so the file
    holds what was saved last.

    >>> import os, tempfile
    >>> import pylayer as paddle
    >>> model = paddle.nn.Linear(2, 1)
    >>> path = os.path.join(tempfile.mkdtemp(), "ckpt", "linear.pdparams")
    >>> paddle.save(model.state_dict(), path)
    >>> other = paddle.nn.Linear(2, 1)
    >>> other.set_state_dict(paddle.load(path))
    ([], [])
    >>> x = paddle.ones([1, 2])
    >>> bool((other(x) == model(x)).all())
    True
    """
    path = _destination(path, "save")
    binary, pickle_protocol = _save_options(configs, "save")
    protocol = protocol if pickle_protocol is None else pickle_protocol
    data = _encode(obj, protocol, binary, "save")
    _wait_for_async_writes_to(path)
    _write(data, path)


def _file_name(path, fn):
    path = os.fspath(path)
    if not path or os.path.basename(path) == "":
        raise ValueError(f"{fn}(): argument 'path' must name a file, got {path!r}")
    return path


# -------------------------------------------------------------- async save
_pending = []                # [(thread, path, [error or None])] of unfinished async saves
_latest = {}                 # destination -> the thread of its latest async save
_pending_lock = threading.Lock()


def _destination_key(path):
    """One key per destination: the real path of a file name (two names of one file
    are one destination), the identity of a file object."""
    return ("object", id(path)) if hasattr(path, "write") else os.path.realpath(path)


def _wait_for_async_writes_to(path):
    """Return once every :func:`async_save` to ``path`` made so far has written it, so
    that writes to one destination land in call order. Their errors are reported by
    :func:`clear_async_save_task_queue`, as ever."""
    with _pending_lock:
        latest = _latest.get(_destination_key(path))
    if latest is not None:
        latest.join()


def async_save(obj, path, protocol=4, sync_other_task=False, **configs):
    """Save ``obj`` (a Tensor or a state dict) as :func:`save` does, writing the file
    in a background thread.

    The values are those at the call: the object is encoded before this
    returns, so training may go on and change it. :func:`load` and
    :func:`clear_async_save_task_queue` wait for the writes (and raise the
    error of one that failed). ``sync_other_task=True`` first waits for the
    earlier ones. Saves to one path land in call order: this write waits
    for earlier async saves to the same path, and a later :func:`save` to
    it waits for this one. The file is written atomically, as by
    :func:`save`. Other keyword arguments are ignored with a warning, as in
    Paddle. Dynamic mode only.

    >>> import os, tempfile
    >>> import pylayer as paddle
    >>> w = paddle.to_tensor([1.0, 2.0])
    >>> path = os.path.join(tempfile.mkdtemp(), "w.pdparams")
    >>> paddle.async_save({"w": w}, path)
    >>> _ = w.set_value([5.0, 6.0])
    >>> paddle.load(path)["w"].numpy()
    array([1., 2.], dtype=float32)
    """
    if not dispatch.in_dynamic_mode():
        raise ValueError("async_save(): static mode is not supported; call it in dynamic "
                         "mode (pylayer.disable_static())")
    if not isinstance(obj, (dict, Tensor)):
        raise TypeError(f"async_save(): argument 'obj' must be a Tensor or a state dict, got "
                        f"{type(obj).__name__}")
    if configs:
        warnings.warn(f"async_save(): keyword arguments {sorted(configs)} are ignored",
                      UserWarning, stacklevel=2)
    path = _destination(path, "async_save")
    data = _encode(obj, protocol, False, "async_save")
    if sync_other_task:
        clear_async_save_task_queue()
    failure = []
    key = _destination_key(path)

    def write(earlier):
        try:
            if earlier is not None:     # the earlier async save to this path lands first
                earlier.join()
            _write(data, path)
        except BaseException as error:      # reported by the next wait
            failure.append(error)
        finally:
            with _pending_lock:
                if _latest.get(key) is threading.current_thread():
                    del _latest[key]

    with _pending_lock:
        thread = threading.Thread(target=write, args=(_latest.get(key),),
                                  name="pylayer.async_save", daemon=False)
        _latest[key] = thread
        _pending.append((thread, path, failure))
        thread.start()      # under the lock: no one joins it before it has started


def clear_async_save_task_queue():
    """Wait until every :func:`async_save` has written its file.

    Raises ``RuntimeError`` (from the original error) if one of them failed.

    >>> import io, pylayer as paddle
    >>> buffer = io.BytesIO()
    >>> paddle.async_save(paddle.ones([1]), buffer)
    >>> paddle.clear_async_save_task_queue()
    >>> buffer.getvalue()[:2]
    b'\\x80\\x04'
    """
    with _pending_lock:
        tasks, _pending[:] = list(_pending), []
    failed = []
    for thread, path, failure in tasks:
        thread.join()
        failed.extend((path, error) for error in failure)
    if failed:
        path, error = failed[0]
        where = repr(path) if isinstance(path, str) else "a file object"
        raise RuntimeError(f"async_save(): writing {where} failed: {error}") from error


# --------------------------------------------------------------------- load
def _name(name):
    return name if isinstance(name, str) else None


def _as_tensor(array, name, return_numpy):
    if return_numpy:
        return array
    tensor = make_tensor(array)
    if name is not None:
        tensor.name = name
    return tensor


class _Restored:
    """Tensors back from Paddle's ``(name, array)`` tuples and bare arrays, each
    container rebuilt once (shared and cyclic references stay so)."""

    def __init__(self, return_numpy):
        self.return_numpy = return_numpy
        self._done = {}

    def __call__(self, value):
        if id(value) in self._done:
            return self._done[id(value)][1]
        if isinstance(value, np.ndarray):
            result = _as_tensor(value, None, self.return_numpy)
        elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) \
                and isinstance(value[1], np.ndarray):
            result = _as_tensor(value[1], value[0], self.return_numpy)
        elif isinstance(value, list):
            result = []
            self._done[id(value)] = (value, result)
            result.extend(self(v) for v in value)
        elif isinstance(value, dict):
            result = type(value)()
            self._done[id(value)] = (value, result)
            result.update((k, self(v)) for k, v in value.items())
        elif isinstance(value, tuple):
            result = tuple(self(v) for v in value)
        else:
            return value
        self._done[id(value)] = (value, result)
        return result


def _read_all(path):
    """``(bytes, name for messages)`` of a file name or a readable binary file object."""
    if hasattr(path, "read"):
        data = path.read()
        if not isinstance(data, bytes):
            raise TypeError(f"load(): argument 'path' must be opened in binary mode, read "
                            f"gave {type(data).__name__}")
        name = getattr(path, "name", None)
        return data, repr(name) if isinstance(name, str) else "the file object"
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"load(): argument 'path' must be a file name or a binary file "
                        f"object, got {type(path).__name__}")
    path = _file_name(path, "load")
    if not os.path.isfile(path):
        raise ValueError(f"load(): argument 'path' names no file: {path!r}")
    with open(path, "rb") as f:
        return f.read(), repr(path)


def load(path: Any, **configs: Any) -> Any:
    """Read what :func:`save` (or Paddle's ``paddle.save``) wrote.

    Tensors come back as Tensors with their saved names and
    ``stop_gradient=True`` (numpy arrays with ``return_numpy=True``); a
    state dict loses its name table unless ``keep_name_table=True``. Give
    the result to ``layer.set_state_dict`` or ``optimizer.set_state_dict``.
    ``path`` is a file name or a readable binary file object. Pending
    :func:`async_save` writes are waited for first.

    The file is untrusted input: anything but numpy arrays of pylayer's
    dtypes, numbers, strings and plain containers, or an array whose shape
    does not match the bytes it holds, is refused with
    ``pickle.UnpicklingError`` naming the file, before it is built; nothing
    in the file is executed.

    >>> import io
    >>> import pylayer as paddle
    >>> buffer = io.BytesIO()
    >>> paddle.save([paddle.to_tensor([1, 2]), {"step": 3}], buffer)
    >>> _ = buffer.seek(0)
    >>> tensors, info = paddle.load(buffer)
    >>> tensors.numpy(), info
    (array([1, 2]), {'step': 3})
    """
    unknown = sorted(set(configs) - {"return_numpy", "keep_name_table"})
    if unknown:
        raise TypeError(f"load(): unexpected keyword argument(s) {unknown}; pylayer.load "
                        f"accepts return_numpy and keep_name_table")
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))
    clear_async_save_task_queue()
    data, source = _read_all(path)
    if data.startswith(_tensor_file.MAGIC):
        return _as_tensor(_tensor_file.decode(data, source), None, return_numpy)
    result = _reader.read(data, source)
    if isinstance(result, dict) and isinstance(result.get(NAME_TABLE_KEY), dict):
        names = result[NAME_TABLE_KEY]
        restored = {k: _as_tensor(v, _name(names.get(k)), return_numpy)
                    if isinstance(v, np.ndarray) else v
                    for k, v in result.items() if k != NAME_TABLE_KEY}
        if keep_name_table:
            restored[NAME_TABLE_KEY] = names
        return restored
    return _Restored(return_numpy)(result)
