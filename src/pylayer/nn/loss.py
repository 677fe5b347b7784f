"""Loss layers: ``MSELoss`` and ``CrossEntropyLoss``."""
from pylayer.nn import functional as F
from pylayer.nn.layer import Layer
from pylayer.ops.loss import check_cross_entropy_arguments, check_reduction

__all__ = ["MSELoss", "CrossEntropyLoss"]


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
