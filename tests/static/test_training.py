"""One small network trained twice with SGD: built-in tanh and cross-entropy, then
``py_func`` versions of both. The two loss curves must agree."""
import numpy as np

import pylayer as paddle

STEPS = 25
RNG = np.random.default_rng(42)
FEATURES = RNG.standard_normal([32, 4]).astype("float32")
LABELS = (FEATURES[:, :1] + FEATURES[:, 1:2] > 0).astype("int64") \
    + (FEATURES[:, 2:3] > 0.5).astype("int64")


def np_tanh(x):
    return np.tanh(x)


def np_tanh_grad(y, dy):
    return np.array(dy) * (1 - np.square(np.array(y)))


def np_cross_entropy(logits, label):
    """Per-sample softmax cross entropy, shape [N, 1]."""
    logits = np.array(logits, dtype=np.float64)
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    picked = np.take_along_axis(log_probs, np.array(label), axis=1)
    return (-picked).astype(np.float32)


def np_cross_entropy_grad(logits, label, dloss):
    logits = np.array(logits, dtype=np.float64)
    shifted = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
    onehot = np.zeros_like(probs)
    np.put_along_axis(onehot, np.array(label), 1.0, axis=1)
    return ((probs - onehot) * np.array(dloss)).astype(np.float32), None


def train(use_py_func):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup), \
            paddle.static.scope_guard(paddle.static.Scope()):
        x = paddle.static.data("x", [-1, 4], "float32")
        label = paddle.static.data("label", [-1, 1], "int64")
        hidden = paddle.static.nn.fc(x, 8, name="hidden")
        block = main.current_block()
        if use_py_func:
            activated = block.create_var(name="activated", dtype="float32", shape=[-1, 8])
            paddle.static.py_func(np_tanh, hidden, activated, backward_func=np_tanh_grad,
                                  skip_vars_in_backward_input=hidden)
        else:
            activated = paddle.tanh(hidden)
        logits = paddle.static.nn.fc(activated, 3, name="logits")
        if use_py_func:
            per_sample = block.create_var(name="per_sample", dtype="float32", shape=[-1, 1])
            paddle.static.py_func(np_cross_entropy, [logits, label], per_sample,
                                  backward_func=np_cross_entropy_grad,
                                  skip_vars_in_backward_input=per_sample)
            loss = paddle.mean(per_sample)
        else:
            loss = paddle.nn.functional.cross_entropy(logits, label)
        paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)

        exe = paddle.static.Executor(paddle.static.CPUPlace())
        paddle.seed(2024)
        exe.run(startup)
        return np.array([exe.run(main, feed={"x": FEATURES, "label": LABELS},
                                 fetch_list=[loss])[0] for _ in range(STEPS)])


def test_built_in_and_py_func_training_agree(static):
    built_in = train(use_py_func=False)
    custom = train(use_py_func=True)
    assert built_in.shape == (STEPS,)
    np.testing.assert_allclose(custom, built_in, rtol=0, atol=1e-5)
    assert built_in[-1] < 0.6 * built_in[0]
