"""``paddle.static.nn.sparse_embedding`` and ``nce`` against Paddle 3.3.1.

``PADDLE_DYNAMIC`` is what the scratch Paddle 3.3.1 (CPU) printed for
``paddle.static.nn.sparse_embedding(paddle.to_tensor(IDS), [10, 4],
padding_idx=9, param_attr=ParamAttr(initializer=Assign(TABLE)),
dtype='float64')`` in dynamic mode (``.numpy().tolist()``). In static mode
Paddle 3.3.1's default (PIR) programs fail inside the function
(``bool(Value)`` on ``input.size``); its old IR (``FLAGS_enable_pir_api=0``)
builds a ``lookup_table`` op whose ids need a last dimension of 1, which is
what pylayer builds. The error rules below are the ones Paddle raised.

``PADDLE_NCE`` is what the scratch Paddle 3.3.1 (CPU, ``FLAGS_enable_pir_api=0``:
its nce, too, fails on PIR programs) fetched for the program of
``_nce_program`` (the same code with ``import paddle``; ``paddle.mean``
because Paddle's ``paddle.sum`` fails on old-IR Variables): the cost, the
``SampleLabels`` output of its nce op, and the gradients of the mean cost
with respect to the input, the weight and the bias, rounded to 10 decimals.
``PADDLE_SEED_7`` are the first negatives its nce drew with seed=7 for
1000 classes (the ``SampleLabels`` after the true class).
"""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.static._layers import _nce_samples

TABLE = np.arange(40, dtype="float64").reshape(10, 4) / 10
IDS = np.array([[[1], [9]], [[1], [3]]])
PADDLE_DYNAMIC = [[[0.4, 0.5, 0.6, 0.7], [0.0, 0.0, 0.0, 0.0]],
                  [[0.4, 0.5, 0.6, 0.7], [1.2, 1.3, 1.4, 1.5]]]


def _table(name=None):
    return paddle.ParamAttr(name=name, initializer=paddle.nn.initializer.Assign(TABLE))


def test_dynamic_mode_works_as_in_paddle():
    out = paddle.static.nn.sparse_embedding(paddle.to_tensor(IDS), [10, 4], padding_idx=9,
                                            param_attr=_table(), dtype="float64")
    assert out.shape == [2, 2, 4] and out.dtype == paddle.float64
    assert not out.stop_gradient
    np.testing.assert_allclose(out.numpy(), PADDLE_DYNAMIC)


def test_static_program_value_gradient_and_names(static, exe):
    main, startup = static
    ids = paddle.static.data("ids", [-1, 2, 1], "int64")
    out = paddle.static.nn.sparse_embedding(ids, [10, 4], padding_idx=-1,
                                            param_attr=_table("tbl"), dtype="float64")
    other = paddle.static.nn.sparse_embedding(ids, [10, 4])
    assert out.shape == [-1, 2, 4] and other.dtype == paddle.float32
    names = [p.name for p in main.all_parameters()]
    assert names[0] == "tbl" and names[1].startswith("sparse_embedding_")
    assert names[1].endswith(".w_0")
    (grad,) = paddle.static.gradients(paddle.sum(out * out), [main.global_block().var("tbl")])
    exe.run(startup)
    got, got_grad = exe.run(main, feed={"ids": IDS}, fetch_list=[out, grad])
    np.testing.assert_allclose(got, PADDLE_DYNAMIC)
    expected = np.zeros_like(TABLE)
    for i in (1, 1, 3):                       # row 9 is padding: no gradient
        expected[i] += 2 * TABLE[i]
    np.testing.assert_allclose(got_grad, expected)


def test_padding_idx_outside_the_table_pads_nothing():
    for padding_idx in (10, -11):
        out = paddle.static.nn.sparse_embedding(paddle.to_tensor(IDS), [10, 4],
                                                padding_idx=padding_idx, param_attr=_table(),
                                                dtype="float64")
        np.testing.assert_allclose(out.numpy()[0, 1], TABLE[9])


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(input=paddle.to_tensor([[1, 2]])), ValueError, "last dimension"),
    (dict(input=paddle.to_tensor([1, 2])), ValueError, "last dimension"),
    (dict(input=paddle.to_tensor([[1]], dtype="int32")), ValueError, "int64"),
    (dict(input=paddle.to_tensor(np.zeros([0, 1], "int64"))), ValueError, "empty"),
    (dict(table_class="x"), ValueError, "table_class"),
    (dict(entry=1), ValueError, "entry"),
    (dict(dtype="float16"), TypeError, "dtype"),
    (dict(size=[10]), ValueError, "size"),
    (dict(input=[[1]]), TypeError, "input"),
])
def test_errors(kwargs, error, words):
    args = {"input": paddle.to_tensor([[1]]), "size": [10, 4], **kwargs}
    with pytest.raises(error, match=words) as info:
        paddle.static.nn.sparse_embedding(**args)
    assert "sparse_embedding()" in str(info.value)


def test_int32_ids_are_a_type_error_in_static_mode(static):
    ids = paddle.static.data("ids", [-1, 1], "int32")
    with pytest.raises(TypeError, match="int64"):
        paddle.static.nn.sparse_embedding(ids, [10, 4])


# ------------------------------------------------------------------ nce
PADDLE_NCE = {'uniform': {'cost': [[1.0727619344], [0.3134640405], [1.6176636152]],
             'samples': [[1, 2, 1, 6, 3, 5, 0],
                         [6, 0, 2, 7, 5, 4, 6],
                         [3, 3, 2, 0, 7, 3, 2]],
             'dx': [[0.0690817229, -0.024505836, -0.0225435437, 0.0177027942],
                    [-0.0077454386, -0.00612921, -0.0051134222, 0.0052931498],
                    [-0.1318198045, 0.0502448036, 0.0133093216, 0.0049365644]],
             'dw': [[0.0020689787, 0.0164034237, 0.006203342, 0.0500884137],
                    [-0.0006065898, -0.0001375987, -0.0003365504, -0.000770557],
                    [-0.0824662165, -0.0005092641, -0.0355802978, -0.0303103823],
                    [0.0154445016, -0.0219509445, -0.0032377461, -0.0733623051],
                    [0.0093541775, -0.0048949649, 0.004758779, -0.0007581142],
                    [0.0320565684, -0.0014839697, 0.0172477643, 0.0249485079],
                    [0.0158592155, 0.0042542422, 0.0088394205, 0.021329233],
                    [0.0091925444, 0.000598414, 0.007657953, 0.0211869959]],
             'db': [[0.0261226657],
                    [-0.0003438615],
                    [0.0079581968],
                    [-0.0533254768],
                    [0.0050087749],
                    [0.017805402],
                    [0.0090177247],
                    [0.0209289015]]},
 'log_uniform': {'cost': [[1.0873234735], [0.4024059825], [1.2183058283]],
                 'samples': [[1, 2, 0, 3, 1, 3, 0],
                             [6, 0, 0, 5, 3, 2, 5],
                             [3, 3, 0, 0, 5, 1, 0]],
                 'dx': [[0.0725732748, -0.0227266446, -0.0192684911, 0.0200402452],
                        [-0.0137391767, -0.0185319046, -0.0015753983, 0.0001723091],
                        [-0.0775066728, 0.0245480567, 0.0034113237, 0.0083591925]],
                 'dw': [[0.003412108, 0.0219685425, 0.0096832941, 0.0723664824],
                        [-0.0109521578, 0.0056068895, -0.0023234706, 0.0156437699],
                        [-0.0783738739, -0.0217161949, -0.0437256368, -0.1066531733],
                        [0.0298799289, -0.029054278, 0.0004583867, -0.0906303265],
                        [0.0, 0.0, 0.0, 0.0],
                        [0.0267649136, -0.0018539349, 0.0203145008, 0.0471053934],
                        [-0.0078442119, 0.0041048122, -0.0039906096, 0.0006357382],
                        [0.0, 0.0, 0.0, 0.0]],
                 'db': [[0.0414695541],
                        [0.0135252669],
                        [-0.044593247],
                        [-0.0674704916],
                        [0.0],
                        [0.0502936419],
                        [-0.0042002508],
                        [0.0]]},
 'custom_dist': {'cost': [[1.2087293852], [0.1599386214], [1.1025827903]],
                 'samples': [[1, 2, 1, 4, 0, 7, 4],
                             [6, 0, 2, 7, 2, 2, 4],
                             [3, 3, 2, 4, 2, 3, 2]],
                 'dx': [[0.0642288219, -0.0212709728, -0.0294874967, 0.0325551402],
                        [-0.0132114723, -0.0040576081, -0.0023739438, 0.0053369861],
                        [-0.0772380308, 0.0372444851, 0.0254345143, -0.017612495]],
                 'dw': [[0.012351566, 0.0060525221, 0.0070526749, 0.0215464165],
                        [0.0036936616, 0.0008378693, 0.0020493309, 0.004692095],
                        [-0.0805448362, -0.0019104104, -0.0336950862, -0.0268906587],
                        [0.0012860339, -0.0051157671, -0.0017946811, -0.0181192198],
                        [0.0129596235, 0.0043940358, 0.00953658, 0.0294664771],
                        [0.0, 0.0, 0.0, 0.0],
                        [-0.01018621, 0.0053303607, -0.0051820614, 0.0008255467],
                        [0.035854681, -0.0013174624, 0.0193123404, 0.0285211515]],
                 'db': [[0.0071379637],
                        [0.0020938503],
                        [0.0145225714],
                        [-0.0124592931],
                        [0.0208515764],
                        [0.0],
                        [-0.0054542938],
                        [0.0199293519]]}}
PADDLE_SEED_7 = [754, 949, 117, 891, 141, 55, 832, 900, 257, 717, 755, 596]
_RNG = np.random.RandomState(0)
NCE_X = _RNG.randn(3, 4)
NCE_LABEL = np.array([[1, 2], [6, 0], [3, 3]])
NCE_W = _RNG.randn(8, 4) * 0.5
NCE_B = _RNG.randn(8, 1) * 0.1
NCE_SW = np.array([[1.0], [0.5], [2.0]])
NCE_DIST = [0.05, 0.1, 0.2, 0.05, 0.3, 0.1, 0.1, 0.1]


def _nce_program(sampler):
    x = paddle.static.data("x", [3, 4], "float64")
    x.stop_gradient = False
    label = paddle.static.data("l", [3, 2], "int64")
    weight = paddle.static.data("sw", [3, 1], "float64")
    cost = paddle.static.nn.nce(
        x, label, 8, sample_weight=weight, num_neg_samples=5, seed=11, sampler=sampler,
        custom_dist=NCE_DIST if sampler == "custom_dist" else None,
        param_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(NCE_W)),
        bias_attr=paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(NCE_B)))
    return x, cost


@pytest.mark.parametrize("sampler", ["uniform", "log_uniform", "custom_dist"])
def test_nce_cost_and_gradients_match_paddle(static, exe, sampler):
    main, startup = static
    x, cost = _nce_program(sampler)
    params = main.all_parameters()
    names = ["nce_", ".w_0", ".b_0"] + ([".w_1", ".w_2", ".w_3"] if sampler == "custom_dist"
                                        else [])
    assert [p.name[p.name.index("."):] for p in params] == names[1:]
    assert cost.shape == [3, 1]
    grads = paddle.static.gradients([paddle.mean(cost)], [x, params[0], params[1]])
    exe.run(startup)
    feed = {"x": NCE_X, "l": NCE_LABEL, "sw": NCE_SW}
    for _ in range(2):                        # a fixed seed draws the same classes each run
        got = exe.run(main, feed=feed, fetch_list=[cost] + grads)
        want = PADDLE_NCE[sampler]
        for value, key in zip(got, ["cost", "dx", "dw", "db"]):
            np.testing.assert_allclose(value, want[key], rtol=1e-6, atol=1e-7)


def test_nce_samplers_draw_paddles_classes():
    np.testing.assert_array_equal(_nce_samples(12, "uniform", 1000, 7, None), PADDLE_SEED_7)
    for sampler, want in PADDLE_NCE.items():
        tables = None
        if sampler == "custom_dist":
            from pylayer.static._layers import _alias_tables
            tables = _alias_tables(NCE_DIST)
        np.testing.assert_array_equal(_nce_samples(15, sampler, 8, 11, tables),
                                      np.array(want["samples"])[:, 2:].reshape(-1))


def test_nce_trains(static, exe):
    main, startup = static
    x = paddle.static.data("x", [-1, 4], "float32")
    label = paddle.static.data("label", [-1, 1], "int64")
    loss = paddle.mean(paddle.static.nn.nce(x, label, 6, num_neg_samples=3, seed=5))
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
    exe.run(startup)
    feed = {"x": np.eye(6, 4, dtype="float32"), "label": np.arange(6).reshape(6, 1)}
    losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(30)]
    assert losses[-1] < 0.9 * losses[0]


def test_nce_is_static_only():
    with pytest.raises(AssertionError, match="static mode"):
        paddle.static.nn.nce(paddle.ones([2, 3]), paddle.to_tensor([[1], [0]]), 5)


@pytest.mark.parametrize("change, error, words", [
    (dict(sampler="zipf"), ValueError, "sampler"),
    (dict(sampler="custom_dist"), ValueError, "custom_dist"),
    (dict(sampler="custom_dist", custom_dist=[0.5, 0.5]), ValueError, "custom_dist"),
    (dict(num_total_classes=1), ValueError, "num_total_classes"),
    (dict(num_neg_samples=0), ValueError, "num_neg_samples"),
    (dict(seed=-1), ValueError, "seed"),
    (dict(input="x3"), ValueError, "2 dimensions"),
    (dict(input="xi"), TypeError, "float32 or float64"),
    (dict(label="lf"), TypeError, "int64"),
])
def test_nce_errors(static, change, error, words):
    made = {"x": paddle.static.data("x", [-1, 3], "float32"),
            "x3": paddle.static.data("x3", [2, 3, 1], "float32"),
            "xi": paddle.static.data("xi", [-1, 3], "int64"),
            "l": paddle.static.data("l", [-1, 1], "int64"),
            "lf": paddle.static.data("lf", [-1, 1], "float32")}
    args = {"input": "x", "label": "l", "num_total_classes": 5, **change}
    args["input"], args["label"] = made[args["input"]], made[args["label"]]
    with pytest.raises(error, match=words) as info:
        paddle.static.nn.nce(**args)
    assert "nce()" in str(info.value)


def test_custom_sampler_skips_a_rejected_word(monkeypatch):
    """C++'s uniform_int_distribution skips a word past its last whole multiple; the
    following words then pair up one place later (a rare case, forced here)."""
    from pylayer.static import _layers
    from pylayer.static._layers import _alias_tables
    engine = _layers._mt19937_64

    def with_rejection(seed, count):
        words = engine(seed, count).copy()
        words[2] = np.uint64(2 ** 64 - 1)     # never accepted
        return words

    monkeypatch.setattr(_layers, "_mt19937_64", with_rejection)
    _, alias, alias_probs = tables = _alias_tables(NCE_DIST)
    words = [int(w) for w in with_rejection(11, 40)]
    scaling = (2 ** 64 - 1) // 8
    want, at = [], 0
    while len(want) < 6:
        word = words[at]
        at += 1
        if word >= 8 * scaling:
            continue
        index, real = word // scaling, min(words[at] / 2.0 ** 64, np.nextafter(1.0, 0.0))
        at += 1
        want.append(alias[index] if real > alias_probs[index] and alias[index] != -1
                    else index)
    np.testing.assert_array_equal(_nce_samples(6, "custom_dist", 8, 11, tables), want)
