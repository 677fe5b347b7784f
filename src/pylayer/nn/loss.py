"""Loss layers: each holds its settings and calls its function of
:mod:`pylayer.nn.functional`."""
from pylayer.nn import functional as F
from pylayer.nn.layer import Layer
from pylayer.extend import check_int, check_number, float_tensor
from pylayer.nn.container import LayerList, ParameterList
from pylayer.ops.loss import check_cutoffs
from pylayer.ops.manipulation import concat
from pylayer.ops.reduction import argmax
from pylayer.ops.loss import check_cross_entropy_arguments, check_reduction

__all__ = ["MSELoss", "CrossEntropyLoss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "L1Loss",
           "SmoothL1Loss", "KLDivLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "CosineEmbeddingLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "MultiMarginLoss", "MultiLabelMarginLoss"]


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
        check_reduction(reduction, "KLDivLoss", ("mean", "sum", "none", "batchmean"))
        self.reduction = reduction
        self.log_target = log_target

    def forward(self, input, label):
        return F.kl_div(input, label, self.reduction, self.log_target)


class MarginRankingLoss(Layer):
    """Ranking loss; see :func:`pylayer.nn.functional.margin_ranking_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.MarginRankingLoss(margin=0.5)
    >>> loss(pylayer.to_tensor([1.0]), pylayer.to_tensor([2.0]), pylayer.to_tensor([1.0])).item()
    1.5
    """

    def __init__(self, margin=0.0, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "MarginRankingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input, other, label):
        return F.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class HingeEmbeddingLoss(Layer):
    """Hinge embedding loss; see :func:`pylayer.nn.functional.hinge_embedding_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.HingeEmbeddingLoss()
    >>> round(loss(pylayer.to_tensor([0.2]), pylayer.to_tensor([-1.0])).item(), 4)
    0.8
    """

    def __init__(self, margin=1.0, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "HingeEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input, label):
        return F.hinge_embedding_loss(input, label, self.margin, self.reduction)


class CosineEmbeddingLoss(Layer):
    """Cosine embedding loss; see :func:`pylayer.nn.functional.cosine_embedding_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.CosineEmbeddingLoss()
    >>> a = pylayer.to_tensor([[1.0, 0.0]])
    >>> loss(a, a, pylayer.to_tensor([-1])).item()
    1.0
    """

    def __init__(self, margin=0, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "CosineEmbeddingLoss")
        self.margin = margin
        self.reduction = reduction

    def forward(self, input1, input2, label):
        return F.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class SoftMarginLoss(Layer):
    """Two-class logistic loss; see :func:`pylayer.nn.functional.soft_margin_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.SoftMarginLoss()
    >>> round(loss(pylayer.to_tensor([0.0]), pylayer.to_tensor([-1.0])).item(), 4)
    0.6931
    """

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "SoftMarginLoss")
        self.reduction = reduction

    def forward(self, input, label):
        return F.soft_margin_loss(input, label, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """Multi-label logistic loss; see
    :func:`pylayer.nn.functional.multi_label_soft_margin_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.MultiLabelSoftMarginLoss()
    >>> round(loss(pylayer.to_tensor([[0.0, 0.0]]), pylayer.to_tensor([[1.0, 0.0]])).item(), 4)
    0.6931
    """

    def __init__(self, weight=None, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "MultiLabelSoftMarginLoss")
        self.weight = weight
        self.reduction = reduction

    def forward(self, input, label):
        return F.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class PoissonNLLLoss(Layer):
    """Poisson negative log likelihood; see :func:`pylayer.nn.functional.poisson_nll_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.PoissonNLLLoss()
    >>> loss(pylayer.to_tensor([0.0]), pylayer.to_tensor([1.0])).item()
    1.0
    """

    def __init__(self, log_input=True, full=False, epsilon=1e-08, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "PoissonNLLLoss")
        self.log_input = log_input
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction

    def forward(self, input, label):
        return F.poisson_nll_loss(input, label, self.log_input, self.full, self.epsilon,
                                  self.reduction)


class GaussianNLLLoss(Layer):
    """Gaussian negative log likelihood; see :func:`pylayer.nn.functional.gaussian_nll_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.GaussianNLLLoss()
    >>> loss(pylayer.to_tensor([1.0]), pylayer.to_tensor([0.0]), pylayer.to_tensor([1.0])).item()
    0.5
    """

    def __init__(self, full=False, epsilon=1e-06, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "GaussianNLLLoss")
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction

    def forward(self, input, label, variance):
        return F.gaussian_nll_loss(input, label, variance, self.full, self.epsilon,
                                   self.reduction)


class TripletMarginLoss(Layer):
    """Triplet loss with the ``p``-norm distance; see
    :func:`pylayer.nn.functional.triplet_margin_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.TripletMarginLoss(epsilon=0.0)
    >>> a = pylayer.to_tensor([[0.0, 1.0]])
    >>> round(loss(a, a, pylayer.to_tensor([[0.0, 0.5]])).item(), 4)
    0.5
    """

    def __init__(self, margin=1.0, p=2.0, epsilon=1e-06, swap=False, reduction="mean",
                 name=None):
        super().__init__()
        check_reduction(reduction, "TripletMarginLoss")
        self.margin = margin
        self.p = p
        self.epsilon = epsilon
        self.swap = swap
        self.reduction = reduction

    def forward(self, input, positive, negative):
        return F.triplet_margin_loss(input, positive, negative, self.margin, self.p,
                                     self.epsilon, self.swap, self.reduction)


class TripletMarginWithDistanceLoss(Layer):
    """Triplet loss with a given distance; see
    :func:`pylayer.nn.functional.triplet_margin_with_distance_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.TripletMarginWithDistanceLoss(
    ...     distance_function=lambda x, y: pylayer.abs(x - y).sum(-1))
    >>> a = pylayer.to_tensor([[0.0, 1.0]])
    >>> loss(a, a, pylayer.to_tensor([[0.0, 0.5]])).item()
    0.5
    """

    def __init__(self, distance_function=None, margin=1.0, swap=False, reduction="mean",
                 name=None):
        super().__init__()
        check_reduction(reduction, "TripletMarginWithDistanceLoss")
        self.distance_function = distance_function
        self.margin = margin
        self.swap = swap
        self.reduction = reduction

    def forward(self, input, positive, negative):
        return F.triplet_margin_with_distance_loss(input, positive, negative,
                                                   self.distance_function, self.margin,
                                                   self.swap, self.reduction)


class MultiMarginLoss(Layer):
    """Multi-class hinge loss; see :func:`pylayer.nn.functional.multi_margin_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.MultiMarginLoss()
    >>> round(loss(pylayer.to_tensor([[0.1, 0.2, 0.9]]), pylayer.to_tensor([2])).item(), 4)
    0.1667
    """

    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "MultiMarginLoss")
        self.p = p
        self.margin = margin
        self.weight = weight
        self.reduction = reduction

    def forward(self, input, label):
        return F.multi_margin_loss(input, label, self.p, self.margin, self.weight,
                                   self.reduction)


class MultiLabelMarginLoss(Layer):
    """Multi-label hinge loss; see :func:`pylayer.nn.functional.multi_label_margin_loss`.

    >>> import pylayer
    >>> loss = pylayer.nn.MultiLabelMarginLoss()
    >>> x = pylayer.to_tensor([[0.1, 0.2, 0.4, 0.8]])
    >>> round(loss(x, pylayer.to_tensor([[3, 0, -1, 1]])).item(), 4)
    0.85
    """

    def __init__(self, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "MultiLabelMarginLoss")
        self.reduction = reduction

    def forward(self, input, label):
        return F.multi_label_margin_loss(input, label, self.reduction)


class CTCLoss(Layer):
    """Connectionist temporal classification loss; see
    :func:`pylayer.nn.functional.ctc_loss` (a log-softmax is applied to
    ``log_probs`` first, as in Paddle).

    >>> import numpy as np
    >>> import pylayer
    >>> loss = pylayer.nn.CTCLoss(reduction='sum')
    >>> scores = pylayer.to_tensor(np.zeros([3, 1, 3], 'float32'))
    >>> round(float(loss(scores, pylayer.to_tensor([[1, 2]], dtype='int32'),
    ...                  pylayer.to_tensor([3]), pylayer.to_tensor([2]))), 4)
    1.6864
    """

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__()
        check_reduction(reduction, "CTCLoss")
        self.blank = check_int(blank, "CTCLoss", "blank")
        self.reduction = reduction
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, labels, input_lengths, label_lengths, norm_by_times=False):
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, self.blank,
                          self.reduction, norm_by_times, self.zero_infinity)


__all__ += ["CTCLoss"]


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax over ``n_classes`` split at ``cutoffs``; see
    :func:`pylayer.nn.functional.adaptive_log_softmax_with_loss`.

    ``head_weight`` is ``[in_features, cutoffs[0] + clusters]`` (with
    ``head_bias`` when ``head_bias=True``); cluster ``i`` projects to
    ``in_features // div_value ** (i + 1)`` features, then to its classes, with
    the weights ``tail_weights[i][0]`` and ``tail_weights[i][1]``. Unlike
    Paddle 3.3.1, which keeps the tail weights in a plain list (so its
    optimizers and state dict miss them), they are registered here
    (``tail_weights.<i>.0``, ``tail_weights.<i>.1``) and train.

    >>> import pylayer
    >>> layer = pylayer.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0)
    >>> out, loss = layer(pylayer.ones([4, 8]), pylayer.to_tensor([0, 4, 9, 2]))
    >>> out.shape, loss.shape, layer.log_prob(pylayer.ones([4, 8])).shape
    ([4], [], [4, 10])
    """

    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None,
                 div_value=4.0, head_bias=False, name=None):
        super().__init__()
        fn = "AdaptiveLogSoftmaxWithLoss"
        self.in_features = check_int(in_features, fn, "in_features", minimum=1)
        self.n_classes = check_int(n_classes, fn, "n_classes", minimum=2)
        cutoffs = check_cutoffs(cutoffs, fn, self.n_classes)
        self.div_value = check_number(div_value, fn, "div_value")
        if self.div_value <= 0:
            raise ValueError(f"{fn}(): argument 'div_value' must be positive, got {div_value}")
        self.cutoffs = cutoffs + [self.n_classes]
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.is_head_bias = bool(head_bias)
        self.head_weight = self.create_parameter([self.in_features, self.head_size],
                                                 attr=weight_attr)
        self.head_bias = self.create_parameter([self.head_size], attr=bias_attr,
                                               is_bias=True) if self.is_head_bias else None
        tails = []
        for i in range(self.n_clusters):
            hidden = int(self.in_features // (self.div_value ** (i + 1)))
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            tails.append(ParameterList([
                self.create_parameter([self.in_features, hidden], attr=weight_attr),
                self.create_parameter([hidden, size], attr=weight_attr)]))
        self.tail_weights = LayerList(tails)

    def _tails(self):
        return [[pair[0], pair[1]] for pair in self.tail_weights]

    def forward(self, input, label):
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight, self._tails(),
                                                self.cutoffs, self.head_bias)

    def log_prob(self, input):
        """The log-probabilities of all ``n_classes`` classes, ``[N, n_classes]``."""
        input = float_tensor(input, "AdaptiveLogSoftmaxWithLoss.log_prob", "input", 1)
        head = F.log_softmax(F.linear(input, self.head_weight, self.head_bias), 1)
        parts = [head[:, :self.shortlist_size]]
        for i, (w0, w1) in enumerate(self._tails()):
            cluster = F.log_softmax(F.linear(F.linear(input, w0), w1), 1)
            parts.append(cluster + head[:, self.shortlist_size + i:self.shortlist_size + i + 1])
        return concat(parts, axis=1)

    def predict(self, input):
        """The most likely class of each row (as Paddle: in the input's dtype)."""
        log_prob = self.log_prob(input)
        return argmax(log_prob, axis=1).astype(log_prob.dtype)


__all__ += ["AdaptiveLogSoftmaxWithLoss"]


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid loss with its own ``weight`` ``[C, feature_size]`` and
    ``bias`` ``[C, 1]``, where ``C`` is ``num_classes - 1`` (default tree) or
    ``num_classes`` (``is_custom=True``: the inner nodes of the tree that
    ``forward``'s ``path_table`` and ``path_code`` describe); see
    :func:`pylayer.nn.functional.hsigmoid_loss`.

    >>> import pylayer
    >>> layer = pylayer.nn.HSigmoidLoss(3, 6)
    >>> layer.weight.shape, layer.bias.shape
    ([5, 3], [5, 1])
    >>> layer(pylayer.ones([2, 3]), pylayer.to_tensor([0, 5])).shape
    [2, 1]
    """

    def __init__(self, feature_size, num_classes, weight_attr=None, bias_attr=None,
                 is_custom=False, is_sparse=False, name=None):
        super().__init__()
        fn = "HSigmoidLoss"
        self._feature_size = check_int(feature_size, fn, "feature_size", minimum=1)
        self._num_classes = check_int(num_classes, fn, "num_classes", minimum=1)
        if self._num_classes < 2 and not is_custom:
            raise ValueError(f"{fn}(): argument 'num_classes' must be at least 2 with the "
                             f"default tree, got {num_classes}")
        self._is_custom = bool(is_custom)
        self._is_sparse = bool(is_sparse) and self._is_custom
        rows = self._num_classes if self._is_custom else self._num_classes - 1
        self.weight = self.create_parameter([rows, self._feature_size], attr=weight_attr)
        self.bias = self.create_parameter([rows, 1], attr=bias_attr, is_bias=True)

    def forward(self, input, label, path_table=None, path_code=None):
        return F.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias,
                               path_table=path_table, path_code=path_code,
                               is_sparse=self._is_sparse)


__all__ += ["HSigmoidLoss"]


class RNNTLoss(Layer):
    """RNN transducer loss; see :func:`pylayer.nn.functional.rnnt_loss`.

    >>> import numpy as np
    >>> import pylayer
    >>> logp = pylayer.to_tensor(np.log(np.full([1, 2, 2, 2], 0.5, 'float32')))
    >>> loss = pylayer.nn.RNNTLoss()(logp, pylayer.to_tensor([[1]], dtype='int32'),
    ...                              pylayer.to_tensor([2], dtype='int32'),
    ...                              pylayer.to_tensor([1], dtype='int32'))
    >>> round(float(loss), 4)
    1.3863
    """

    def __init__(self, blank=0, fastemit_lambda=0.001, reduction="mean", name=None):
        super().__init__()
        check_reduction(reduction, "RNNTLoss")
        self.blank = check_int(blank, "RNNTLoss", "blank")
        self.fastemit_lambda = check_number(fastemit_lambda, "RNNTLoss", "fastemit_lambda")
        self.reduction = reduction

    def forward(self, input, label, input_lengths, label_lengths):
        return F.rnnt_loss(input, label, input_lengths, label_lengths, blank=self.blank,
                           fastemit_lambda=self.fastemit_lambda, reduction=self.reduction)


__all__ += ["RNNTLoss"]
