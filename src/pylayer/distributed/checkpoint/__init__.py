"""The distributed checkpoint: :func:`save_state_dict` and :func:`load_state_dict`
(Paddle's ``paddle.distributed.save_state_dict``/``load_state_dict``).

A checkpoint is a directory, laid out as Paddle's:

* ``{rank}_{id}.distcp``, one per process that has tensors to write: a pickled
  dict ``{key: numpy array}`` of the tensors that process saved;
* ``{id}.metadata``, written by the coordinator: a pickled dict
  ``{"format": "pylayer-distcp", "version": 1, "tensors": {key: {"shape": [...],
  "dtype": "float32", "file": "0_0.distcp"}}}``.

``id`` is the ``unique_id`` of the save. Keys are those of the state dict, nested
dicts flattened with dots (``{"model": {"w": t}}`` gives ``"model.w"``). In a world
of several processes each tensor is taken as replicated (DataParallel's parameters
and optimizer states): every key is written once, by one process, the keys spread
over the processes in turn, so that they write in parallel. Every file is written
atomically (a temporary file renamed), and the save returns once every process has
written. Loading reads, in every process, the files that hold its keys (a
filesystem that every process sees, as for Paddle's checkpoints).

The files are pylayer's: Paddle's ``.metadata`` pickles classes of Paddle's own, so
neither library reads the other's checkpoint (``pylayer.save``/``load`` exchange
``.pdparams`` with Paddle).
"""
import os
import pickle
import re

import numpy as np

from pylayer import Tensor
from pylayer.distributed import _env as env
from pylayer.distributed._collective import all_gather_object, broadcast_object_list
from pylayer.extend import write_atomically

__all__ = ["save_state_dict", "load_state_dict"]

_FORMAT = "pylayer-distcp"


def _flat(state_dict, what):
    if not isinstance(state_dict, dict):
        raise TypeError(f"{what}: argument 'state_dict' (position 1) must be a dict of "
                        f"Tensors, got {type(state_dict).__name__}")
    flat = {}

    def walk(prefix, value):
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise TypeError(f"{what}: argument 'state_dict' has the key {key!r}; "
                                    f"keys must be str")
                walk(prefix + (key,), item)
        elif isinstance(value, Tensor):
            flat[".".join(prefix)] = value
        else:
            raise TypeError(f"{what}: argument 'state_dict' holds a "
                            f"{type(value).__name__} at {'.'.join(prefix)!r}; values must "
                            f"be Tensors or dicts of them")
    walk((), state_dict)
    return flat


def _path(path, what):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what}: argument 'path' (position 2) must be a directory name, got "
                        f"{type(path).__name__}")
    return os.fspath(path)


def _ids(path):
    pattern = re.compile(r"^(\d+)\.metadata$")
    return [int(m.group(1)) for m in map(pattern.match, os.listdir(path)) if m]


def _group(process_group, coordinator_rank, unique_id, what):
    group = env._check_group(process_group, what) if (
        process_group is not None or env.is_initialized()) else None
    n = group.nranks if group is not None else 1
    if isinstance(coordinator_rank, bool) or not isinstance(coordinator_rank, int) or \
            not 0 <= coordinator_rank < n:
        raise ValueError(f"{what}: argument 'coordinator_rank' must be a rank of the group "
                         f"(0 to {n - 1}), got {coordinator_rank!r}")
    if unique_id is not None and (isinstance(unique_id, bool) or not isinstance(unique_id, int)
                                  or unique_id < 0):
        raise ValueError(f"{what}: argument 'unique_id' must be a non-negative int or None, "
                         f"got {unique_id!r}")
    return group


def _flag(value, what, argument, allowed=(False, True)):
    if not isinstance(value, bool) or value not in allowed:
        raise ValueError(f"{what}: argument '{argument}' must be "
                         f"{' or '.join(map(str, allowed))}, got {value!r}")


def save_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None,
                    async_save=False, safetensors=False, save_replicas=False):
    """Save ``state_dict`` (a dict of Tensors, possibly nested) as a distributed
    checkpoint in the directory ``path`` (made if missing), in the layout described
    above; every process of ``process_group`` (the world by default) calls it.
    ``unique_id`` None takes the highest id already in ``path`` (0 in a new
    directory), so that a save replaces the latest one, as Paddle 3.3.1 does.
    ``async_save`` writes before returning all the same; ``save_replicas=True``
    has each process write every key. pylayer writes its own format:
    ``safetensors=True`` is refused.

    >>> import os, tempfile, pylayer, pylayer.distributed as dist
    >>> path = tempfile.mkdtemp()
    >>> dist.save_state_dict(pylayer.nn.Linear(2, 3).state_dict(), path)
    >>> sorted(os.listdir(path))
    ['0.metadata', '0_0.distcp']
    """
    what = "save_state_dict()"
    flat = _flat(state_dict, what)
    path = _path(path, what)
    group = _group(process_group, coordinator_rank, unique_id, what)
    _flag(async_save, what, "async_save")
    _flag(save_replicas, what, "save_replicas")
    _flag(safetensors, what, "safetensors", (False,))
    if group is not None and not group.is_member():
        return
    rank, n = (group.rank, group.nranks) if group is not None else (0, 1)
    if rank == coordinator_rank:
        os.makedirs(path, exist_ok=True)
    if unique_id is None:
        ids = _ids(path) if rank == coordinator_rank else None
        unique_id = max(ids, default=0) if ids is not None else None
        if n > 1:
            box = [unique_id]
            broadcast_object_list(box, src=group.ranks[coordinator_rank], group=group)
            unique_id = box[0]
    keys = sorted(flat)
    mine = keys if save_replicas else [k for i, k in enumerate(keys) if i % n == rank]
    name = f"{rank}_{unique_id}.distcp"
    layout = {}
    if mine:
        arrays = {k: np.ascontiguousarray(flat[k].numpy()) for k in mine}
        write_atomically(os.path.join(path, name), pickle.dumps(arrays, protocol=4))
        layout = {k: {"shape": list(a.shape), "dtype": flat[k].dtype.name, "file": name}
                  for k, a in arrays.items()}
    layouts = [layout]
    if n > 1:
        layouts = []
        all_gather_object(layouts, layout, group=group)
    if rank == coordinator_rank:
        tensors = {}
        for part in layouts:
            for key, entry in part.items():
                tensors.setdefault(key, entry)
        metadata = {"format": _FORMAT, "version": 1, "tensors": tensors}
        write_atomically(os.path.join(path, f"{unique_id}.metadata"),
                         pickle.dumps(metadata, protocol=4))
    if n > 1:
        env.barrier(group)


def load_state_dict(state_dict, path, process_group=None, coordinator_rank=0, unique_id=None,
                    offload=False, mw_name_compatibility=True, aoa_config=None,
                    safetensors=False, worker_groups=None, comm_method="broadcast"):
    """Load the distributed checkpoint in ``path`` (the one of ``unique_id``; the
    highest id by default) into the Tensors of ``state_dict``, in place (each keeps
    its dtype; the values are cast). Every key of ``state_dict`` must be in the
    checkpoint (a ``KeyError`` names those missing) with the same shape (else a
    ``ValueError``); keys of the checkpoint that ``state_dict`` lacks are left
    alone. ``offload``, ``mw_name_compatibility``, ``worker_groups`` and
    ``comm_method`` concern Paddle's devices and resharding and change nothing
    here; ``aoa_config`` (renaming rules) and ``safetensors=True`` are refused.

    >>> import tempfile, pylayer, pylayer.distributed as dist
    >>> path = tempfile.mkdtemp()
    >>> saved = pylayer.nn.Linear(2, 3)
    >>> dist.save_state_dict({"model": saved.state_dict()}, path)
    >>> fresh = pylayer.nn.Linear(2, 3)
    >>> dist.load_state_dict({"model": fresh.state_dict()}, path)
    >>> bool((fresh.weight == saved.weight).all())
    True
    """
    what = "load_state_dict()"
    flat = _flat(state_dict, what)
    path = _path(path, what)
    group = _group(process_group, coordinator_rank, unique_id, what)
    _flag(offload, what, "offload")
    _flag(mw_name_compatibility, what, "mw_name_compatibility")
    _flag(safetensors, what, "safetensors", (False,))
    if aoa_config is not None:
        raise ValueError(f"{what}: argument 'aoa_config' (renaming rules of Paddle's "
                         f"resharding) is not supported; pass None")
    if comm_method not in ("broadcast", "send_recv", "multi_group_broadcast", "grouped_send_recv"):
        raise ValueError(f"{what}: argument 'comm_method' must be one of Paddle's methods "
                         f"('broadcast', 'send_recv', ...), got {comm_method!r}")
    if group is not None and not group.is_member():
        return
    if not os.path.isdir(path):
        raise FileNotFoundError(f"{what}: the checkpoint directory {path!r} does not exist")
    if unique_id is None:
        unique_id = max(_ids(path), default=None)
        if unique_id is None:
            raise FileNotFoundError(f"{what}: {path!r} holds no checkpoint (no "
                                    f"<id>.metadata file)")
    try:
        with open(os.path.join(path, f"{unique_id}.metadata"), "rb") as stream:
            metadata = pickle.load(stream)
    except FileNotFoundError:
        raise FileNotFoundError(f"{what}: {path!r} holds no checkpoint of unique_id "
                                f"{unique_id}") from None
    if not isinstance(metadata, dict) or metadata.get("format") != _FORMAT:
        raise ValueError(f"{what}: {path!r} is not a pylayer checkpoint (a checkpoint that "
                         f"Paddle wrote cannot be read: load it in Paddle)")
    tensors = metadata["tensors"]
    missing = sorted(k for k in flat if k not in tensors)
    if missing:
        raise KeyError(f"{what}: the keys {missing} are not in the checkpoint {path!r}")
    for key, tensor in flat.items():
        if list(tensor.shape) != tensors[key]["shape"]:
            raise ValueError(f"{what}: {key!r} has the shape {tensor.shape} in 'state_dict' "
                             f"but {tensors[key]['shape']} in the checkpoint")
    files = {}
    for key, tensor in flat.items():
        name = tensors[key]["file"]
        if name not in files:
            with open(os.path.join(path, name), "rb") as stream:
                files[name] = pickle.load(stream)
        array = files[name][key]
        tensor._set_array_inplace(array.astype(tensor.numpy().dtype, copy=False))
