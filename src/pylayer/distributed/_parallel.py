"""Data-parallel training (:class:`DataParallel`) and starting processes (:func:`spawn`)."""
import contextlib
import os
import pickle
import shutil
import subprocess
import sys

import numpy as np

import pylayer
from pylayer import Tensor, to_tensor
from pylayer.autograd.functional import queue_callback
from pylayer.distributed import _env as env
from pylayer.distributed._collective import broadcast
from pylayer.nn import Layer

__all__ = ["DataParallel", "spawn"]


def _buckets(parameters, limits):
    """Paddle's grouping of the parameters into buckets (its ``assign_group_by_size``):
    in parameter order, per dtype, a bucket is closed once its gradients' bytes reach
    the limit, ``limits[0]`` for a dtype's first bucket and ``limits[1]`` after;
    the buckets sorted by their first parameter. Lists of indices."""
    buckets, open_ = [], {}
    for i, p in enumerate(parameters):
        dtype = p.numpy().dtype
        indices, size, which = open_.get(dtype, ([], 0, 0))
        indices.append(i)
        size += p.numpy().nbytes
        if size >= limits[which]:
            buckets.append(indices)
            indices, size, which = [], 0, min(which + 1, len(limits) - 1)
        open_[dtype] = (indices, size, which)
    buckets.extend(indices for indices, _, _ in open_.values() if indices)
    return sorted(buckets, key=lambda b: b[0])


def _reached_leaves(outputs):
    """The ids of the leaf tensors that the graphs of ``outputs`` reach."""
    seen, leaves = set(), set()
    stack = [t.grad_fn for t in outputs if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for child in node.next_nodes:
            if isinstance(child, Tensor):
                leaves.add(id(child))
            elif child is not None:
                stack.append(child)
    return leaves


def _tensors_in(value):
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _tensors_in(item)


class _Bucket:
    """Gradients reduced together: flattened into one buffer (float32 for float16 and
    bfloat16, which MPI cannot add) and all-reduced with one non-blocking call."""

    def __init__(self, indices, parameters):
        self.indices = indices
        dtype = parameters[indices[0]].numpy().dtype
        self.dtype = np.dtype(np.float32) if dtype.itemsize == 2 and dtype.kind not in "iu" \
            else np.dtype(np.uint8) if dtype == np.bool_ else dtype
        self.offsets = np.cumsum([0] + [parameters[i].numpy().size for i in indices]).tolist()
        self.buffer = np.empty(self.offsets[-1], self.dtype)
        self.pending = len(indices)
        self.request = None


class _Reducer:
    """The all-reduce of DataParallel's gradients in buckets, without waiting.

    The buckets are launched in a fixed order (the reverse of the parameters': the
    last layers' gradients are ready first), which every process follows, since MPI's
    collectives must be started in the same order everywhere; a bucket starts as
    soon as it and those before it are complete. Its gradients are copied into its
    buffer when their hooks run; at the end of backward (a callback of the engine)
    every reduction is waited for and the averages written into the ``.grad``."""

    def __init__(self, parameters, group, limits, find_unused, names):
        self.parameters = parameters
        self.names = names
        self.group = group
        self.find_unused = find_unused
        self.position = {id(p): i for i, p in enumerate(parameters)}
        self.buckets = [_Bucket(b, parameters) for b in reversed(_buckets(parameters, limits))]
        self.bucket_of = {}
        for k, bucket in enumerate(self.buckets):
            for slot, i in enumerate(bucket.indices):
                self.bucket_of[i] = (k, slot)
        self.unused = ()
        self.synchronise = True
        self._reset()

    def _reset(self):
        self.ready = [False] * len(self.parameters)
        for bucket in self.buckets:
            bucket.pending = len(bucket.indices)
            bucket.request = None
        self.next_bucket = 0
        self.in_flight = []
        self.running = False
        self.marked_unused = False

    def prepare(self, outputs):
        """Before a synchronised backward (from forward): with find_unused_parameters,
        the parameters that the outputs' graph does not reach."""
        self._reset()
        if self.find_unused:
            reached = _reached_leaves(list(_tensors_in(outputs)))
            self.unused = [i for i, p in enumerate(self.parameters) if id(p) not in reached]

    def hook_for(self, parameter):
        index = self.position[id(parameter)]

        def hook(grad):
            if not self.synchronise:
                return None                 # no_sync: the gradient accumulates locally
            if not self.running:
                if not queue_callback(self.finish):
                    return None             # a grad() pass: nothing to synchronise
                self.running = True
                if self.find_unused and not self.marked_unused:
                    self.marked_unused = True
                    for i in self.unused:
                        self.mark_ready(i, None)
            self.mark_ready(index, grad)
            return None
        return hook

    def mark_ready(self, index, grad):
        """Copy the parameter's whole gradient (what .grad will hold: this pass's
        ``grad`` added to what it has) into its bucket; start the buckets that are
        complete, in order."""
        if self.ready[index]:
            raise RuntimeError(
                f"DataParallel: the parameter {self.names[index]!r} received a gradient in "
                f"backward, but forward found it unused (find_unused_parameters=True): "
                f"compute the loss from the outputs of DataParallel's forward")
        self.ready[index] = True
        k, slot = self.bucket_of[index]
        bucket = self.buckets[k]
        part = bucket.buffer[bucket.offsets[slot]:bucket.offsets[slot + 1]]
        current = self.parameters[index].grad
        if grad is None and current is None:
            part[...] = 0
        elif grad is None:
            np.copyto(part, current.numpy().reshape(-1), casting="unsafe")
        else:
            np.copyto(part, grad.numpy().reshape(-1), casting="unsafe")
            if current is not None:
                part += current.numpy().reshape(-1)
        bucket.pending -= 1
        while self.next_bucket < len(self.buckets) and \
                self.buckets[self.next_bucket].pending == 0:
            self.launch(self.buckets[self.next_bucket])
            self.next_bucket += 1
        if self.in_flight and env._state.MPI.Request.Testall(self.in_flight):
            self.in_flight = []         # (MPI moves a reduction on inside its calls)

    def launch(self, bucket):
        MPI = env._state.MPI
        bucket.request = self.group.comm.Iallreduce(MPI.IN_PLACE, bucket.buffer, op=MPI.SUM)
        self.in_flight.append(bucket.request)

    def finish(self):
        """End of backward: the parameters left unmarked (unused) are marked with
        find_unused_parameters, else an error; every reduction is waited for and its
        average written into the gradients."""
        missing = [i for i, ready in enumerate(self.ready) if not ready]
        if missing and not self.find_unused:
            names = ", ".join(self.names[i] for i in missing)
            MPI = env._state.MPI
            MPI.Request.Waitall([b.request for b in self.buckets if b.request is not None])
            self._reset()
            raise RuntimeError(
                f"DataParallel: the parameters [{names}] took no part in computing the loss "
                f"of this backward, so their gradients cannot be all-reduced. Make sure "
                f"every trainable parameter is used in forward, or pass "
                f"find_unused_parameters=True to DataParallel (which finds them in every "
                f"step, at some cost)")
        for i in missing:
            self.mark_ready(i, None)
        MPI = env._state.MPI
        MPI.Request.Waitall([b.request for b in self.buckets])
        n = self.group.nranks
        for bucket in self.buckets:
            kind = bucket.dtype.kind
            if kind in "fc":
                np.divide(bucket.buffer, n, out=bucket.buffer)
            elif kind in "iu":
                np.floor_divide(bucket.buffer, n, out=bucket.buffer)
            for slot, i in enumerate(bucket.indices):
                parameter = self.parameters[i]
                values = bucket.buffer[bucket.offsets[slot]:bucket.offsets[slot + 1]]
                values = values.reshape(parameter.shape).astype(parameter.numpy().dtype,
                                                                copy=False)
                grad = parameter.grad
                if grad is None or not grad.numpy().flags.writeable:
                    parameter.grad = to_tensor(values)      # a copy: the buffer is reused
                else:
                    grad._set_array_inplace(values)         # written into its memory
        self._reset()


class DataParallel(Layer):
    """Run ``layers`` in every process on its own part of the batch, with the gradients
    averaged over the processes during backward, so that each process's optimizer step
    is the one of the whole batch.

    Built in every process, it first copies rank 0's parameters and buffers to the
    others. The trainable parameters' gradients are grouped into buckets, as
    Paddle's: in parameter order, per dtype, a bucket holds parameters until their
    size reaches ``comm_buffer_size`` megabytes (``last_comm_buffer_size`` for the
    first parameters', whose bucket is all-reduced last). Each bucket is flattened
    into one buffer and all-reduced with one non-blocking MPI call as soon as its
    gradients have reached their parameters, in the reverse of the parameters'
    order, while backward goes on (the engine hands a hooked parameter its gradient
    as soon as the nodes that feed it have run, so the last layers' buckets are
    reduced while the first layers' gradients are computed); backward returns once
    every bucket is averaged and written into the ``.grad``. Every process must run
    the same graph.

    A parameter that this step's graph does not reach is found in forward with
    ``find_unused_parameters=True`` (its gradient counts as zeros, or what it has
    accumulated); without it, backward raises a ``RuntimeError`` naming it. Under
    :meth:`no_sync` the gradients accumulate in each process alone, and the first
    backward outside it averages what was accumulated. Parameters with
    ``stop_gradient=True`` are left alone. ``state_dict()`` is the wrapped layer's
    (Paddle's keys, no prefix). In a program of one process it needs no
    :func:`init_parallel_env`, as Paddle's, and communicates nothing.

    >>> import pylayer, pylayer.distributed as dist
    >>> _ = dist.init_parallel_env()
    >>> model = dist.DataParallel(pylayer.nn.Linear(2, 1))
    >>> loss = model(pylayer.ones([4, 2])).mean()
    >>> loss.backward()
    >>> list(model.state_dict()), model.weight.grad.shape
    (['weight', 'bias'], [2, 1])
    """

    def __init__(self, layers, strategy=None, comm_buffer_size=25, last_comm_buffer_size=1,
                 find_unused_parameters=False, group=None):
        super().__init__()
        if not isinstance(layers, Layer):
            raise TypeError(f"DataParallel(): argument 'layers' (position 1) must be a Layer, "
                            f"got {type(layers).__name__}")
        for name, value in (("comm_buffer_size", comm_buffer_size),
                            ("last_comm_buffer_size", last_comm_buffer_size)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"DataParallel(): argument '{name}' must be a positive "
                                 f"number (megabytes), got {value!r}")
        if not isinstance(find_unused_parameters, bool):
            raise TypeError(f"DataParallel(): argument 'find_unused_parameters' must be a "
                            f"bool, got {type(find_unused_parameters).__name__}")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.comm_buffer_size = int(comm_buffer_size * 1024 * 1024)
        self.last_comm_buffer_size = int(last_comm_buffer_size * 1024 * 1024)
        if group is None and not env.is_initialized() and env.get_world_size() == 1:
            self._group = None          # one process, as Paddle's without init_parallel_env
        else:
            self._group = env._check_group(group, "DataParallel()")
        self.grad_need_sync = True
        self._reducer = None
        self._handles = []
        if self._group is not None and self._group.nranks > 1 and self._group.is_member():
            self._sync_params_buffers()
            named = [(n, p) for n, p in layers.named_parameters()
                     if not p.stop_gradient and not getattr(p, "no_sync", False)]
            if not named:
                raise ValueError("DataParallel(): the layer has no trainable parameter; it "
                                 "does not need DataParallel")
            self._reducer = _Reducer([p for _, p in named], self._group,
                                     [self.last_comm_buffer_size, self.comm_buffer_size],
                                     find_unused_parameters, [n for n, _ in named])
            for _, parameter in named:
                self._handles.append(parameter.register_hook(
                    self._reducer.hook_for(parameter)))

    def _sync_params_buffers(self):
        source = self._group.ranks[0]
        with pylayer.no_grad():
            for tensor in list(self._layers.parameters()) + list(self._layers.buffers()):
                broadcast(tensor, source, group=self._group)

    def forward(self, *inputs, **kwargs):
        outputs = self._layers(*inputs, **kwargs)
        if self._reducer is not None and pylayer.is_grad_enabled():
            if self.grad_need_sync:
                self._reducer.prepare(outputs)
            self._reducer.synchronise = self.grad_need_sync
        return outputs

    @contextlib.contextmanager
    def no_sync(self):
        """A context in which backward does not average gradients over the processes:
        they accumulate locally, and the next backward outside it averages them.

        >>> import pylayer, pylayer.distributed as dist
        >>> _ = dist.init_parallel_env()
        >>> model = dist.DataParallel(pylayer.nn.Linear(2, 1))
        >>> with model.no_sync():
        ...     model(pylayer.ones([1, 2])).sum().backward()
        >>> model.weight.grad.numpy().ravel().tolist()
        [1.0, 1.0]
        """
        previous = self.grad_need_sync
        self.grad_need_sync = False
        try:
            yield
        finally:
            self.grad_need_sync = previous

    def scale_loss(self, loss):
        """The loss as it is (gradients are averaged in backward, as in Paddle 2 and
        later).

        >>> import pylayer, pylayer.distributed as dist
        >>> _ = dist.init_parallel_env()
        >>> dist.DataParallel(pylayer.nn.Linear(1, 1)).scale_loss(pylayer.ones([1])).item()
        1.0
        """
        return loss

    def apply_collective_grads(self):
        """Nothing to do: backward has averaged the gradients already.

        >>> import pylayer, pylayer.distributed as dist
        >>> _ = dist.init_parallel_env()
        >>> dist.DataParallel(pylayer.nn.Linear(1, 1)).apply_collective_grads()
        """

    def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="",
                   use_hook=True):
        return self._layers.state_dict(destination, include_sublayers,
                                       structured_name_prefix, use_hook)

    def set_state_dict(self, state_dict, use_structured_name=True):
        return self._layers.set_state_dict(state_dict, use_structured_name)

    set_dict = set_state_dict
    load_dict = set_state_dict

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            layers = self.__dict__.get("_sub_layers", {}).get("_layers")
            if layers is None:
                raise
            return getattr(layers, name)


def _mpiexec():
    """The mpiexec beside this Python (the mpich wheel's), else the one on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.path.exists(here):
        return here
    found = shutil.which("mpiexec")
    if found is None:
        raise RuntimeError("pylayer.distributed: no mpiexec found beside this Python nor on "
                           "PATH; install the extra (pip install \"pylayer-autograd"
                           "[distributed]\"), which brings MPICH's mpiexec")
    return found


def spawn(func, args=(), nprocs=-1, join=True, daemon=False, **options):
    """Run ``func(*args)`` in ``nprocs`` processes that form a world (under
    ``mpiexec``): each process imports the module that defines ``func`` (which must be
    importable by name, a module-level function) and calls it after
    :func:`init_parallel_env`. ``nprocs=-1`` runs one process per CPU core. It
    returns a context whose ``join(timeout=None)`` waits for them (True once they
    have ended) and raises a ``RuntimeError`` when one failed; with ``join=True``
    (the default) spawn joins before returning. One process (``nprocs=1``) is this one: ``func`` runs here, in a world of one,
    and None is returned.

    >>> import pylayer.distributed as dist
    >>> dist.spawn(print, args=("rank", 0), nprocs=1)
    rank 0
    """
    if not callable(func):
        raise TypeError(f"spawn(): argument 'func' (position 1) must be callable, got "
                        f"{type(func).__name__}")
    if isinstance(nprocs, bool) or not isinstance(nprocs, int) or nprocs == 0 or nprocs < -1:
        raise ValueError(f"spawn(): argument 'nprocs' must be a positive int or -1, got "
                         f"{nprocs!r}")
    args = tuple(args)
    module = getattr(func, "__module__", None)
    qualname = getattr(func, "__qualname__", "")
    if module is None or "<" in qualname:
        raise ValueError("spawn(): argument 'func' must be a module-level function, which "
                         "each process can import by name")
    if nprocs == -1:
        nprocs = os.cpu_count() or 1
    if nprocs == 1:
        env.init_parallel_env()
        func(*args)
        return None
    search_path = list(sys.path)
    if module == "__main__":
        main = sys.modules["__main__"]
        path = getattr(main, "__file__", None)
        if path is None:
            raise ValueError("spawn(): 'func' is defined in an interactive session; define "
                             "it in a file")
        search_path.insert(0, os.path.dirname(os.path.abspath(path)))
        module = os.path.splitext(os.path.basename(path))[0]
    # The children import func's module by name, with this process's search path.
    payload = pickle.dumps((search_path, module, qualname, args)).hex()
    command = [_mpiexec(), "-n", str(nprocs), sys.executable, "-c",
               "import sys, pickle; p, m, q, a = pickle.loads(bytes.fromhex(sys.argv[1])); "
               "sys.path[:0] = [e for e in p if e not in sys.path]; "
               "import importlib, pylayer.distributed as d; d.init_parallel_env(); "
               "f = importlib.import_module(m)\nfor n in q.split('.'): f = getattr(f, n)\n"
               "f(*a)", payload]
    context = SpawnContext(subprocess.Popen(command), nprocs)
    if join:
        context.join()
    return context


class SpawnContext:
    """What :func:`spawn` returns (Paddle's ``MultiprocessContext``): ``join(timeout)``
    waits for the job, True when it has ended, and raises a ``RuntimeError`` when a
    process failed; ``processes`` holds the ``mpiexec`` process that runs them."""

    def __init__(self, process, nprocs):
        self.processes = [process]
        self.nprocs = nprocs

    def join(self, timeout=None):
        try:
            status = self.processes[0].wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        if status != 0:
            raise RuntimeError(f"spawn(): a process of the {self.nprocs} failed (exit status "
                               f"{status})")
        return True
