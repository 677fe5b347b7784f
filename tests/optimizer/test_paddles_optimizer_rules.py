"""Rules of Paddle 3.3.1's optimizers and gradient clips that pylayer had wrong (issue 34),
each with Paddle's observed behaviour."""
import numpy as np
import pytest

import pylayer


@pytest.mark.parametrize("clip", [pylayer.nn.ClipGradByNorm(1.0), pylayer.nn.ClipGradByValue(1.0),
                                  pylayer.nn.ClipGradByGlobalNorm(1.0)])
def test_a_clip_leaves_out_a_parameter_without_gradient(clip):
    layer = pylayer.nn.Linear(2, 2)
    out = clip([(layer.weight, None), (layer.bias, pylayer.ones([2]) * 5)])
    assert [p is layer.bias for p, _ in out] == [True]
    assert out[0][1].numpy().tolist() == pytest.approx(
        [1.0, 1.0] if isinstance(clip, pylayer.nn.ClipGradByValue) else [0.70710678] * 2)


def test_minimize_returns_the_gradients_before_clipping():
    layer = pylayer.nn.Linear(2, 2)
    opt = pylayer.optimizer.SGD(learning_rate=0.1, parameters=layer.parameters(),
                                grad_clip=pylayer.nn.ClipGradByValue(0.01))
    loss = (layer(pylayer.ones([1, 2])) * 100).sum()
    loss.backward()
    before = layer.weight.numpy().copy()
    ops, params_grads = opt.minimize(loss)
    assert ops == [] and [g.numpy().tolist() for _, g in params_grads] == [
        [[100.0, 100.0], [100.0, 100.0]], [100.0, 100.0]]
    np.testing.assert_allclose(layer.weight.numpy(), before - 0.1 * 0.01, rtol=1e-6)


def test_a_learning_rate_of_none_is_a_value_error():
    with pytest.raises(ValueError, match=r"SGD\(\): argument 'learning_rate' is not set"):
        pylayer.optimizer.SGD(learning_rate=None)


def test_adam_refuses_weight_decay_on_a_sparse_embedding_and_changes_nothing():
    emb = pylayer.nn.Embedding(4, 2, sparse=True)
    opt = pylayer.optimizer.Adam(parameters=emb.parameters(), weight_decay=0.1)
    emb(pylayer.to_tensor([1])).sum().backward()
    before = emb.weight.numpy().copy()
    with pytest.raises(RuntimeError, match="weight_decay does not apply"):
        opt.step()
    np.testing.assert_array_equal(emb.weight.numpy(), before)
    dense = pylayer.nn.Embedding(4, 2)
    opt = pylayer.optimizer.Adam(parameters=dense.parameters(), weight_decay=0.1)
    dense(pylayer.to_tensor([1])).sum().backward()
    opt.step()
    sgd = pylayer.optimizer.SGD(parameters=emb.parameters(), weight_decay=0.1)
    sgd.step()
