"""``pylayer.Model``: Paddle's high-level training API (``prepare``, ``fit``,
``evaluate``, ``predict``, the one-batch steps, ``save``/``load``, ``summary``)."""
import inspect
import numbers
import os
import warnings

import numpy as np

import pylayer
from pylayer import nn
from pylayer.extend import Summary, Tensor, check_int, check_str, settings_repr
from pylayer.hapi.callbacks import EarlyStopping, _callback_list
from pylayer.hapi.summary import summary
from pylayer.io import DataLoader, Dataset, DistributedBatchSampler
from pylayer.metric import Metric
from pylayer.optimizer import Optimizer

__all__ = ["Model"]


class _Spec:
    """The name, shape and dtype of one input, as Paddle's ``InputSpec`` holds them."""

    def __init__(self, name, shape, dtype="float32"):
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype

    def __repr__(self):
        return f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name})"


def _is_spec(value):
    return not isinstance(value, (Tensor, np.ndarray, list, tuple, dict)) and \
        all(hasattr(value, attr) for attr in ("name", "shape", "dtype"))


def _as_list(value):
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _batch(fn, arg, values, allow_none=False):
    """A batch's inputs or labels (a Tensor, an array or a list of them) as a list of Tensors."""
    if values is None and allow_none:
        return []
    if values is None:
        raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor, a numpy array or a list of "
                        f"them, got None")
    items = list(values) if isinstance(values, (list, tuple)) else [values]
    if not items and not allow_none:
        raise ValueError(f"{fn}(): argument '{arg}' must hold at least one Tensor or array, "
                         f"got an empty {type(values).__name__}")
    tensors = []
    for i, value in enumerate(items):
        if isinstance(value, Tensor):
            tensors.append(value)
            continue
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):
            array = None
        if array is None or array.dtype.kind not in "biufc":
            raise TypeError(f"{fn}(): argument '{arg}' must hold Tensors or numpy arrays of "
                            f"numbers, got {type(value).__name__} at index {i}")
        tensors.append(pylayer.to_tensor(array))
    return tensors


def _flatten(data):
    if isinstance(data, (list, tuple)):
        return [item for part in data for item in _flatten(part)]
    return [data]


def _numpy(value):
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _shapes_dtypes(inputs):
    """The shapes and dtypes of a batch's inputs (Tensors or arrays), or None."""
    items = list(inputs.values()) if isinstance(inputs, dict) else _as_list(inputs)
    if not items or not all(hasattr(item, "shape") and hasattr(item, "dtype") for item in items):
        return None
    return [list(item.shape) for item in items], [item.dtype for item in items]


def _forward_arguments(network):
    """The names of the positional parameters of ``network.forward`` (one, ``input``, for a
    forward that takes ``*inputs`` only)."""
    parameters = inspect.signature(network.forward).parameters.values()
    names = [p.name for p in parameters
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if not names and any(p.kind == p.VAR_POSITIONAL for p in parameters):
        names = ["input"]
    return names


class Model:
    """Wraps a network for Paddle's high-level training loop.

    ``inputs`` and ``labels`` (InputSpec-like objects with ``name``, ``shape``
    and ``dtype``, or None) say how many of each batch's fields are inputs: by
    default one per positional parameter of ``network.forward``, the rest being
    labels. :meth:`prepare` sets the optimizer, loss and metrics; :meth:`fit`,
    :meth:`evaluate` and :meth:`predict` run over a :class:`pylayer.io.Dataset`
    or a :class:`pylayer.io.DataLoader` with callbacks and Paddle's progress
    output.

    >>> import numpy as np
    >>> import pylayer
    >>> _ = pylayer.seed(0)
    >>> x = np.random.default_rng(0).normal(size=(32, 2)).astype("float32")
    >>> y = (x.sum(1, keepdims=True) > 0).astype("int64")
    >>> data = pylayer.io.TensorDataset([pylayer.to_tensor(x), pylayer.to_tensor(y)])
    >>> model = pylayer.Model(pylayer.nn.Linear(2, 2))
    >>> model.prepare(pylayer.optimizer.Adam(0.1, parameters=model.parameters()),
    ...               pylayer.nn.CrossEntropyLoss(), pylayer.metric.Accuracy())
    >>> model.fit(data, batch_size=8, epochs=3, verbose=0)
    >>> model.evaluate(data, batch_size=8, verbose=0)["acc"] > 0.8
    True
    """

    def __init__(self, network, inputs=None, labels=None):
        if not isinstance(network, nn.Layer):
            raise TypeError(f"Model(): argument 'network' must be a pylayer.nn.Layer, got "
                            f"{type(network).__name__}")
        self.mode = "train"
        self.network = network
        self._loss = None
        self._optimizer = None
        self._metrics = []
        self._input_info = None
        self._is_shape_inferred = False
        self._test_dataloader = None
        self._logs = {}
        self._accumulate = 1
        self.stop_training = False
        if inputs:
            self._input_info = _shapes_dtypes(inputs)
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)

    def __repr__(self):
        def named(obj, name):
            return None if obj is None else Summary(name)
        loss = self._loss
        loss_name = type(loss).__name__ if isinstance(loss, nn.Layer) else \
            getattr(loss, "__name__", type(loss).__name__)
        return settings_repr(self, {
            "network": named(self.network, type(self.network).__name__),
            "optimizer": named(self._optimizer, type(self._optimizer).__name__),
            "loss": named(loss, loss_name),
            "metrics": self._metrics_name()[1 if loss else 0:]})

    def _verify_spec(self, specs, shapes=None, dtypes=None, is_input=False):
        if specs is None and is_input:
            names = _forward_arguments(self.network)
            if shapes is not None:
                return [_Spec(n, shapes[i], dtypes[i]) for i, n in enumerate(names)]
            return [_Spec(n, [None]) for n in names]
        if isinstance(specs, dict):
            if is_input:
                raise TypeError("Model(): argument 'inputs' must be an InputSpec or a list of "
                                "them, got dict")
            specs = [specs[n] for n in _forward_arguments(self.network) if n in specs]
        out = _as_list(specs)
        which = "inputs" if is_input else "labels"
        for i, spec in enumerate(out):
            if not _is_spec(spec):
                raise TypeError(f"Model(): argument '{which}' must hold InputSpecs, got "
                                f"{type(spec).__name__} at index {i}")
            if spec.name is None:
                raise ValueError(f"Requires Input[{i}].name != None, but receive `None` with "
                                 f"{spec}.")
        return out

    def _update_inputs(self, info):
        if self._input_info is None and info is not None:
            self._input_info = info
            self._inputs = self._verify_spec(None, info[0], info[1], True)
            self._is_shape_inferred = True

    # ------------------------------------------------------------------ one batch
    def _update_metrics(self, outputs, labels):
        results = []
        for metric in self._metrics:
            computed = metric.compute(*(outputs + labels))
            results.append(metric.update(*[_numpy(m) for m in _as_list(computed)]))
        return results

    def train_batch(self, inputs, labels=None, update=True):
        """One training step on one batch: the forward, the loss, its backward and (when
        ``update``) the optimizer's step; the metrics are updated with the batch. Returns
        the list of losses (numpy arrays), with the metrics' batch values as a second
        element of a tuple when the model has metrics.

        >>> import numpy as np
        >>> import pylayer
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 1))
        >>> model.prepare(pylayer.optimizer.SGD(0.1, parameters=model.parameters()),
        ...               pylayer.nn.MSELoss())
        >>> loss = model.train_batch([np.ones((4, 2), "float32")], [np.zeros((4, 1), "float32")])
        >>> loss[0].shape, loss[0].dtype
        ((), dtype('float32'))
        """
        if self._optimizer is None or self._loss is None:
            raise RuntimeError("train_batch(): model not ready, please call `model.prepare()` "
                               "with an optimizer and a loss first")
        inputs = _batch("train_batch", "inputs", inputs)
        labels = _batch("train_batch", "labels", labels, allow_none=True)
        self.network.train()
        self.mode = "train"
        info = _shapes_dtypes(inputs)
        outputs = _as_list(self.network(*inputs))
        losses = _as_list(self._loss(*(outputs + labels)))
        total = pylayer.add_n(losses) if len(losses) > 1 else losses[0]
        total.backward()
        if update:
            self._optimizer.minimize(total)
            self.network.clear_gradients()
        metrics = self._update_metrics(outputs, labels)
        self._update_inputs(info)
        losses = [loss.numpy() for loss in losses]
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        """One evaluation step on one batch (no gradients): returns the losses (when the
        model has a loss) and the metrics' batch values, as ``train_batch`` does.

        >>> import numpy as np
        >>> import pylayer
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 1))
        >>> model.prepare(loss=pylayer.nn.MSELoss())
        >>> len(model.eval_batch([np.ones((4, 2), "float32")], [np.zeros((4, 1), "float32")]))
        1
        """
        inputs = _batch("eval_batch", "inputs", inputs)
        labels = _batch("eval_batch", "labels", labels, allow_none=True)
        self.network.eval()
        self.mode = "eval"
        info = _shapes_dtypes(inputs)
        with pylayer.no_grad():
            outputs = _as_list(self.network(*inputs))
            losses = _as_list(self._loss(*(outputs + labels))) if self._loss else []
            metrics = self._update_metrics(outputs, labels)
        self._update_inputs(info)
        losses = [loss.numpy() for loss in losses]
        if self._loss and metrics:
            return losses, metrics
        return losses if self._loss else metrics

    def predict_batch(self, inputs):
        """The network's outputs on one batch (eval mode, no gradients), as numpy arrays.

        >>> import numpy as np
        >>> import pylayer
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 3))
        >>> [out.shape for out in model.predict_batch([np.ones((4, 2), "float32")])]
        [(4, 3)]
        """
        inputs = _batch("predict_batch", "inputs", inputs)
        self.network.eval()
        self.mode = "test"
        info = _shapes_dtypes(inputs)
        with pylayer.no_grad():
            outputs = _as_list(self.network(*inputs))
        self._update_inputs(info)
        return [out.numpy() for out in outputs]

    # ------------------------------------------------------------------ saving
    def save(self, path, training=True):
        """Save the network's parameters as ``path.pdparams`` and the optimizer's state
        (when it has one) as ``path.pdopt`` (``training=True``). ``training=False`` asks for
        an inference model (Paddle's ``paddle.jit.save``), which pylayer cannot write yet:
        it raises ``NotImplementedError``.

        >>> import os, tempfile
        >>> import pylayer
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 1))
        >>> path = os.path.join(tempfile.mkdtemp(), "linear")
        >>> model.save(path)
        >>> os.path.exists(path + ".pdparams")
        True
        """
        check_str(path, "save", "path")
        if not os.path.basename(path):
            raise ValueError("save(): argument 'path' must be 'dirname/file_prefix' or "
                             f"'file_prefix', got {path!r} (an empty file prefix)")
        if not training:
            if self._input_info is None:
                raise RuntimeError(
                    "Saving inference model needs 'inputs' or running before saving. Please "
                    "specify 'inputs' in Model initialization or input training data and "
                    "perform a training for shape derivation.")
            raise NotImplementedError(
                "save(): training=False saves an inference model through paddle.jit.save, "
                "which pylayer does not have yet; save with training=True (path.pdparams, "
                "loadable with Model.load or pylayer.load) instead")
        pylayer.save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = self._optimizer.state_dict()
            if state:
                pylayer.save(state, path + ".pdopt")

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        """Load ``path.pdparams`` into the network by structured names (and ``path.pdopt``
        into the optimizer, unless ``reset_optimizer`` or there is none). A parameter
        missing from the file or of another shape raises ``ValueError``, or with
        ``skip_mismatch`` is skipped with a warning (and the optimizer state is then not
        loaded). ``path`` may end in ``.pdparams``, ``.pdopt`` or ``.pdmodel``.

        >>> import os, tempfile
        >>> import pylayer
        >>> path = os.path.join(tempfile.mkdtemp(), "linear")
        >>> pylayer.Model(pylayer.nn.Linear(2, 1)).save(path)
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 1))
        >>> model.load(path)
        """
        check_str(path, "load", "path")
        root, ext = os.path.splitext(path)
        if ext in (".pdparams", ".pdopt", ".pdmodel"):
            path = root
        elif ext:
            raise ValueError(f"load(): Unknown postfix {ext} from weights; argument 'path' "
                             f"must end in '', '.pdparams', '.pdopt' or '.pdmodel'")
        if not os.path.exists(path + ".pdparams"):
            raise ValueError(f"load(): argument 'path': Failed to load parameters, please check "
                             f"path: {path + '.pdparams'} does not exist")
        saved = pylayer.load(path + ".pdparams")
        pairs = []
        for key, param in self.network.state_dict().items():
            state = saved.get(key)
            if state is None:
                problem = f"{key} is not found in the providing file."
            elif list(state.shape) != list(param.shape):
                problem = (f"{key} receives a shape {list(state.shape)}, but the expected "
                           f"shape is {list(param.shape)}.")
            else:
                pairs.append((param, state))
                continue
            if not skip_mismatch:
                raise ValueError(problem)
            warnings.warn(f"Skip loading for {key}. " + problem)
            reset_optimizer = True
        optimizer_state = None
        if not reset_optimizer and self._optimizer is not None \
                and os.path.exists(path + ".pdopt"):
            optimizer_state = pylayer.load(path + ".pdopt")
        for param, state in pairs:
            param.set_value(state)
        if optimizer_state:
            self._optimizer.set_state_dict(optimizer_state)

    def parameters(self, *args, **kwargs):
        """The network's parameters (``network.parameters(...)``).

        >>> import pylayer
        >>> [p.shape for p in pylayer.Model(pylayer.nn.Linear(2, 3)).parameters()]
        [[2, 3], [3]]
        """
        return self.network.parameters(*args, **kwargs)

    # ------------------------------------------------------------------ preparing
    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Set the optimizer, the loss (a Layer or a callable taking the outputs then the
        labels) and the metrics (a :class:`pylayer.metric.Metric` or a list of them).
        ``amp_configs`` (mixed precision) may be None or ``'O0'``: pylayer's Model does not
        train in mixed precision yet, and other levels raise ``NotImplementedError``.

        >>> import pylayer
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 2))
        >>> model.prepare(pylayer.optimizer.SGD(parameters=model.parameters()),
        ...               pylayer.nn.CrossEntropyLoss(), pylayer.metric.Accuracy(topk=(1, 2)))
        >>> model._metrics_name()
        ['loss', 'acc_top1', 'acc_top2']
        """
        if optimizer is not None and not isinstance(optimizer, Optimizer):
            raise TypeError(f"prepare(): argument 'optimizer' must be a pylayer.optimizer."
                            f"Optimizer or None, got {type(optimizer).__name__}")
        if loss is not None and not isinstance(loss, nn.Layer) and not callable(loss):
            raise TypeError("prepare(): argument 'loss' must be sub classes of `paddle.nn.Layer` "
                            f"or any callable function, got {type(loss).__name__}")
        metrics = _as_list(metrics)
        for metric in metrics:
            if not isinstance(metric, Metric):
                raise TypeError(f"prepare(): argument 'metrics': {type(metric).__name__} is not "
                                f"sub class of Metric")
        level = self._amp_level(amp_configs)
        if level != "O0":
            raise NotImplementedError(
                f"prepare(): amp_configs level {level!r} is not supported: pylayer's Model does "
                "not train in mixed precision yet; pass amp_configs=None (or 'O0')")
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = metrics

    @staticmethod
    def _amp_level(amp_configs):
        if not amp_configs:
            return "O0"
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("prepare(): The level of amp_configs should be 'O0', 'O1' or "
                                 f"'O2', got {amp_configs!r}")
            return amp_configs
        if not isinstance(amp_configs, dict):
            raise TypeError(f"prepare(): argument 'amp_configs' must be a str, a dict or None, "
                            f"got {type(amp_configs).__name__}")
        level = amp_configs.get("level", "O1")
        if level not in ("O0", "O1", "O2"):
            raise ValueError(f"prepare(): amp_configs['level'] should be 'O0', 'O1' or 'O2', got "
                             f"{level!r}")
        return level

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for metric in self._metrics:
            names.extend(_as_list(metric.name()))
        return names

    # ------------------------------------------------------------------ loops
    def _loader(self, fn, arg, data, batch_size, num_workers, shuffle=False, drop_last=False):
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle,
                                              drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers,
                              return_list=True)
        if data is None or isinstance(data, (str, bytes, dict)) or not hasattr(data, "__iter__"):
            raise TypeError(f"{fn}(): argument '{arg}' must be a pylayer.io.Dataset or a "
                            f"DataLoader (an iterable of batches), got {type(data).__name__}")
        return data

    @staticmethod
    def _len(loader):
        try:
            return len(loader)
        except TypeError:
            return None

    def _run_one_epoch(self, loader, callbacks, mode):
        logs = self._logs
        outputs = []
        steps = self._len(loader)
        for step, data in enumerate(loader):
            data = _flatten(data)
            batch_size = data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                split = len(self._inputs)
                args = [data[:split], data[split:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == steps)
                outs = getattr(self, mode + "_batch")(*args)
                if self._metrics and self._loss:
                    values = [[float(loss) for loss in outs[0]]]
                elif self._loss:
                    values = [[float(loss) for loss in outs]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(_as_list(metric.accumulate()))
                logs.update(zip(self._metrics_name(), values))
            else:
                outputs.append(self.predict_batch(data[:len(self._inputs)]))
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == "predict" else logs

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1,
            log_freq=10, save_dir=None, save_freq=1, verbose=2, drop_last=False, shuffle=True,
            num_workers=0, callbacks=None, accumulate_grad_batches=1, num_iters=None):
        """Train for ``epochs`` epochs over ``train_data`` (a Dataset, batched with
        ``batch_size``, ``shuffle`` and ``drop_last``, or a DataLoader), evaluating on
        ``eval_data`` every ``eval_freq`` epochs. ``batch_size`` may be a pair (train, eval).
        ``verbose`` and ``log_freq`` set the progress output (see
        :class:`pylayer.callbacks.ProgBarLogger`); ``save_dir`` saves a checkpoint every
        ``save_freq`` epochs and a ``final`` one; ``accumulate_grad_batches`` steps the
        optimizer every that many batches; ``num_iters`` stops after that many steps.

        >>> import numpy as np
        >>> import pylayer
        >>> x = np.linspace(-1, 1, 8, dtype="float32").reshape(8, 1)
        >>> data = pylayer.io.TensorDataset([pylayer.to_tensor(x), pylayer.to_tensor(2 * x)])
        >>> model = pylayer.Model(pylayer.nn.Linear(1, 1))
        >>> model.prepare(pylayer.optimizer.SGD(0.1, parameters=model.parameters()),
        ...               pylayer.nn.MSELoss())
        >>> model.fit(data, batch_size=4, epochs=2, log_freq=1, shuffle=False)  # doctest: +ELLIPSIS
        The loss value printed in the log is the current step, and the metric is the average value of previous steps.
        Epoch 1/2
        step 1/2 - loss: ... - ...s/step
        step 2/2 - loss: ... - ...s/step
        Epoch 2/2
        step 1/2 - loss: ... - ...s/step
        step 2/2 - loss: ... - ...s/step
        """
        fn = "fit"
        if train_data is None:
            raise ValueError("fit(): train_data must be given!")
        if isinstance(batch_size, (list, tuple)):
            if len(batch_size) != 2:
                raise ValueError("fit(): batch_size length error, expected train_batch_size and "
                                 f"eval_batch_size, got {len(batch_size)} values")
            train_batch_size = check_int(batch_size[0], fn, "batch_size", minimum=1)
            eval_batch_size = check_int(batch_size[1], fn, "batch_size", minimum=1)
        else:
            train_batch_size = eval_batch_size = check_int(batch_size, fn, "batch_size",
                                                           minimum=1)
        epochs = check_int(epochs, fn, "epochs", minimum=1)
        eval_freq = check_int(eval_freq, fn, "eval_freq", minimum=1)
        log_freq = check_int(log_freq, fn, "log_freq", minimum=1)
        save_freq = check_int(save_freq, fn, "save_freq", minimum=1)
        verbose = check_int(verbose, fn, "verbose", minimum=0)
        num_workers = check_int(num_workers, fn, "num_workers", minimum=0)
        accumulate = check_int(accumulate_grad_batches, fn, "accumulate_grad_batches", minimum=1)
        num_iters = check_int(num_iters, fn, "num_iters", minimum=1, allow_none=True)
        check_str(save_dir, fn, "save_dir", allow_none=True)
        if self._optimizer is None or self._loss is None:
            raise RuntimeError("fit(): model not ready, please call `model.prepare()` with an "
                               "optimizer and a loss first")
        train_loader = self._loader(fn, "train_data", train_data, train_batch_size, num_workers,
                                    shuffle=bool(shuffle), drop_last=bool(drop_last))
        eval_loader = None if eval_data is None else \
            self._loader(fn, "eval_data", eval_data, eval_batch_size, num_workers)
        self._test_dataloader = eval_loader
        self._accumulate = accumulate
        steps = self._len(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and steps is not None:
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        callbacks = _callback_list(fn, callbacks, self, epochs=epochs, steps=steps,
                                   log_freq=log_freq, save_freq=save_freq, save_dir=save_dir,
                                   verbose=verbose, metrics=self._metrics_name())
        if eval_loader is None and any(isinstance(c, EarlyStopping) for c in callbacks):
            warnings.warn("EarlyStopping needs validation data.")
        callbacks.on_begin("train")
        logs = {}
        for epoch in range(epochs):
            callbacks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, callbacks, "train")
            callbacks.on_epoch_end(epoch, logs)
            if eval_loader is not None and epoch % eval_freq == 0:
                callbacks.on_begin("eval", {"steps": self._len(eval_loader),
                                            "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, callbacks, "eval")
                callbacks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        callbacks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0,
                 callbacks=None, num_iters=None):
        """Evaluate over ``eval_data`` (a Dataset or a DataLoader); return
        ``{'loss': [last batch's loss], <metric>: value}`` with the metrics accumulated
        over the data. ``num_iters`` stops after that many batches.

        >>> import numpy as np
        >>> import pylayer
        >>> x = np.ones((6, 2), "float32")
        >>> data = pylayer.io.TensorDataset([pylayer.to_tensor(x), pylayer.to_tensor(x[:, :1])])
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 1))
        >>> model.prepare(loss=pylayer.nn.MSELoss())
        >>> sorted(model.evaluate(data, batch_size=3, verbose=0))
        ['loss']
        """
        fn = "evaluate"
        batch_size = check_int(batch_size, fn, "batch_size", minimum=1)
        log_freq = check_int(log_freq, fn, "log_freq", minimum=1)
        verbose = check_int(verbose, fn, "verbose", minimum=0)
        num_workers = check_int(num_workers, fn, "num_workers", minimum=0)
        num_iters = check_int(num_iters, fn, "num_iters", minimum=1, allow_none=True)
        loader = self._loader(fn, "eval_data", eval_data, batch_size, num_workers)
        self._test_dataloader = loader
        callbacks = _callback_list(fn, callbacks, self, log_freq=log_freq, verbose=verbose,
                                   metrics=self._metrics_name())
        steps = self._len(loader)
        self.num_iters = num_iters
        if num_iters is not None and steps is not None:
            steps = min(num_iters, steps)
            self.num_iters = steps
        callbacks.on_begin("eval", {"steps": steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, callbacks, "eval")
        callbacks.on_end("eval", logs)
        self._test_dataloader = None
        return {name: logs[name] for name in self._metrics_name()}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1,
                callbacks=None):
        """The network's outputs over ``test_data`` (a Dataset or a DataLoader; only the
        input fields of each batch are used): a list with, per output, a tuple of the
        batches' arrays, or (``stack_outputs=True``) one array stacked over the batches.

        >>> import numpy as np
        >>> import pylayer
        >>> data = pylayer.io.TensorDataset([pylayer.ones([5, 2])])
        >>> model = pylayer.Model(pylayer.nn.Linear(2, 3))
        >>> out = model.predict(data, batch_size=2, stack_outputs=True, verbose=0)
        >>> len(out), out[0].shape
        (1, (5, 3))
        """
        fn = "predict"
        batch_size = check_int(batch_size, fn, "batch_size", minimum=1)
        num_workers = check_int(num_workers, fn, "num_workers", minimum=0)
        verbose = check_int(verbose, fn, "verbose", minimum=0)
        loader = self._loader(fn, "test_data", test_data, batch_size, num_workers)
        self._test_dataloader = loader
        callbacks = _callback_list(fn, callbacks, self, verbose=verbose)
        callbacks.on_begin("predict", {"steps": self._len(loader)})
        logs, outputs = self._run_one_epoch(loader, callbacks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        callbacks.on_end("predict", logs)
        return outputs

    def summary(self, input_size=None, dtype=None):
        """:func:`pylayer.summary` of the network, with ``input_size`` or else the shapes of
        the model's ``inputs``.

        >>> import pylayer
        >>> model = pylayer.Model(pylayer.nn.Linear(3, 2))
        >>> model.summary((1, 3))["total_params"]  # doctest: +ELLIPSIS
        ---...
        np.int64(8)
        """
        if input_size is None:
            if not self._inputs or any(None in tuple(spec.shape) and
                                       list(spec.shape) == [None] for spec in self._inputs):
                raise ValueError("summary(): 'input_size' or the model's 'inputs' must be set")
            input_size = [tuple(spec.shape) for spec in self._inputs]
            if len(input_size) == 1:
                input_size = input_size[0]
        return summary(self.network, input_size, dtypes=dtype)
