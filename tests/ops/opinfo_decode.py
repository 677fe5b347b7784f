"""Op-database entry of ``class_center_sample`` (``pylayer.ops.loss``).

The samples ask for no more centers than there are distinct labels, so no negative
center is drawn at random and the result has a numpy reference: the distinct labels
in ascending order, and each label's position among them. The random negatives and
Paddle's refusals are tested in ``tests/nn/test_decode.py``.
"""
import numpy as np

import pylayer

from opinfo import OpInfo, samples
from _hostile_values import A, K, Call, _value


def _class_center_sample(label, num_classes, num_samples, group=None):
    centers = np.unique(label)
    remapped = np.searchsorted(centers, label)
    return [remapped.astype(label.dtype), centers.astype(label.dtype)]


_LABEL = np.array([9, 3, 3, 7, 0])

ENTRIES = [
    OpInfo("class_center_sample", _class_center_sample,
           samples((_LABEL, 12, 4), (_LABEL.astype(np.int32), 10, 2),
                   ((_LABEL, 10, 3), {"group": False}), (np.array([4]), 5, 1)),
           dtypes=("int64",), differentiable=False, static=False,
           call=Call(A("label", lambda env: pylayer.to_tensor([9, 3, 3, 7]), "int_tensor"),
                     A("num_classes", _value(12), "positive_int"),
                     A("num_samples", _value(3), "positive_int"),
                     K("group", _value(None), None),
                     extra=[("more samples than classes", {"num_samples": _value(13)},
                             "num_samples"),
                            ("a label out of range", {"label": lambda env:
                                                      pylayer.to_tensor([3, 12])}, "label"),
                            ("a 2-D label", {"label": lambda env:
                                             pylayer.to_tensor([[1, 2]])}, "label")])),
]
