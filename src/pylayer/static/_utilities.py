"""Smaller parts of ``paddle.static``: global variables, places, scopes of names,
``Print``, ``accuracy`` and ``ExponentialMovingAverage``."""
import contextlib
import os

import numpy as np

from pylayer.device import CPUPlace
from pylayer.extend import Tensor, check_int, check_str, describe, make_tensor, settings_repr
from pylayer.nn.param import ParamAttr
from pylayer.ops.dispatch import in_dynamic_mode
from pylayer.static._control_flow import cond
from pylayer.static._program import (Program, default_main_program, default_startup_program,
                                     program_guard)
from pylayer.static._record import record_op
from pylayer.static._variable import Parameter, Variable, as_dtype, public_api

__all__ = ["create_global_var", "cpu_places", "device_guard", "Print", "accuracy", "auc",
           "ctr_metric_bundle", "ExponentialMovingAverage", "WeightNormParamAttr",
           "weight_normalized"]

_GLOBAL_DTYPES = ("bool", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
                  "uint8", "bfloat16")


def _check_bool(value, fn, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{fn}(): argument '{arg}' must be a bool, got {describe(value)}")
    return bool(value)


class _Fill:
    """The startup op of a global variable: a constant array."""

    def __init__(self, shape, value, dtype):
        self.shape, self.value, self.dtype = list(shape), value, dtype
        self.__name__ = "fill_constant"

    def __call__(self):
        return make_tensor(np.full(self.shape, self.value, self.dtype.np_dtype))


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A variable of the global block filled with ``value`` by the startup program.

    Its value lives in the scope (it is not fed), so ops of the main program
    can read it and write it (``paddle.assign(..., output=var)``). In
    dynamic mode it is a Tensor filled with ``value``.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     step = paddle.static.create_global_var([1], 0, "int64", persistable=True,
    ...                                            name="demo_step")
    ...     _ = paddle.assign(step + 1, output=step)
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> [exe.run(main, fetch_list=[step])[0] for _ in range(2)]
    [array([1]), array([2])]
    >>> paddle.disable_static()
    """
    fn = "create_global_var"
    if not isinstance(shape, (list, tuple, np.ndarray)):
        raise TypeError(f"{fn}(): argument 'shape' must be a list or tuple of ints, "
                        f"got {describe(shape)}")
    dims = []
    for i, d in enumerate(list(shape)):
        if not isinstance(d, (int, np.integer)) or isinstance(d, bool) or d < 0:
            raise TypeError(f"{fn}(): argument 'shape' item {i} must be a non-negative int, "
                            f"got {describe(d)}")
        dims.append(int(d))
    dtype = as_dtype(dtype, fn)
    if dtype.name not in _GLOBAL_DTYPES:
        raise TypeError(f"{fn}(): argument 'dtype' must be one of {list(_GLOBAL_DTYPES)}, "
                        f"got {dtype.name}")
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{fn}(): argument 'value' must be a number, got {describe(value)}")
    _check_bool(persistable, fn, "persistable")
    check_str(name, fn, "name", allow_none=True)
    if in_dynamic_mode():
        return public_api().full(dims, float(value), dtype)
    block = default_main_program().global_block()
    if name is None:
        name = block.program._unique_name("_generated_var")
    elif name in block.vars:
        raise ValueError(f"{fn}(): the program already has a variable named {name!r}")
    var = Variable(block, name, dims, dtype, stop_gradient=True, persistable=persistable,
                   kind="global")
    block._add_var(var)
    default_startup_program().global_block()._append_init(var, _Fill(dims, value, dtype))
    return var


def cpu_places(device_count=None):
    """``device_count`` CPU places (by default the ``CPU_NUM`` environment variable, or 1).

    >>> import pylayer as paddle
    >>> paddle.static.cpu_places(2)
    [Place(cpu), Place(cpu)]
    """
    if device_count is None:
        text = os.environ.get("CPU_NUM", "1")
        try:
            device_count = int(text)
        except ValueError:
            raise ValueError(f"cpu_places(): the CPU_NUM environment variable must be a "
                             f"positive int, got {text!r}") from None
    device_count = check_int(device_count, "cpu_places", "device_count", minimum=1)
    return [CPUPlace()] * device_count


@contextlib.contextmanager
def _on_device(device):
    yield


def device_guard(device=None):
    """Place the ops built inside on ``device``: ``'cpu'`` or None (pylayer runs on the
    CPU only, so ``'gpu'`` is refused).

    >>> import pylayer as paddle
    >>> with paddle.static.device_guard("cpu"):
    ...     pass
    """
    check_str(device, "device_guard", "device", allow_none=True)
    if device not in (None, "", "cpu"):
        raise ValueError(f"device_guard(): argument 'device' must be 'cpu' or None (pylayer "
                         f"runs on the CPU only), got {device!r}")
    return _on_device(device)


# ------------------------------------------------------------------ Print
class _PrintOp:
    """Run time of ``Print``: shows the tensor (and its gradient) and passes it on."""
    __name__ = "print"

    def __init__(self, var_name, first_n, message, summarize, flags, phase):
        self.var_name = var_name
        self.first_n = first_n
        self.message = message
        self.summarize = summarize
        self.flags = flags
        self.phase = phase
        self.count = 0
        self.armed = False          # off while the op is tried out at build time

    def show(self, tensor, name):
        if not self.armed or (self.first_n >= 0 and self.count >= self.first_n):
            return
        self.count += 1
        show_name, show_type, show_shape, show_layout, show_lod = self.flags
        array = tensor.numpy()
        lines = [f"Variable: {name}"] if show_name else []
        if self.message:
            lines.append(f"  - message: {self.message}")
        if show_lod:
            lines.append("  - lod: {}")
        lines.append("  - place: Place(cpu)")
        if show_shape:
            lines.append(f"  - shape: {list(array.shape)}")
        if show_layout:
            lines.append("  - layout: NCHW")
        if show_type:
            lines.append(f"  - dtype: {tensor.dtype.name}")
        flat = array.reshape(-1)
        if self.summarize >= 0:
            flat = flat[:self.summarize]
        if array.dtype.kind == "f":
            items = " ".join(f"{v:.6f}" for v in flat)
        else:
            items = " ".join(str(v) for v in flat)
        lines.append(f"  - data: [{items}]")
        print("\n".join(lines))

    def __call__(self, x):
        pl = public_api()
        if self.phase in ("forward", "both"):
            self.show(x, self.var_name)
        if self.phase in ("backward", "both") and not x.stop_gradient:
            op = self

            class _ShowGradient(pl.autograd.PyLayer):
                @staticmethod
                def forward(ctx, value):
                    return pl.assign(value)

                @staticmethod
                def backward(ctx, grad):
                    op.show(grad, op.var_name + "@GRAD")
                    return grad
            return _ShowGradient.apply(x)
        return pl.assign(x)


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True,
          print_tensor_type=True, print_tensor_shape=True, print_tensor_layout=True,
          print_tensor_lod=True, print_phase="both"):
    """An op that prints ``input`` each time the program runs and passes it on.

    ``first_n`` limits how many runs print (-1: all); ``summarize`` how
    many elements show (-1: all); ``print_phase`` is ``'forward'``,
    ``'backward'`` (print the gradient when gradients are computed) or
    ``'both'``. Static mode only, as in Paddle.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     x = paddle.static.data("x", [2], "float32")
    ...     y = paddle.static.Print(x, message="x is", print_tensor_lod=False,
    ...                             print_tensor_layout=False)
    >>> _ = paddle.static.Executor().run(main, feed={"x": np.array([1., 2.], "float32")},
    ...                                  fetch_list=[y])
    Variable: x
      - message: x is
      - place: Place(cpu)
      - shape: [2]
      - dtype: float32
      - data: [1.000000 2.000000]
    >>> paddle.disable_static()
    """
    fn = "Print"
    if isinstance(input, Tensor):
        raise RuntimeError("Print() is an op of static programs; call "
                           "pylayer.enable_static() first (in dynamic mode, print the Tensor)")
    if not isinstance(input, Variable):
        raise TypeError(f"Print(): argument 'input' must be a Variable, got {describe(input)}")
    first_n = check_int(first_n, fn, "first_n", minimum=-1)
    summarize = check_int(summarize, fn, "summarize", minimum=-1)
    check_str(message, fn, "message", allow_none=True)
    flags = [_check_bool(v, fn, a) for v, a in (
        (print_tensor_name, "print_tensor_name"), (print_tensor_type, "print_tensor_type"),
        (print_tensor_shape, "print_tensor_shape"), (print_tensor_layout, "print_tensor_layout"),
        (print_tensor_lod, "print_tensor_lod"))]
    phase = check_str(print_phase, fn, "print_phase").lower()
    if phase not in ("forward", "backward", "both"):
        raise ValueError(f"Print(): argument 'print_phase' must be 'forward', 'backward' or "
                         f"'both', got {print_phase!r}")
    op = _PrintOp(input.name, first_n, message, summarize, flags, phase)
    out = record_op(op, input)
    op.armed = True
    return out


def accuracy(input, label, k=1, correct=None, total=None):
    """The share of samples whose label is among the top ``k`` scores of ``input``.

    The same as ``pylayer.metric.accuracy``; in a static program it is an op.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main = paddle.static.Program()
    >>> with paddle.static.program_guard(main):
    ...     scores = paddle.static.data("scores", [-1, 3], "float32")
    ...     label = paddle.static.data("label", [-1, 1], "int64")
    ...     acc = paddle.static.accuracy(scores, label, k=1)
    >>> paddle.static.Executor().run(main, fetch_list=[acc], feed={
    ...     "scores": np.array([[0.1, 0.5, 0.4], [0.7, 0.2, 0.1]], "float32"),
    ...     "label": np.array([[1], [2]], "int64")})
    [array(0.5, dtype=float32)]
    >>> paddle.disable_static()
    """
    metric = public_api().metric.accuracy
    if any(isinstance(v, Variable) for v in (input, label, correct, total)):
        return record_op(metric, input, label, k=k, correct=correct, total=total)
    return metric(input, label, k=k, correct=correct, total=total)


# ------------------------------------------------ ExponentialMovingAverage
class ExponentialMovingAverage:
    """Keep an exponential moving average of each parameter of the main program.

    :meth:`update` adds to the training program the ops ``ema = decay * ema
    + (1 - decay) * param`` (``decay`` becomes ``min(decay, (t + 1) / (t +
    10))`` when ``thres_steps`` is a Variable ``t``) and counts the updates.
    ``with ema.apply(exe):`` puts the bias-corrected averages ``ema / (1 -
    decay ** steps)`` in the parameters, and :meth:`restore` (called on
    leaving, unless ``need_restore=False``) puts the trained values back.
    Static mode only, as in Paddle.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 1], "float32")
    ...     one = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
    ...     y = paddle.static.nn.fc(x, 1, weight_attr=one, bias_attr=False, name="ema_demo")
    ...     loss = paddle.mean(y)
    ...     _ = paddle.optimizer.SGD(learning_rate=1.0).minimize(loss)
    ...     ema = paddle.static.ExponentialMovingAverage(0.5)
    ...     ema.update()
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> for _ in range(2):
    ...     _ = exe.run(main, feed={"x": np.ones([1, 1], "float32")})
    >>> scope = paddle.static.global_scope()
    >>> with ema.apply(exe):
    ...     print(np.array(scope.find_var("ema_demo.w_0").get_tensor()))
    [[-0.6666667]]
    >>> np.array(scope.find_var("ema_demo.w_0").get_tensor())
    array([[-1.]], dtype=float32)
    >>> paddle.disable_static()
    """

    _STEP = "@EMA_STEP_COUNTER@"

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        fn = "ExponentialMovingAverage"
        if in_dynamic_mode():
            raise RuntimeError("ExponentialMovingAverage works on static programs; call "
                               "pylayer.enable_static() first")
        if isinstance(decay, bool) or not isinstance(decay, (int, float)):
            raise TypeError(f"{fn}(): argument 'decay' must be a float, got {describe(decay)}")
        if thres_steps is not None and not isinstance(thres_steps, Variable):
            raise TypeError(f"{fn}(): argument 'thres_steps' must be a Variable or None, "
                            f"got {describe(thres_steps)}")
        check_str(name, fn, "name", allow_none=True)
        pl = public_api()
        self._decay = float(decay)
        self._thres_steps = thres_steps
        self._name = name or ""
        main = default_main_program()
        block = main.global_block()
        self._params = [p for p in block.all_parameters()
                        if getattr(p, "do_model_average", True) is not False]
        self._decay_var = self._global("scheduled_ema_decay_rate", [1], self._decay,
                                       "float32")
        if thres_steps is not None:
            t = pl.cast(thres_steps, "float32")
            scheduled = pl.minimum((t + 1.0) / (t + 10.0),
                                   pl.full([1], self._decay, "float32"))
            pl.assign(pl.reshape(scheduled, [1]), output=self._decay_var)
        self._step = self._global(self._STEP, [1], 0, "int64")
        self._emas = {p.name: self._global(f"{self._name}{p.name}_ema", p.shape, 0.0, p.dtype,
                                           unique=True) for p in self._params}
        self._backups = {p.name: f"{self._name}{p.name}.ema_tmp" for p in self._params}
        self.apply_program = Program()
        with program_guard(self.apply_program, Program()):
            ablock = self.apply_program.global_block()
            step = pl.cast(self._like(ablock, self._step), "float32")
            decay_pow = pl.pow(self._like(ablock, self._decay_var), step)
            for p in self._params:
                param = self._like(ablock, p)
                ema = self._like(ablock, self._emas[p.name])
                backup = ablock.create_var(name=self._backups[p.name], shape=p.shape,
                                           dtype=p.dtype, persistable=True)
                pl.assign(param, output=backup)
                value = cond(pl.sum(step) > 0, lambda e=ema: e / (1.0 - decay_pow),
                             lambda e=ema: pl.assign(e))
                pl.assign(value, output=param)
        self.restore_program = Program()
        with program_guard(self.restore_program, Program()):
            rblock = self.restore_program.global_block()
            for p in self._params:
                backup = rblock.create_var(name=self._backups[p.name], shape=p.shape,
                                           dtype=p.dtype, persistable=True)
                pl.assign(backup, output=self._like(rblock, p))

    def __repr__(self):
        thres = self._thres_steps.name if self._thres_steps is not None else None
        return settings_repr(self, {"decay": self._decay, "thres_steps": thres,
                                    "parameters": [p.name for p in self._params]})

    def _global(self, name, shape, value, dtype, unique=False):
        block = default_main_program().global_block()
        if unique:
            base, n = name, 0
            name = f"{base}_{n}"
            while name in block.vars:
                n += 1
                name = f"{base}_{n}"
        elif name in block.vars:
            return block.vars[name]
        return create_global_var(shape, value, dtype, persistable=True, name=name)

    @staticmethod
    def _like(block, var):
        return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                                persistable=True)

    def update(self):
        """Add the ops that update the averages (and count the steps) to the main program."""
        pl = public_api()
        pl.assign(self._step + 1, output=self._step)
        for p in self._params:
            ema = self._emas[p.name]
            pl.assign(ema * self._decay_var + p * (1.0 - self._decay_var), output=ema)

    @contextlib.contextmanager
    def _applied(self, executor, need_restore):
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def apply(self, executor, need_restore=True):
        """Within the block, the parameters hold their bias-corrected averages."""
        self._check_executor(executor, "apply")
        _check_bool(need_restore, "ExponentialMovingAverage.apply", "need_restore")
        return self._applied(executor, need_restore)

    def restore(self, executor):
        """Put back the parameter values that :meth:`apply` replaced."""
        self._check_executor(executor, "restore")
        executor.run(self.restore_program)

    @staticmethod
    def _check_executor(executor, method):
        from pylayer.static._executor import Executor
        if not isinstance(executor, Executor):
            raise TypeError(f"ExponentialMovingAverage.{method}(): argument 'executor' must "
                            f"be an Executor, got {describe(executor)}")


# -------------------------------------------------------------------- auc
class _AucOp:
    """Run time of ``auc``: adds the batch to the threshold buckets of positives and
    negatives (all batches, and a window of the last ``slide_steps``) and computes the
    area under the ROC curve of each."""
    __name__ = "auc"

    def __init__(self, num_thresholds, slide_steps, weighted):
        self.num_thresholds = num_thresholds
        self.slide_steps = slide_steps      # 0: the window never forgets
        self.weighted = weighted

    def _area(self, pos, neg):
        pos = np.cumsum(pos[::-1].astype(np.float64))
        neg = np.cumsum(neg[::-1].astype(np.float64))
        prev_pos = np.concatenate([[0.0], pos[:-1]])
        prev_neg = np.concatenate([[0.0], neg[:-1]])
        area = float(np.sum(np.abs(neg - prev_neg) * (pos + prev_pos) / 2.0))
        return area / pos[-1] / neg[-1] if pos[-1] > 0 and neg[-1] > 0 else 0.0

    def __call__(self, input, label, stat_pos, stat_neg, window_pos, window_neg, *weight):
        scores = input.numpy().reshape(input.shape[0], -1)[:, -1].astype(np.float64)
        labels = label.numpy().reshape(-1)
        if labels.shape[0] != scores.shape[0]:
            raise ValueError(f"auc(): {scores.shape[0]} predictions but {labels.shape[0]} "
                             f"labels")
        if np.any((scores < 0) | (scores > 1)) or np.any(np.isnan(scores)):
            raise ValueError("auc(): the predicted probabilities must be in [0, 1]")
        keep = np.ones(scores.shape[0], bool)
        if self.weighted:
            keep = weight[0].numpy().reshape(-1)[:scores.shape[0]] != 0
        buckets = (scores * self.num_thresholds).astype(np.int64)[keep]
        positive = labels[keep] != 0
        size = self.num_thresholds + 1
        batch_pos = np.bincount(buckets[positive], minlength=size).astype(np.int64)
        batch_neg = np.bincount(buckets[~positive], minlength=size).astype(np.int64)
        total_pos = stat_pos.numpy() + batch_pos
        total_neg = stat_neg.numpy() + batch_neg
        if self.slide_steps:
            window_pos = np.concatenate([window_pos.numpy()[1:], batch_pos[None]])
            window_neg = np.concatenate([window_neg.numpy()[1:], batch_neg[None]])
        else:
            window_pos = window_pos.numpy() + batch_pos
            window_neg = window_neg.numpy() + batch_neg
        return [make_tensor(np.array(self._area(total_pos, total_neg))),
                make_tensor(np.array(self._area(window_pos.sum(0), window_neg.sum(0)))),
                make_tensor(window_pos), make_tensor(window_neg),
                make_tensor(total_pos), make_tensor(total_neg)]


def auc(input, label, curve="ROC", num_thresholds=4095, topk=1, slide_steps=1,
        ins_tag_weight=None):
    """The area under the ROC curve of the predictions so far, and of the last batches.

    ``input`` holds probabilities, one row per sample (the last column is
    the positive class's); ``label`` is 1 for positives, 0 for negatives.
    Each run adds the batch to buckets of ``num_thresholds + 1``
    thresholds kept in the scope. Returns ``(auc, batch_auc, [batch_stat_pos,
    batch_stat_neg, stat_pos, stat_neg])``: the area over every batch run
    so far, the area over the last ``slide_steps`` batches, and the bucket
    counts. Samples whose ``ins_tag_weight`` is 0 are left out; ``topk``
    is accepted and unused, as in Paddle. Static mode only (in dynamic mode
    use ``pylayer.metric.Auc``).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     probs = paddle.static.data("probs", [-1, 2], "float32")
    ...     label = paddle.static.data("label", [-1, 1], "int64")
    ...     auc_out, batch_auc, stats = paddle.static.auc(probs, label, num_thresholds=100)
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, fetch_list=[auc_out, batch_auc], feed={
    ...     "probs": np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], "float32"),
    ...     "label": np.array([[0], [1], [1], [0]], "int64")})
    [array(0.75), array(0.75)]
    >>> paddle.disable_static()
    """
    fn = "auc"
    if isinstance(input, Tensor):
        raise RuntimeError("auc() is an op of static programs; call pylayer.enable_static() "
                           "first (in dynamic mode use pylayer.metric.Auc)")
    if not isinstance(input, Variable):
        raise TypeError(f"auc(): argument 'input' must be a Variable, got {describe(input)}")
    if not isinstance(label, Variable):
        raise TypeError(f"auc(): argument 'label' must be a Variable, got {describe(label)}")
    if input.dtype.name not in ("float32", "float64"):
        raise TypeError(f"auc(): argument 'input' must be float32 or float64, got "
                        f"{input.dtype.name}")
    if label.dtype.name not in ("int32", "int64"):
        raise TypeError(f"auc(): argument 'label' must be int32 or int64, got "
                        f"{label.dtype.name}")
    if curve != "ROC":
        raise ValueError(f"auc(): argument 'curve' must be 'ROC' (the only curve Paddle's "
                         f"kernel computes), got {curve!r}")
    num_thresholds = check_int(num_thresholds, fn, "num_thresholds", minimum=1)
    check_int(topk, fn, "topk", minimum=1)
    slide_steps = check_int(slide_steps, fn, "slide_steps", minimum=0)
    if ins_tag_weight is not None and not isinstance(ins_tag_weight, Variable):
        raise TypeError(f"auc(): argument 'ins_tag_weight' must be a Variable or None, "
                        f"got {describe(ins_tag_weight)}")
    program = default_main_program()
    block = program.global_block()
    size = num_thresholds + 1
    prefix = program._unique_name("auc")
    window = max(slide_steps, 1)
    stats = [create_global_var(shape, 0, "int64", persistable=True, name=f"{prefix}.{n}")
             for n, shape in (("batch_stat_pos", [window, size]),
                              ("batch_stat_neg", [window, size]),
                              ("stat_pos", [size]), ("stat_neg", [size]))]
    outs = []
    for n in ("auc", "batch_auc"):
        var = Variable(block, f"{prefix}.{n}", [], "float64", stop_gradient=True, kind="tmp")
        block.vars[var.name] = var
        outs.append(var)
    op = _AucOp(num_thresholds, slide_steps, ins_tag_weight is not None)
    inputs = [input, label, stats[2], stats[3], stats[0], stats[1]]
    if ins_tag_weight is not None:
        inputs.append(ins_tag_weight)
    written = outs + stats
    block.append_op("auc", op, inputs, {}, inputs, written, list(range(len(written))),
                    [False] * len(written))
    return outs[0], outs[1], stats


def ctr_metric_bundle(input, label, ins_tag_weight=None):
    """Running sums for click-through-rate metrics, kept in the scope across runs.

    Returns ``(local_sqrerr, local_abserr, local_prob, local_q, local_pos_num,
    local_ins_num)``: the sums of the squared and absolute errors
    ``input - label``, of ``input``, of ``sigmoid(input)`` (the q value), of
    ``label`` (positives) and the number of samples. Divide by the number of
    samples for MAE, RMSE (after a square root), the predicted CTR and q.
    ``ins_tag_weight`` (its first element; 0 marks fake data) weighs the q
    value and the sample count, as in Paddle. Static mode only.

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     pred = paddle.static.data("pred", [-1, 1], "float32")
    ...     label = paddle.static.data("label", [-1, 1], "float32")
    ...     sqrerr, abserr, prob, q, pos, ins = paddle.static.ctr_metric_bundle(pred, label)
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> feed = {"pred": np.array([[0.5], [0.25]], "float32"),
    ...         "label": np.array([[1.0], [0.0]], "float32")}
    >>> for _ in range(2):
    ...     got = exe.run(main, feed=feed, fetch_list=[abserr, pos, ins])
    >>> got
    [array([1.5], dtype=float32), array([2.], dtype=float32), array([4.], dtype=float32)]
    >>> paddle.disable_static()
    """
    fn = "ctr_metric_bundle"
    if isinstance(input, Tensor):
        raise RuntimeError("ctr_metric_bundle() is an op of static programs; call "
                           "pylayer.enable_static() first")
    for arg, value in (("input", input), ("label", label)):
        if not isinstance(value, Variable):
            raise TypeError(f"{fn}(): argument '{arg}' must be a Variable, "
                            f"got {describe(value)}")
    if input.shape != label.shape:
        raise ValueError(f"{fn}(): 'input' and 'label' must have the same shape, got "
                         f"{input.shape} and {label.shape}")
    if ins_tag_weight is not None and not isinstance(ins_tag_weight, Variable):
        raise TypeError(f"{fn}(): argument 'ins_tag_weight' must be a Variable or None, "
                        f"got {describe(ins_tag_weight)}")
    pl = public_api()
    prefix = default_main_program()._unique_name("ctr_metric_bundle")
    sums = [create_global_var([1], 0.0, "float32", persistable=True, name=f"{prefix}.{n}")
            for n in ("local_sqrerr", "local_abserr", "local_prob", "local_q",
                      "local_pos_num", "local_ins_num")]
    x = pl.cast(input, "float32")
    y = pl.cast(label, "float32")
    diff = x - y
    count = pl.cast(pl.shape(y)[0:1], "float32")
    q = pl.sum(pl.nn.functional.sigmoid(x))
    if ins_tag_weight is not None:
        weight = pl.reshape(pl.cast(ins_tag_weight, "float32"), [-1])[0:1]
        q, count = q * weight, count * weight
    batch = [pl.sum(diff * diff), pl.sum(pl.abs(diff)), pl.sum(x), q, pl.sum(y), count]
    for total, value in zip(sums, batch):
        pl.assign(pl.reshape(total + value, [1]), output=total)
    return tuple(sums)


# ----------------------------------------------------- weight normalization
class WeightNormParamAttr(ParamAttr):
    """A parameter attribute that makes a weight ``g * v / ||v||`` (weight normalization).

    A weight created with it in a static program is two parameters,
    ``<name>_v`` (the direction, from ``initializer``) and ``<name>_g`` (the
    norm, set by the startup program to ``||v||``, so the weight starts equal
    to ``v``), and the weight is computed from them. The norm is taken over
    every dimension except ``dim`` (over all of them when ``dim`` is None);
    ``g`` keeps ``dim``'s size and is 1 along the others. Static programs
    only, as in Paddle (whose dynamic mode fails with it).

    >>> import numpy as np, pylayer as paddle
    >>> paddle.enable_static()
    >>> main, startup = paddle.static.Program(), paddle.static.Program()
    >>> with paddle.static.program_guard(main, startup):
    ...     x = paddle.static.data("x", [-1, 2], "float32")
    ...     attr = paddle.static.WeightNormParamAttr(
    ...         dim=None, name="wn_demo", initializer=paddle.nn.initializer.Constant(3.0))
    ...     y = paddle.static.nn.fc(x, 2, weight_attr=attr, bias_attr=False)
    >>> sorted((p.name, p.shape) for p in main.all_parameters())
    [('wn_demo_g', [1, 1]), ('wn_demo_v', [2, 2])]
    >>> exe = paddle.static.Executor()
    >>> _ = exe.run(startup)
    >>> exe.run(main, feed={"x": np.ones([1, 2], "float32")}, fetch_list=[y, "wn_demo_g"])
    [array([[6., 6.]], dtype=float32), array([[6.]], dtype=float32)]
    >>> paddle.disable_static()
    """

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0,
                 regularizer=None, trainable=True, do_model_average=False, need_clip=True):
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int)):
            raise TypeError(f"WeightNormParamAttr(): argument 'dim' must be an int or None, "
                            f"got {describe(dim)}")
        check_str(name, "WeightNormParamAttr", "name", allow_none=True)
        super().__init__(name=name, initializer=initializer, learning_rate=learning_rate,
                         regularizer=regularizer, trainable=trainable,
                         do_model_average=do_model_average, need_clip=need_clip)
        self.dim = dim

    @property
    def initializer(self):
        if in_dynamic_mode():
            raise RuntimeError("WeightNormParamAttr makes weights of static programs; call "
                               "pylayer.enable_static() first (for layers in dynamic mode "
                               "use pylayer.nn.utils.weight_norm)")
        return self._initializer

    @initializer.setter
    def initializer(self, value):
        self._initializer = value


class _NormOf:
    """The startup op of a weight-normalized ``g``: the norm of ``v``'s start."""
    __name__ = "weight_norm_init"

    def __init__(self, axes):
        self.axes = tuple(axes)

    def __call__(self, v):
        array = v.numpy()
        return make_tensor(np.sqrt(np.sum(array * array, axis=self.axes, keepdims=True))
                           .astype(array.dtype))


def weight_normalized(block, name, spec, dim):
    """The Variable ``g * v / ||v||`` for the parameters ``<name>_g`` and ``<name>_v``."""
    pl = public_api()
    shape = spec.shape
    if dim is not None and not -len(shape) <= dim < len(shape):
        raise ValueError(f"WeightNormParamAttr: dim={dim} is out of range for a weight of "
                         f"shape {shape}")
    axes = [i for i in range(len(shape)) if dim is None or i != dim % len(shape)]
    v = block.create_parameter(f"{name}_v", shape, spec.dtype, spec.initializer,
                               spec.trainable, spec.learning_rate, spec.regularizer)
    g_shape = [1 if i in axes else d for i, d in enumerate(shape)]
    g = block.vars.get(f"{name}_g")
    if g is None:
        g = Parameter(block, f"{name}_g", g_shape, spec.dtype, None, spec.trainable,
                      spec.learning_rate, spec.regularizer)
        block._add_var(g)
        startup = default_startup_program().global_block()
        start_v = startup.vars[v.name]
        start_g = Variable(startup, g.name, g_shape, spec.dtype, stop_gradient=True,
                           persistable=True)
        startup._add_var(start_g)
        startup.append_op("weight_norm_init", _NormOf(axes), [start_v], {}, [start_v],
                          [start_g], [None], [False], role="init")
    norm = pl.sqrt(pl.sum(v * v, axis=axes, keepdim=True))
    return g * v / norm
