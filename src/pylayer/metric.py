"""Paddle's ``paddle.metric``: metrics that accumulate over batches (``Accuracy``,
``Precision``, ``Recall``, ``Auc``, all :class:`Metric`) and the functional
``accuracy``. A metric's ``update`` takes a batch (numpy arrays or Tensors) and
returns the batch's value; ``accumulate`` gives the value over every batch since
the last ``reset``.

>>> import numpy as np
>>> import pylayer
>>> m = pylayer.metric.Precision()
>>> m.update(np.array([0.1, 0.5, 0.6, 0.7]), np.array([0, 1, 1, 1]))
>>> m.accumulate(), m.name()
(1.0, 'precision')
"""
import numpy as np

import pylayer
from pylayer.extend import Tensor, check_choice, check_int, check_str

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def _array(value, fn, arg):
    """A batch argument (a Tensor, a numpy array or a nested list) as a numpy array."""
    if isinstance(value, Tensor):
        return value.numpy()
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{fn}(): argument '{arg}' must be a Tensor or a numpy array, got "
                        f"{type(value).__name__}") from error
    if array.dtype == object or not (np.issubdtype(array.dtype, np.number)
                                     or array.dtype == np.bool_):
        raise TypeError(f"{fn}(): argument '{arg}' must hold numbers, got "
                        f"{type(value).__name__}")
    return array


class Metric:
    """The base of the metrics: a subclass implements ``reset``, ``update``,
    ``accumulate`` and ``name``; ``compute`` (run on the batch's outputs before
    ``update``, as Paddle's high-level API does) returns its arguments by default.

    >>> import pylayer
    >>> class Count(pylayer.metric.Metric):
    ...     def __init__(self):
    ...         self.reset()
    ...     def reset(self):
    ...         self.n = 0
    ...     def update(self, batch):
    ...         self.n += len(batch)
    ...     def accumulate(self):
    ...         return self.n
    ...     def name(self):
    ...         return "count"
    >>> c = Count(); c.update([1, 2]); c.update([3]); c.accumulate()
    3
    """

    def reset(self):
        """Forget every batch seen."""
        raise NotImplementedError(f"{type(self).__name__} does not implement reset()")

    def update(self, *args):
        """Take one batch; return its value."""
        raise NotImplementedError(f"{type(self).__name__} does not implement update()")

    def accumulate(self):
        """The value over every batch since the last ``reset``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement accumulate()")

    def name(self):
        """The metric's name (or names)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement name()")

    def compute(self, *args):
        """What ``update`` takes, from the model's outputs and labels: by default the
        arguments themselves."""
        return args

    def __repr__(self):
        try:
            return f"{type(self).__name__}(name={self.name()!r})"
        except NotImplementedError:
            return f"{type(self).__name__}()"


class Accuracy(Metric):
    """Top-k accuracy for each ``k`` of ``topk``. ``compute(pred, label)`` gives a
    float32 Tensor ``[N, max(topk)]`` whose row holds 1 where the label is the
    prediction of that rank; ``update`` takes it and returns the batch's accuracy
    (a list with several ``k``).

    >>> import numpy as np
    >>> import pylayer
    >>> pred = pylayer.to_tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    >>> m = pylayer.metric.Accuracy()
    >>> m.update(m.compute(pred, pylayer.to_tensor([[1], [1], [1]])))
    0.6666666666666666
    >>> m.name()
    ['acc']
    """

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        if isinstance(topk, (int, np.integer)) and not isinstance(topk, bool):
            topk = (topk,)
        if not isinstance(topk, (list, tuple)) or not topk:
            raise TypeError(f"Accuracy(): argument 'topk' must be a non-empty list or tuple "
                            f"of ints, got {type(topk).__name__}")
        self.topk = tuple(check_int(k, "Accuracy", "topk", minimum=1) for k in topk)
        self.maxk = max(self.topk)
        self._name = check_str(name, "Accuracy", "name", allow_none=True) or "acc"
        self.reset()

    def compute(self, pred, label, *args):
        """``[N, max(topk)]``: 1.0 where the rank's prediction is the label."""
        scores = _array(pred, "Accuracy.compute", "pred")
        labels = _array(label, "Accuracy.compute", "label")
        if scores.ndim < 1 or scores.shape[-1] < self.maxk:
            raise ValueError(f"Accuracy.compute(): argument 'pred' must have at least "
                             f"{self.maxk} classes in its last dimension, got shape "
                             f"{list(scores.shape)}")
        scores = scores.reshape(-1, scores.shape[-1])
        if labels.ndim == scores.ndim and labels.shape[-1] > 1:
            labels = labels.argmax(-1)           # one-hot labels
        labels = labels.reshape(-1, 1)
        if labels.shape[0] != scores.shape[0]:
            raise ValueError(f"Accuracy.compute(): 'pred' holds {scores.shape[0]} samples "
                             f"and 'label' {labels.shape[0]}")
        ranked = np.argsort(-scores, axis=-1, kind="stable")[:, :self.maxk]
        return pylayer.to_tensor((ranked == labels).astype(np.float32))

    def update(self, correct, *args):
        """Add a batch of :meth:`compute`'s result; its accuracy for each ``k``."""
        correct = _array(correct, "Accuracy.update", "correct")
        if correct.ndim != 2 or correct.shape[1] < self.maxk:
            raise ValueError(f"Accuracy.update(): argument 'correct' must have shape "
                             f"[N, {self.maxk}] (compute's result), got {list(correct.shape)}")
        samples = correct.shape[0]
        values = []
        for i, k in enumerate(self.topk):
            hits = float(correct[:, :k].sum())
            self.total[i] += hits
            self.count[i] += samples
            values.append(hits / samples if samples else 0.0)
        return values[0] if len(values) == 1 else values

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        values = [t / c if c else 0.0 for t, c in zip(self.total, self.count)]
        return values[0] if len(values) == 1 else values

    def name(self):
        if len(self.topk) == 1:
            return [self._name]
        return [f"{self._name}_top{k}" for k in self.topk]


class _BinaryCounts(Metric):
    """Counts of a binary classifier's outcomes: a prediction of at least 0.5 is
    positive (rounded half up, as Paddle rounds it)."""

    def __init__(self, name, *args, **kwargs):
        self._name = check_str(name, type(self).__name__, "name")
        self.reset()

    def update(self, preds, labels):
        kind = type(self).__name__
        preds = _array(preds, f"{kind}.update", "preds").reshape(-1)
        labels = _array(labels, f"{kind}.update", "labels").reshape(-1)
        if preds.shape != labels.shape:
            raise ValueError(f"{kind}.update(): 'preds' holds {preds.size} values and "
                             f"'labels' {labels.size}")
        predicted, actual = preds >= 0.5, labels.astype(bool)
        self.tp += int(np.sum(predicted & actual))
        self.fp += int(np.sum(predicted & ~actual))
        self.fn += int(np.sum(~predicted & actual))

    def reset(self):
        self.tp = self.fp = self.fn = 0

    def name(self):
        return self._name


class Precision(_BinaryCounts):
    """Binary precision ``tp / (tp + fp)`` over the batches (0.0 before any positive
    prediction); a prediction of at least 0.5 counts as positive.

    >>> import numpy as np
    >>> import pylayer
    >>> m = pylayer.metric.Precision()
    >>> m.update(np.array([0.9, 0.8, 0.2]), np.array([1, 0, 1])); m.accumulate()
    0.5
    """

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(name)

    def accumulate(self):
        predicted = self.tp + self.fp
        return self.tp / predicted if predicted else 0.0


class Recall(_BinaryCounts):
    """Binary recall ``tp / (tp + fn)`` over the batches (0.0 before any positive
    label); a prediction of at least 0.5 counts as positive.

    >>> import numpy as np
    >>> import pylayer
    >>> m = pylayer.metric.Recall()
    >>> m.update(np.array([0.1, 0.5, 0.6, 0.7]), np.array([1, 0, 1, 1])); m.accumulate()
    0.6666666666666666
    """

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(name)

    def accumulate(self):
        actual = self.tp + self.fn
        return self.tp / actual if actual else 0.0


class Auc(Metric):
    """The area under the ROC curve of a binary classifier, over the batches: the
    positive-class probabilities (``preds[:, 1]`` of a ``[N, 2]`` batch) are counted
    into ``num_thresholds + 1`` buckets, and the area is summed bucket by bucket with
    the trapezoid rule, as Paddle does (``curve='PR'`` is accepted and computed the
    same way, as Paddle 3.3.1 does).

    >>> import numpy as np
    >>> import pylayer
    >>> m = pylayer.metric.Auc()
    >>> preds = np.array([[0.9, 0.1], [0.4, 0.6], [0.3, 0.7], [0.2, 0.8]])
    >>> m.update(preds, np.array([[0], [1], [0], [1]])); m.accumulate()
    0.75
    """

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        self.curve = check_choice(curve, "Auc", "curve", ("ROC", "PR"))
        self.num_thresholds = check_int(num_thresholds, "Auc", "num_thresholds", minimum=1)
        if self.num_thresholds > 2 ** 24:
            raise ValueError(f"Auc(): argument 'num_thresholds' must be at most 2**24, got "
                             f"{num_thresholds}")
        self._name = check_str(name, "Auc", "name")
        self.reset()

    def update(self, preds, labels):
        preds = _array(preds, "Auc.update", "preds")
        labels = _array(labels, "Auc.update", "labels").reshape(-1)
        if preds.ndim != 2 or preds.shape[1] != 2 or preds.shape[0] != labels.size:
            raise ValueError(f"Auc.update(): 'preds' must have shape [N, 2] for {labels.size} "
                             f"labels, got {list(preds.shape)}")
        buckets = np.clip((preds[:, 1] * self.num_thresholds).astype(np.int64), 0,
                          self.num_thresholds)
        positive = labels.astype(bool)
        self._positives += np.bincount(buckets[positive], minlength=self.num_thresholds + 1)
        self._negatives += np.bincount(buckets[~positive], minlength=self.num_thresholds + 1)

    def reset(self):
        self._positives = np.zeros(self.num_thresholds + 1, np.int64)
        self._negatives = np.zeros(self.num_thresholds + 1, np.int64)

    def accumulate(self):
        # from the highest threshold down: cumulative true and false positives
        true_pos = np.cumsum(self._positives[::-1])
        false_pos = np.cumsum(self._negatives[::-1])
        if true_pos[-1] == 0 or false_pos[-1] == 0:
            return 0.0
        previous_tp = np.concatenate([[0], true_pos[:-1]])
        previous_fp = np.concatenate([[0], false_pos[:-1]])
        area = np.sum((false_pos - previous_fp) * (true_pos + previous_tp) / 2.0)
        return float(area / true_pos[-1] / false_pos[-1])

    def name(self):
        return self._name


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """The top-``k`` accuracy of a batch, a 0-d float32 Tensor: the share of rows of
    ``input`` ``[N, C]`` whose ``k`` highest scores include ``label`` ``[N, 1]``.
    ``correct`` and ``total`` (int Tensors), when given, receive the counts.

    >>> import pylayer
    >>> scores = pylayer.to_tensor([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    >>> pylayer.metric.accuracy(scores, pylayer.to_tensor([[1], [1], [1]])).numpy()
    array(0.6666667, dtype=float32)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"accuracy(): argument 'input' must be a Tensor, got "
                        f"{type(input).__name__}")
    if not isinstance(label, Tensor):
        raise TypeError(f"accuracy(): argument 'label' must be a Tensor, got "
                        f"{type(label).__name__}")
    k = check_int(k, "accuracy", "k", minimum=1)
    scores, labels = input.numpy(), label.numpy()
    if scores.ndim != 2 or scores.shape[1] < k:
        raise ValueError(f"accuracy(): argument 'input' must have shape [N, C] with C >= k="
                         f"{k}, got {list(scores.shape)}")
    if labels.size != scores.shape[0]:
        raise ValueError(f"accuracy(): 'input' holds {scores.shape[0]} rows and 'label' "
                         f"{labels.size} labels")
    top = np.argsort(-scores, axis=-1, kind="stable")[:, :k]
    hits = int((top == labels.reshape(-1, 1)).any(axis=1).sum())
    rows = scores.shape[0]
    for counter, value in (("correct", correct), ("total", total)):
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(f"accuracy(): argument {counter!r} must be a Tensor or None, got "
                            f"{type(value).__name__}")
    if correct is not None:
        correct.set_value(np.full(correct.shape, hits, correct.numpy().dtype))
    if total is not None:
        total.set_value(np.full(total.shape, rows, total.numpy().dtype))
    return pylayer.to_tensor(np.float32(hits / rows if rows else 0.0))
