"""Data-parallel training (:class:`DataParallel`) and starting processes (:func:`spawn`)."""
import contextlib
import os
import pickle
import shutil
import subprocess
import sys

import pylayer
from pylayer.distributed import _env as env
from pylayer.distributed._collective import all_reduce, broadcast
from pylayer.distributed._env import ReduceOp
from pylayer.nn import Layer

__all__ = ["DataParallel", "spawn"]


class DataParallel(Layer):
    """Run ``layers`` in every process on its own part of the batch, with the gradients
    averaged over the processes during backward, so that each process's optimizer step
    is the one of the whole batch.

    Built in every process, it first copies rank 0's parameters and buffers to the
    others. In backward each parameter's gradient is all-reduced (averaged) as it is
    computed; every process must run the same graph. Under :meth:`no_sync` the
    gradients accumulate in each process alone, and the first backward outside it
    averages what was accumulated. ``strategy``, ``comm_buffer_size``,
    ``last_comm_buffer_size`` and ``find_unused_parameters`` are accepted for Paddle's
    signature (a parameter that some processes leave unused must be unused in all).
    ``state_dict()`` is the wrapped layer's (Paddle's keys, no prefix). In a program of
    one process it needs no :func:`init_parallel_env`, as Paddle's.

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
        self.comm_buffer_size = comm_buffer_size
        self.last_comm_buffer_size = last_comm_buffer_size
        if group is None and not env.is_initialized() and env.get_world_size() == 1:
            self._group = None          # one process, as Paddle's without init_parallel_env
        else:
            self._group = env._check_group(group, "DataParallel()")
        self._grad_need_sync = True
        self._unsynced = set()
        self._handles = []
        if self._group is not None and self._group.nranks > 1:
            self._sync_params_buffers()
            for parameter in layers.parameters():
                if not parameter.stop_gradient:
                    self._handles.append(parameter.register_hook(self._hook_for(parameter)))

    def _sync_params_buffers(self):
        source = self._group.ranks[0]
        with pylayer.no_grad():
            for tensor in list(self._layers.parameters()) + list(self._layers.buffers()):
                broadcast(tensor, source, group=self._group)

    def _hook_for(self, parameter):
        def hook(grad):
            if not self._grad_need_sync:
                self._unsynced.add(id(parameter))
                return None
            with pylayer.no_grad():
                local = parameter.grad if id(parameter) in self._unsynced else None
                self._unsynced.discard(id(parameter))
                total = grad.clone() if local is None else grad + local
                all_reduce(total, ReduceOp.AVG if total.dtype.is_floating_point
                           else ReduceOp.SUM, group=self._group)
                # Accumulation adds the result to .grad, which holds the local part.
                return total if local is None else total - local
        return hook

    def forward(self, *inputs, **kwargs):
        return self._layers(*inputs, **kwargs)

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
        previous = self._grad_need_sync
        self._grad_need_sync = False
        try:
            yield
        finally:
            self._grad_need_sync = previous

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
