"""Loss layers: each holds its settings and calls its function of
:mod:`pylayer.nn.functional`."""
from pylayer.nn import functional as F
from pylayer.nn.layer import Layer
from pylayer.ops.loss import _REDUCTIONS, check_cross_entropy_arguments, check_reduction

__all__ = ["MSELoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "L1Loss",
           "SmoothL1Loss", "KLDivLoss"]


class MSELoss(Layer):
    """Mean (or summed, or unreduced) squared error.

    >>> import pylayer
    >>> pylayer.nn.MSELoss()(pylayer.to_tensor([2.0]), pylayer.to_tensor([0.0])).numpy()
    array(4., dtype=float32)
    """

    def __init__(self, reduction="mean"):
        super().__init__()
        check_reduction(reduction, "MSELoss")
        self.reduction = reduction

    def forward(self, input, label):
        return F.mse_loss(input, label, self.reduction)


class CrossEntropyLoss(Layer):
    """Softmax cross entropy; see :func:`pylayer.nn.functional.cross_entropy`.

    >>> import pylayer
    >>> loss = pylayer.nn.CrossEntropyLoss()
    >>> round(loss(pylayer.to_tensor([[0.0, 0.0]]), pylayer.to_tensor([1])).item(), 4)
    0.6931
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", soft_label=False,
                 axis=-1, use_softmax=True, label_smoothing=0.0, name=None):
        super().__init__()
        self.weight = check_cross_entropy_arguments(weight, ignore_index, reduction, axis,
                                                    label_smoothing, "CrossEntropyLoss")
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing

    def forward(self, input, label):
        return F.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, soft_label=self.soft_label,
                               axis=self.axis, use_softmax=self.use_softmax,
                               label_smoothing=self.label_smoothing)


class BCELoss(Layer):
    """Binary cross entropy of probabilities; see
    :func:`pylayer.nn.functional.binary_cross_entropy`.

    >>> import pylayer
    >>> loss = pylayer.nn.BCELoss()
    >>> round(loss(pylayer.to_tensor([0.5]), pylayer.to_tensor([1.0])).item(), 4)
    0.6931
    """

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "BCELoss")
        self.weight = weight
        self.reduction = reduction

    def forward(self, input, label):
        return F.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(Layer):
    """Binary cross entropy of logits; see
    :func:`pylayer.nn.functional.binary_cross_entropy_with_logits`.

    >>> import pylayer
    >>> loss = pylayer.nn.BCEWithLogitsLoss()
    >>> round(loss(pylayer.to_tensor([0.0]), pylayer.to_tensor([1.0])).item(), 4)
    0.6931
    """

    def __init__(self, weight=None, reduction="mean", pos_weight=None, name=None):
        super().__init__()
        check_reduction(reduction, "BCEWithLogitsLoss")
        self.weight = weight
        self.reduction = reduction
        self.pos_weight = pos_weight

    def forward(self, logit, label):
        return F.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction,
                                                  self.pos_weight)


class NLLLoss(Layer):
    """Negative log likelihood of log-probabilities; see
    :func:`pylayer.nn.functional.nll_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.NLLLoss()
    >>> loss(pylayer.to_tensor([[-1.0, -2.0]]), pylayer.to_tensor([1])).item()
    2.0
    """

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "NLLLoss")
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction

    def forward(self, input, label):
        return F.nll_loss(input, label, self.weight, self.ignore_index, self.reduction)


class L1Loss(Layer):
    """Mean (or summed, or unreduced) absolute error; see :func:`pylayer.nn.functional.l1_loss`.

    >>> import pylayer
    >>> pylayer.nn.L1Loss()(pylayer.to_tensor([2.0, -2.0]), pylayer.to_tensor([0.0, 0.0])).item()
    2.0
    """

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "L1Loss")
        self.reduction = reduction

    def forward(self, input, label):
        return F.l1_loss(input, label, self.reduction)


class SmoothL1Loss(Layer):
    """Huber (or smooth L1) loss; see :func:`pylayer.nn.functional.smooth_l1_loss`.

    >>> import pylayer
    >>> pylayer.nn.SmoothL1Loss()(pylayer.to_tensor([3.0]), pylayer.to_tensor([0.0])).item()
    2.5
    """

    def __init__(self, reduction="mean", delta=1.0, is_huber=True, name=None):
        super().__init__()
        check_reduction(reduction, "SmoothL1Loss")
        self.reduction = reduction
        self.delta = delta
        self.is_huber = is_huber

    def forward(self, input, label):
        return F.smooth_l1_loss(input, label, self.reduction, self.delta, self.is_huber)


class KLDivLoss(Layer):
    """Kullback-Leibler divergence; see :func:`pylayer.nn.functional.kl_div`.

    >>> import pylayer
    >>> loss = pylayer.nn.KLDivLoss(reduction='sum')
    >>> round(loss(pylayer.to_tensor([-1.0]), pylayer.to_tensor([1.0])).item(), 4)
    1.0
    """

    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        if reduction not in _REDUCTIONS + ("batchmean",):
            raise ValueError(f"KLDivLoss(): argument 'reduction' must be one of "
                             f"{_REDUCTIONS + ('batchmean',)}, got {reduction!r}")
        self.reduction = reduction
        self.log_target = log_target

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction, self.log_target)
