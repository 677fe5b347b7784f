"""paddle.metric: the values Paddle 3.3.1 gives for the same batches (observed)."""
import numpy as np
import pytest

import pylayer
from pylayer import metric as M

SCORES = np.array([[0.1, 0.2, 0.3, 0.4], [0.1, 0.4, 0.3, 0.2],
                   [0.1, 0.2, 0.4, 0.3], [0.1, 0.2, 0.3, 0.4]])
LABELS = np.array([[0], [1], [2], [3]])


def test_accuracy_with_two_k_as_paddle():
    m = M.Accuracy(topk=(1, 2))
    correct = m.compute(pylayer.to_tensor(SCORES), pylayer.to_tensor(LABELS))
    assert correct.dtype == pylayer.float32
    assert correct.numpy().tolist() == [[0, 0], [1, 0], [1, 0], [1, 0]]
    assert m.update(correct) == [0.75, 0.75]
    assert m.accumulate() == [0.75, 0.75] and m.name() == ["acc_top1", "acc_top2"]
    m.update(np.zeros([4, 2], np.float32))
    assert m.accumulate() == [0.375, 0.375]
    m.reset()
    assert m.accumulate() == [0.0, 0.0]


def test_accuracy_with_one_k_gives_numbers_and_a_one_name_list():
    m = M.Accuracy()
    assert m.update(m.compute(SCORES, LABELS)) == 0.75
    assert m.accumulate() == 0.75 and m.name() == ["acc"]


def test_the_functional_accuracy_and_its_counters():
    scores = pylayer.to_tensor(SCORES.astype(np.float32))
    correct, total = pylayer.zeros([1], "int64"), pylayer.zeros([1], "int64")
    result = M.accuracy(scores, pylayer.to_tensor(LABELS), k=1, correct=correct, total=total)
    assert result.shape == [] and result.dtype == pylayer.float32 and float(result) == 0.75
    assert correct.numpy().tolist() == [3] and total.numpy().tolist() == [4]
    assert float(M.accuracy(scores, pylayer.to_tensor(LABELS), k=4)) == 1.0


def test_precision_and_recall_as_paddle():
    p = M.Precision()
    p.update(np.array([0.1, 0.5, 0.6, 0.7]), np.array([0, 1, 1, 1]))
    assert p.accumulate() == 1.0 and p.name() == "precision"
    p.update(pylayer.to_tensor([0.9]), pylayer.to_tensor([0]))
    assert p.accumulate() == 0.75
    p.reset()
    assert p.accumulate() == 0.0
    r = M.Recall()
    r.update(np.array([0.1, 0.5, 0.6, 0.7]), np.array([1, 0, 1, 1]))
    assert r.accumulate() == pytest.approx(2 / 3) and r.name() == "recall"


@pytest.mark.parametrize("curve, thresholds", [("ROC", 4095), ("PR", 10)])
def test_auc_as_paddle(curve, thresholds):
    m = M.Auc(curve=curve, num_thresholds=thresholds)
    preds = np.array([[0.9, 0.1], [0.4, 0.6], [0.3, 0.7], [0.2, 0.8]])
    m.update(preds, np.array([[0], [1], [0], [1]]))
    assert m.accumulate() == 0.75 and m.name() == "auc"


def test_auc_of_a_perfect_and_of_a_one_class_batch():
    m = M.Auc()
    m.update(np.array([[0.9, 0.1], [0.1, 0.9]]), np.array([0, 1]))
    assert m.accumulate() == 1.0
    m.reset()
    m.update(np.array([[0.9, 0.1], [0.1, 0.9]]), np.array([1, 1]))
    assert m.accumulate() == 0.0


def test_bad_batches_are_refused_with_the_argument_named():
    with pytest.raises(ValueError, match=r"Accuracy.compute\(\): argument 'pred'"):
        M.Accuracy(topk=(5,)).compute(SCORES, LABELS)
    with pytest.raises(ValueError, match=r"Precision.update\(\): 'preds' holds 2"):
        M.Precision().update(np.ones(2), np.ones(3))
    with pytest.raises(ValueError, match=r"Auc.update\(\): 'preds' must have shape \[N, 2\]"):
        M.Auc().update(np.ones(3), np.ones(3))
    with pytest.raises(TypeError, match=r"accuracy\(\): argument 'input' must be a Tensor"):
        M.accuracy(SCORES, pylayer.to_tensor(LABELS))
