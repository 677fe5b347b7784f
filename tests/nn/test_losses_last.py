"""The last losses against Paddle 3.3.1 (CPU): the values below were printed by the
scratch Paddle for the same inputs (``rng = np.random.RandomState(seed)``, inputs in
float64 unless said)."""
import numpy as np
import pytest

import pylayer
import pylayer.nn.functional as F
from pylayer import nn


def ctc_case():
    rng = np.random.RandomState(1)
    x = rng.randn(5, 3, 4)
    labels = np.array([[1, 1], [2, 3], [3, 0]], "int32")
    return x, labels, np.array([5, 4, 2]), np.array([2, 2, 1])


def ctc(x, labels, il, ll, **kw):
    t = pylayer.to_tensor(x, dtype="float64", stop_gradient=False)
    loss = F.ctc_loss(t, pylayer.to_tensor(labels), pylayer.to_tensor(il),
                      pylayer.to_tensor(ll), **kw)
    loss.sum().backward()
    return loss, t.grad.numpy()


def test_ctc_matches_paddle():
    x, labels, il, ll = ctc_case()
    loss, _ = ctc(x, labels, il, ll)
    np.testing.assert_allclose(float(loss), 2.0642025392207306, rtol=1e-12)
    loss, grad = ctc(x, labels, il, ll, reduction="sum", norm_by_times=True)
    np.testing.assert_allclose(float(loss), 9.398638843798183, rtol=1e-12)
    # Paddle's gradient of sample 2 (input length 2, divided by it), zero past its length
    np.testing.assert_allclose(grad[:, 2], [[-0.34567, 0.05905889, 0.3270174, -0.04040629],
                                            [0.01352489, 0.20693851, 0.1622744, -0.3827378],
                                            [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
                               atol=1e-8)
    loss, _ = ctc(x, np.array([[1, 1], [0, 3], [3, 0]], "int32"), il, ll, blank=2,
                  reduction="none")
    np.testing.assert_allclose(loss.numpy(), [4.754335197290288, 1.9336640038538384,
                                              1.8780384957159297], rtol=1e-12)


def test_ctc_impossible_alignment():
    x, labels, _, ll = ctc_case()
    # labels [1, 1] need 3 frames; with 2 the loss is infinite. zero_infinity=True gives
    # Paddle's 0 and a zero gradient; without it pylayer keeps inf (PyTorch's rule),
    # where Paddle's warp-ctc returns 0.
    loss, grad = ctc(x[:2], labels, np.array([2, 2, 2]), ll, reduction="none",
                     zero_infinity=True)
    np.testing.assert_allclose(loss.numpy(), [0.0, 1.2409189267688117, 2.986576391526202],
                               rtol=1e-12)
    assert np.all(grad[:, 0] == 0)
    loss, grad = ctc(x[:2], labels, np.array([2, 2, 2]), ll, reduction="none")
    assert np.isinf(loss.numpy()[0]) and np.all(np.isfinite(grad))


def test_ctc_refuses_double_backward_and_bad_lengths():
    x, labels, il, ll = ctc_case()
    t = pylayer.to_tensor(x, stop_gradient=False)
    loss = F.ctc_loss(t, pylayer.to_tensor(labels), pylayer.to_tensor(il),
                      pylayer.to_tensor(ll))
    (g,) = pylayer.grad(loss, t, create_graph=True)
    with pytest.raises(RuntimeError, match="ctc_loss.*double backward"):
        g.sum().backward()
    with pytest.raises(ValueError, match="input_lengths"):
        F.ctc_loss(t, pylayer.to_tensor(labels), pylayer.to_tensor([6, 1, 1]),
                   pylayer.to_tensor(ll))
    with pytest.raises(ValueError, match="blank"):
        F.ctc_loss(t, pylayer.to_tensor(np.array([[0, 1], [2, 3], [3, 0]], "int32")),
                   pylayer.to_tensor(il), pylayer.to_tensor(ll))


def test_ctc_layer_trains():
    pylayer.seed(0)
    rng = np.random.RandomState(2)
    feats = pylayer.to_tensor(rng.randn(6, 2, 4).astype("float32"))
    model = nn.Linear(4, 4)
    loss_fn = nn.CTCLoss(blank=0)
    opt = pylayer.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
    labels = pylayer.to_tensor([[1, 2], [3, 3]], dtype="int32")
    lengths = pylayer.to_tensor([6, 6]), pylayer.to_tensor([2, 2])
    losses = []
    for _ in range(20):
        loss = loss_fn(model(feats), labels, *lengths)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]


def test_softmax_with_cross_entropy_matches_paddle():
    x = pylayer.to_tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]])
    loss, soft = F.softmax_with_cross_entropy(x, pylayer.to_tensor([[2], [-100]]),
                                              return_softmax=True)
    np.testing.assert_allclose(loss.numpy(), [[1.9643688], [0.0]], rtol=1e-6)
    np.testing.assert_allclose(soft.numpy()[1], [0.0512636, 0.01706417, 0.9316722], rtol=1e-6)
    loss = F.softmax_with_cross_entropy(x, F.softmax(x * 2), soft_label=True)
    np.testing.assert_allclose(loss.numpy(), [[0.6415791], [0.08086206]], rtol=1e-6)
    loss = F.softmax_with_cross_entropy(x.T, pylayer.to_tensor([[2, 0]]), axis=0)
    assert loss.shape == [1, 2]
    with pytest.raises(ValueError, match="rank"):
        F.softmax_with_cross_entropy(x, pylayer.to_tensor([2, 0]))


def test_margin_cross_entropy_as_paddle_documents():
    # Paddle 3.3.1 has no CPU kernel; these are the numbers of its documented example.
    cos = pylayer.to_tensor([[-0.59561850, 0.32797505, 0.80279214, 0.00144975],
                             [-0.16265212, 0.84155098, 0.62008629, 0.79126072]],
                            dtype="float64")
    loss, soft = F.margin_cross_entropy(cos, pylayer.to_tensor([1, 0]), reduction=None,
                                        return_softmax=True)
    np.testing.assert_allclose(loss.numpy(), [[61.94391901], [93.30853839]], rtol=1e-8)
    np.testing.assert_allclose(soft.numpy()[1], [0.0, 0.96152676, 0.00000067, 0.03847257],
                               atol=1e-8)
    with pytest.raises(ValueError, match="group"):
        F.margin_cross_entropy(cos, pylayer.to_tensor([1, 0]), group="ring")


def _adaptive_layer():
    # the same construction as the scratch-Paddle script that wrote
    # data/adaptive_log_softmax_paddle.json (weights set from RandomState(3), then x)
    m = nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=True)
    rng = np.random.RandomState(3)
    with pylayer.no_grad():
        m.head_weight.set_value(rng.randn(8, 5).astype("float32") * 0.5)
        m.head_bias.set_value(rng.randn(5).astype("float32") * 0.5)
        for pair in m.tail_weights:
            for w in pair:
                w.set_value(rng.randn(*w.shape).astype("float32") * 0.5)
    x = pylayer.to_tensor(rng.randn(5, 8).astype("float32"), stop_gradient=False)
    return m, x


def test_adaptive_log_softmax_matches_paddle():
    import json
    import os
    expected = json.load(open(os.path.join(os.path.dirname(__file__), "data",
                                           "adaptive_log_softmax_paddle.json")))
    m, x = _adaptive_layer()
    out, loss = m(x, pylayer.to_tensor([0, 4, 9, 2, 7]))
    loss.backward()
    np.testing.assert_allclose(out.numpy(), expected["out"], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(float(loss), expected["loss"], rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), expected["xgrad"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m.head_weight.grad.numpy(), expected["hgrad"], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(m.log_prob(x).numpy(), expected["logp"], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(m.predict(x).numpy(), expected["pred"])


def test_adaptive_log_softmax_registers_and_trains_its_tail():
    # Paddle 3.3.1 keeps the tail weights in a plain list: its state dict has only the
    # head. Here they are registered, so the optimizer trains them.
    m, x = _adaptive_layer()
    assert list(m.state_dict()) == ["head_weight", "head_bias", "tail_weights.0.0",
                                    "tail_weights.0.1", "tail_weights.1.0",
                                    "tail_weights.1.1"]
    opt = pylayer.optimizer.Adam(learning_rate=0.05, parameters=m.parameters())
    label = pylayer.to_tensor([0, 4, 9, 2, 7])
    losses = []
    for _ in range(20):
        _, loss = m(x.detach(), label)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.5 * losses[0]
    with pytest.raises(ValueError, match="cutoffs"):
        nn.AdaptiveLogSoftmaxWithLoss(8, 10, [6, 3])
    with pytest.raises(ValueError, match="label"):
        m(x, pylayer.to_tensor([0, 4, 10, 2, 7]))
    single, _ = m(x[0], pylayer.to_tensor(4))
    assert single.shape == []


def test_hsigmoid_matches_paddle():
    # data/hsigmoid_paddle.json: the scratch Paddle's hsigmoid_loss for these inputs
    # (RandomState(0): x [4, 3], weight [5, 3], bias [5, 1], then x2 [4, 3]), default tree
    # and a custom one, with the gradients of the summed loss.
    import json
    import os
    expected = json.load(open(os.path.join(os.path.dirname(__file__), "data",
                                           "hsigmoid_paddle.json")))
    rng = np.random.RandomState(0)
    x = pylayer.to_tensor(rng.randn(4, 3), stop_gradient=False)
    label = pylayer.to_tensor([0, 5, 3, 2])
    w = pylayer.to_tensor(rng.randn(5, 3), stop_gradient=False)
    b = pylayer.to_tensor(rng.randn(5, 1), stop_gradient=False)
    out = F.hsigmoid_loss(x, label, 6, w, b)
    out.sum().backward()
    np.testing.assert_allclose(out.numpy(), expected["out"], rtol=1e-12)
    for got, key in ((x, "xg"), (w, "wg"), (b, "bg")):
        np.testing.assert_allclose(got.grad.numpy(), expected[key], rtol=1e-12, atol=1e-14)
    table = pylayer.to_tensor([[0, 1, -1], [0, 2, 4], [0, 1, 3], [0, 2, -1]])
    code = pylayer.to_tensor([[1, 0, -1], [0, 1, 1], [1, 1, 0], [0, 0, -1]])
    x2 = pylayer.to_tensor(rng.randn(4, 3), stop_gradient=False)
    out2 = F.hsigmoid_loss(x2, label, 6, w, None, path_table=table, path_code=code)
    out2.sum().backward()
    # Paddle's values include log 2 for each step a path is shorter than the table
    np.testing.assert_allclose(out2.numpy(), expected["out2"], rtol=1e-12)
    np.testing.assert_allclose(x2.grad.numpy(), expected["x2g"], rtol=1e-12, atol=1e-14)


def test_hsigmoid_layer_trains_and_names_parameters_as_paddle():
    pylayer.seed(1)
    layer = nn.HSigmoidLoss(4, 6)
    assert list(layer.state_dict()) == ["weight", "bias"]
    assert nn.HSigmoidLoss(4, 6, is_custom=True, bias_attr=False).weight.shape == [6, 4]
    rng = np.random.RandomState(4)
    x = pylayer.to_tensor(rng.randn(8, 4).astype("float32"))
    label = pylayer.to_tensor(rng.randint(0, 6, 8))
    opt = pylayer.optimizer.Adam(learning_rate=0.1, parameters=layer.parameters())
    losses = []
    for _ in range(20):
        loss = layer(x, label).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.7 * losses[0]
    with pytest.raises(ValueError, match="label"):
        layer(x, pylayer.to_tensor(np.full(8, 6)))


def test_rnnt_matches_paddle():
    # data/rnnt_paddle.json: the scratch Paddle's rnnt_loss on log-probabilities
    # (RandomState(0).randn(3, 5, 4, 5), log-softmaxed in numpy) for these settings, with
    # the gradients of the summed loss.
    import json
    import os
    expected = json.load(open(os.path.join(os.path.dirname(__file__), "data",
                                           "rnnt_paddle.json")))
    rng = np.random.RandomState(0)
    x = rng.randn(3, 5, 4, 5)
    x = x - np.log(np.exp(x).sum(-1, keepdims=True))
    labels = np.array([[1, 2, 3], [4, 1, 0], [2, 0, 0]], "int32")
    lengths = np.array([5, 3, 4], "int32"), np.array([3, 2, 1], "int32")
    for name, kw in [("fe0", dict(fastemit_lambda=0.0, reduction="none")),
                     ("fe", dict(fastemit_lambda=0.2, reduction="sum")), ("mean", {}),
                     ("blank2", dict(blank=3, reduction="none"))]:
        lab = np.array([[1, 2, 0], [4, 1, 0], [2, 0, 0]], "int32") if name == "blank2" \
            else labels
        t = pylayer.to_tensor(x, stop_gradient=False)
        loss = F.rnnt_loss(t, pylayer.to_tensor(lab), pylayer.to_tensor(lengths[0]),
                           pylayer.to_tensor(lengths[1]), **kw)
        loss.sum().backward()
        np.testing.assert_allclose(loss.numpy(), expected[name]["loss"], rtol=1e-12)
        np.testing.assert_allclose(t.grad.numpy(), expected[name]["grad"], atol=1e-8)


def test_rnnt_layer_and_refusals():
    logp = pylayer.to_tensor(np.log(np.full([1, 2, 2, 2], 0.5)), stop_gradient=False)
    args = (pylayer.to_tensor([[1]], dtype="int32"), pylayer.to_tensor([2], dtype="int32"),
            pylayer.to_tensor([1], dtype="int32"))
    loss = nn.RNNTLoss(reduction="sum")(logp, *args)
    np.testing.assert_allclose(float(loss), np.log(4.0), rtol=1e-12)
    (g,) = pylayer.grad(loss, logp, create_graph=True)
    with pytest.raises(RuntimeError, match="rnnt_loss.*double backward"):
        g.sum().backward()
    with pytest.raises(ValueError, match="blank"):
        F.rnnt_loss(logp, pylayer.to_tensor([[0]], dtype="int32"), *args[1:])
