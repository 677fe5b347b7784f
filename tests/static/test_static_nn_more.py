"""The layers of ``paddle.static.nn`` against Paddle 3.3.1.

``PADDLE`` holds what the scratch Paddle 3.3.1 (CPU) gives for the program of
``_build`` (the same code run with ``import paddle``; these layers exist only
in Paddle's old static IR, so it ran with ``FLAGS_enable_pir_api=0``), fed
the ``x`` and ``ids`` of ``_run`` and fetched once (``bn_mean``/``bn_var``:
after a second run), rounded to 6 decimals. Paddle's own ``paddle.sum`` fails
on old-IR Variables, hence ``paddle.mean`` in the loss. ``sn`` is left out of
the loss: Paddle's spectral_norm gradient does not match finite differences
(pylayer's does, see ``test_spectral_norm_gradient``).
"""
import math
import re

import numpy as np
import pytest

import pylayer as paddle

PADDLE = {
    'conv2d': np.array([[[[0.0, 0.0], [0.0, 0.0]], [[0.828333, 0.152632], [1.547049, 0.0]]], [[[0.0, 0.0], [0.0, 0.0]], [[0.060381, 2.056624], [0.214408, 0.623272]]]]),
    'conv2d_t': np.array([[[[-1.201332, -1.739773, -1.240577, -1.332433, -1.279822, -0.925092], [-1.691272, -1.368489, -1.441039, -1.261579, -1.190805, -1.154669], [-1.319067, -0.517751, -1.358312, -0.110411, -0.149294, -1.259412], [-0.940572, -1.047758, -0.690339, -0.940848, -0.516575, -0.535255], [-0.188539, -0.852071, -1.201332, -1.739773, -1.240577, -1.332433], [-0.266341, -0.428344, -1.691272, -1.368489, -1.441039, -1.261579]], [[0.410774, -0.32264, 0.273792, -0.045258, 0.136809, 0.232123], [0.829784, -0.008828, 0.616997, 0.09535, 0.404209, 0.199527], [-0.000173, 0.509505, -0.137156, 0.786886, 0.549917, 0.10445], [0.191421, 0.303705, -0.021366, 0.407882, -0.08068, 0.272541], [0.412934, 0.381831, 0.410774, -0.32264, 0.273792, -0.045258], [-0.293468, 0.376719, 0.829784, -0.008828, 0.616997, 0.09535]]], [[[-1.358312, -0.110411, -0.149294, -1.259412, -0.188539, -0.852071], [-0.690339, -0.940848, -0.516575, -0.535255, -0.266341, -0.428344], [-1.201332, -1.739773, -1.240577, -1.332433, -1.279822, -0.925092], [-1.691272, -1.368489, -1.441039, -1.261579, -1.190805, -1.154669], [-1.319067, -0.517751, -1.358312, -0.110411, -0.149294, -1.259412], [-0.940572, -1.047758, -0.690339, -0.940848, -0.516575, -0.535255]], [[-0.137156, 0.786886, 0.549917, 0.10445, 0.412934, 0.381831], [-0.021366, 0.407882, -0.08068, 0.272541, -0.293468, 0.376719], [0.410774, -0.32264, 0.273792, -0.045258, 0.136809, 0.232123], [0.829784, -0.008828, 0.616997, 0.09535, 0.404209, 0.199527], [-0.000173, 0.509505, -0.137156, 0.786886, 0.549917, 0.10445], [0.191421, 0.303705, -0.021366, 0.407882, -0.08068, 0.272541]]]]),
    'conv2d_t_os': np.array([[[[-0.097898, -0.256013, -0.243228, -0.089951], [-0.90493, -0.71425, -0.01803, -0.099411], [0.506267, 0.219018, -0.677463, 0.724548], [0.467991, -0.051933, -0.496591, -0.18182]]], [[[-0.15469, 0.286849, 0.520022, 0.238369], [0.420423, -0.677463, 1.066245, 0.622554], [-0.90493, -0.71425, -0.01803, -0.099411], [0.197631, 0.078546, -0.42145, 0.841482]]]]),
    'conv3d': np.array([[[[[-1.692784], [0.819806]], [[-1.992725], [0.087855]]]]]),
    'conv3d_t': np.array([[[[[-0.37712, -0.770148, -0.439477], [-0.643596, 1.506745, -0.694117], [-0.416632, -0.431702, -1.556649], [-0.909167, -1.73422, -1.301405]], [[-1.094709, -0.268364, -0.837601], [-0.719762, -1.410889, -0.343609], [-0.483538, -0.417151, 0.2361], [-0.453221, -1.410635, -0.941535]], [[-1.144193, -0.69512, -0.886971], [-1.091491, -0.832637, -1.311719], [-0.858778, -0.06754, -1.267646], [0.065497, 0.739419, -1.088583]], [[-0.943304, -0.755158, -0.278117], [-0.682765, -1.043151, -0.334419], [-0.162759, -1.391904, -1.67364], [-1.249376, -0.563151, -0.433817]]]]]),
    'bn': np.array([[[[0.217744, 0.01636, -0.185025], [-0.38641, -0.587794, -0.789179], [-0.990564, 0.217744, 0.01636]], [[0.181465, -0.192235, -0.565935], [-0.939636, -1.313336, 0.928866], [0.555165, 0.181465, -0.192235]]], [[[-0.587794, -0.789179, -0.990564], [0.217744, 0.01636, -0.185025], [-0.38641, -0.587794, -0.789179]], [[-1.313336, 0.928866, 0.555165], [0.181465, -0.192235, -0.565935], [-0.939636, -1.313336, 0.928866]]]]),
    'bn_test': np.array([[[[0.786978, 0.569053, 0.351128], [0.133203, -0.084722, -0.302647], [-0.520573, 0.786978, 0.569053]], [[-0.565457, -0.469221, -0.372985], [-0.27675, -0.180514, -0.757928], [-0.661692, -0.565457, -0.469221]]], [[[-0.084722, -0.302647, -0.520573], [0.786978, 0.569053, 0.351128], [0.133203, -0.084722, -0.302647]], [[-0.180514, -0.757928, -0.661692], [-0.565457, -0.469221, -0.372985], [-0.27675, -0.180514, -0.757928]]]]),
    'ln': np.array([[[[-0.688768, 0.74224, -0.992542], [0.889337, -1.264503, 0.770829], [-1.730496, -0.0428, 1.219588]], [[-0.656685, 0.122662, -0.865587], [1.66956, -1.620698, -0.184236], [0.316384, 0.255737, 0.898257]]], [[[-0.617179, -0.544777, -0.744981], [-0.859877, -0.5416, 0.118884], [-0.329808, 0.623351, 0.552104]], [[-0.571919, 1.250673, -1.094155], [0.278108, -0.990609, 0.503731], [-1.111435, 1.044502, 1.483275]]]]),
    'gn': np.array([[[[0.780111, 0.536282, 0.292452], [0.048623, -0.195206, -0.439035], [-0.682864, 0.780111, 0.536282]], [[0.068936, 0.15395, 0.238963], [0.323976, 0.40899, -0.10109], [-0.016077, 0.068936, 0.15395]]], [[[0.00643, -0.260052, -0.526534], [1.072356, 0.805874, 0.539393], [0.272911, 0.00643, -0.260052]], [[0.346619, -0.057611, 0.00976], [0.077132, 0.144504, 0.211875], [0.279247, 0.346619, -0.057611]]]]),
    'inn': np.array([[[[0.551178, 0.282435, 0.013692], [-0.255051, -0.523794, -0.792536], [-1.061279, 0.551178, 0.282435]], [[0.243576, 0.748973, 1.254369], [1.759766, 2.265163, -0.767218], [-0.261821, 0.243576, 0.748973]]], [[[-0.301556, -0.595265, -0.888975], [0.873283, 0.579573, 0.285864], [-0.007846, -0.301556, -0.595265]], [[1.894374, -0.508739, -0.108221], [0.292298, 0.692817, 1.093336], [1.493855, 1.894374, -0.508739]]]]),
    'emb': np.array([[[0.398959, -0.405126, 0.627596], [0.0, 0.0, 0.0]], [[0.763471, 0.385063, 0.450509], [-0.206989, 0.762206, 0.162546]]]),
    'prelu_c': np.array([[[[0.114217, 0.076145, 0.038072], [-0.0, 0.25, 0.5], [0.75, 0.114217, 0.076145]], [[-0.053197, 0.0, 0.25], [0.5, 0.75, -0.15959], [-0.106393, -0.053197, 0.0]]], [[[0.25, 0.5, 0.75], [0.114217, 0.076145, 0.038072], [-0.0, 0.25, 0.5]], [[0.75, -0.15959, -0.106393], [-0.053197, 0.0, 0.25], [0.5, 0.75, -0.15959]]]]),
    'prelu_e': np.array([[[[0.72121, 0.198425, -0.080087], [-0.0, 0.25, 0.5], [0.75, 0.302577, -0.069965]], [[-0.045436, 0.0, 0.25], [0.5, 0.75, -0.59482], [0.132438, 0.032068, 0.0]]], [[[0.25, 0.5, 0.75], [0.314884, -0.118015, 0.035616], [-0.0, 0.25, 0.5]], [[0.75, -0.111488, -0.153201], [-0.076052, -0.0, 0.25], [0.5, 0.75, -0.587885]]]]),
    'btp': np.array([[-0.064999, -0.37245], [0.455785, -1.576722]]),
    'sn': np.array([[[-0.485354, -0.323569, -0.161785], [0.0, 0.161785, 0.323569]], [[0.161785, 0.323569, 0.485354], [-0.485354, -0.323569, -0.161785]]]),
    'gx': np.array([[[[-0.369696, -0.610698, 0.660314], [0.949821, -0.122432, -0.284472], [0.232799, -0.188214, 0.209814]], [[0.643158, 0.045169, -0.128186], [0.796696, 0.510654, -0.232778], [-0.026494, 0.021219, -0.114119]]], [[[-0.456846, 1.062932, 1.895059], [-1.028572, -0.524065, -0.16273], [-0.948746, 1.275369, 0.770845]], [[0.992946, -0.52262, -0.523819], [-0.253958, 0.479595, 0.157092], [0.587354, 0.143786, -0.322395]]]]),
    'bn_mean': np.array([-0.01, -0.005]),
    'bn_var': np.array([0.732222, 0.733681]),
}


def _build():
    rng = np.random.RandomState(0)

    def A(*shape):
        return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(
            rng.uniform(-1, 1, shape).astype("float32")))
    main, startup = paddle.static.Program(), paddle.static.Program()
    out = {}
    nn = paddle.static.nn
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 2, 3, 3], "float32")
        x.stop_gradient = False
        out["conv2d"] = nn.conv2d(x, 2, 2, padding=1, stride=2, param_attr=A(2, 2, 2, 2),
                                  bias_attr=A(2), act="relu")
        out["conv2d_t"] = nn.conv2d_transpose(x, 2, filter_size=2, stride=2,
                                              param_attr=A(2, 2, 2, 2), bias_attr=A(2))
        out["conv2d_t_os"] = nn.conv2d_transpose(x, 1, output_size=[4, 4],
                                                 param_attr=A(2, 1, 2, 2), bias_attr=False)
        x3 = paddle.reshape(x, [1, 2, 3, 3, 2])
        out["conv3d"] = nn.conv3d(x3, 1, 2, param_attr=A(1, 2, 2, 2, 2), bias_attr=A(1))
        out["conv3d_t"] = nn.conv3d_transpose(x3, 1, filter_size=2, param_attr=A(2, 1, 2, 2, 2),
                                              bias_attr=A(1))
        out["bn"] = nn.batch_norm(x, param_attr=A(2), bias_attr=A(2), name="bn", momentum=0.8)
        out["bn_test"] = nn.batch_norm(x, is_test=True, param_attr=A(2), bias_attr=A(2),
                                       name="bnt")
        out["ln"] = nn.layer_norm(x, begin_norm_axis=2, param_attr=A(9), bias_attr=A(9))
        out["gn"] = nn.group_norm(x, groups=2, param_attr=A(2), bias_attr=A(2))
        out["inn"] = nn.instance_norm(x, param_attr=A(2), bias_attr=A(2))
        ids = paddle.static.data("ids", [2, 2], "int64")
        out["emb"] = nn.embedding(ids, size=[4, 3], padding_idx=-1, param_attr=A(4, 3))
        out["prelu_c"] = nn.prelu(x, "channel", param_attr=A(1, 2, 1, 1))
        out["prelu_e"] = nn.prelu(x, "element", param_attr=A(1, 2, 3, 3))
        a = paddle.reshape(x, [2, 18])[:, :3]
        b = paddle.reshape(x, [2, 18])[:, 3:7]
        out["btp"] = nn.bilinear_tensor_product(a, b, 2, param_attr=A(2, 3, 4),
                                                bias_attr=A(1, 2))
        w = paddle.reshape(x, [2, 18])[:, :6]
        sn = nn.spectral_norm(paddle.reshape(w, [2, 2, 3]), dim=1, power_iters=30)
        out["sn"] = sn
        total = sum(paddle.mean(v * v) for k, v in out.items() if k not in ("emb", "sn"))
        (gx,) = paddle.static.gradients(total, [x])
        out["g_sn"] = paddle.static.gradients(paddle.mean(sn * sn), [x])[0]
        out["gx"] = gx
    return main, startup, out


X = (np.arange(36, dtype="float32").reshape(2, 2, 3, 3) % 7 - 3) / 4


def _run():
    main, startup, out = _build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    ids = np.array([[0, 3], [2, 1]], "int64")
    names = list(out)
    res = dict(zip(names, exe.run(main, feed={"x": X, "ids": ids},
                                  fetch_list=[out[n] for n in names])))
    res["bn_mean"], res["bn_var"] = exe.run(main, feed={"x": X, "ids": ids},
                                            fetch_list=["bn.w_1", "bn.w_2"])
    return res


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def test_layers_match_paddle(static_mode):
    got = _run()
    for name, expected in PADDLE.items():
        assert got[name].shape == expected.shape, name
        np.testing.assert_allclose(got[name], expected, rtol=1e-4, atol=1e-5, err_msg=name)


def test_spectral_norm_gradient(static_mode):
    def loss(x):
        w = x.reshape(2, 18)[:, :6].reshape(2, 2, 3)
        sigma = np.linalg.svd(w.transpose(1, 0, 2).reshape(2, 6), compute_uv=False)[0]
        return np.mean((w / sigma) ** 2)
    xv = X.astype("float64")
    expected = np.zeros_like(xv)
    for i in np.ndindex(xv.shape):
        step = np.zeros_like(xv)
        step[i] = 1e-6
        expected[i] = (loss(xv + step) - loss(xv - step)) / 2e-6
    np.testing.assert_allclose(_run()["g_sn"], expected, atol=2e-5)


def test_parameter_names_are_paddles(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    nn = paddle.static.nn
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3, 5, 5], "float32")
        nn.conv2d(x, 4, 3)
        nn.batch_norm(x)
        nn.layer_norm(x)
        nn.prelu(x, "channel")
        nn.embedding(paddle.static.data("ids", [2], "int64"), [10, 3])
        nn.conv2d_transpose(x, 2, filter_size=3, name="up")
    shapes = {p.name: p.shape for p in main.all_parameters()}
    patterns = {r"conv2d_\d+\.w_0": [4, 3, 3, 3], r"conv2d_\d+\.b_0": [4],
                r"batch_norm_\d+\.w_0": [3], r"batch_norm_\d+\.b_0": [3],
                r"batch_norm_\d+\.w_1": [3], r"batch_norm_\d+\.w_2": [3],
                r"layer_norm_\d+\.w_0": [75], r"layer_norm_\d+\.b_0": [75],
                r"prelu_\d+\.w_0": [1, 3, 1, 1], r"embedding_\d+\.w_0": [10, 3],
                r"up\.w_0": [3, 2, 3, 3], r"up\.b_0": [2]}
    for pattern, shape in patterns.items():
        found = [n for n in shapes if re.fullmatch(pattern, n)]
        assert len(found) == 1 and shapes[found[0]] == shape, (pattern, shapes)
    moving = [p for p in main.all_parameters() if re.fullmatch(r"batch_norm_\d+\.w_[12]", p.name)]
    assert all(not p.trainable for p in moving)
    exe = paddle.static.Executor()
    exe.run(startup)
    scope = paddle.static.global_scope()
    conv_w = np.array(scope.find_var(next(n for n in shapes if re.fullmatch(
        r"conv2d_\d+\.w_0", n))).get_tensor())
    assert abs(conv_w.std() - math.sqrt(2 / 27)) < 0.05     # Normal(0, sqrt(2 / (k*k*C)))


def test_errors(static_mode):
    nn = paddle.static.nn
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2, 3, 5, 5], "float32")
        with pytest.raises(ValueError, match="conv2d.*divisible by groups=2"):
            nn.conv2d(x, 4, 3, groups=2)
        with pytest.raises(ValueError, match="conv2d.*4 dimensions"):
            nn.conv2d(paddle.static.data("v", [2, 3], "float32"), 4, 3)
        with pytest.raises(ValueError, match="prelu.*'mode'"):
            nn.prelu(x, "row")
        with pytest.raises(ValueError, match="group_norm.*divisible"):
            nn.group_norm(x, groups=2)
        with pytest.raises(ValueError, match="layer_norm.*begin_norm_axis"):
            nn.layer_norm(x, begin_norm_axis=4)
        with pytest.raises(TypeError, match="embedding.*'size'"):
            nn.embedding(paddle.static.data("i", [2], "int64"), 10)
        with pytest.raises(ValueError, match="conv2d_transpose.*filter_size or output_size"):
            nn.conv2d_transpose(x, 2)
        with pytest.raises(ValueError, match="unknown activation"):
            nn.conv2d(x, 2, 1, act="nope")
    assert main.all_parameters() == []


def test_tensor_input_is_refused():
    with pytest.raises(RuntimeError, match="static.nn.conv2d.*Tensor"):
        paddle.static.nn.conv2d(paddle.ones([1, 1, 2, 2]), 1, 1)


def test_small_model_trains(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    nn = paddle.static.nn
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 1, 4, 4], "float32")
        label = paddle.static.data("label", [-1, 1], "float32")
        h = nn.conv2d(x, 2, 3, padding=1, act="relu")
        h = nn.batch_norm(h)
        h = nn.layer_norm(h)
        y = nn.fc(h, 1)
        loss = paddle.mean((y - label) ** 2)
        paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    rng = np.random.RandomState(1)
    xs = rng.rand(8, 1, 4, 4).astype("float32")
    ys = xs.mean(axis=(1, 2, 3)).reshape(8, 1)
    losses = [exe.run(main, feed={"x": xs, "label": ys}, fetch_list=[loss])[0]
              for _ in range(30)]
    assert losses[-1] < 0.5 * losses[0]


# ------------------------------------------- saving, loading, small helpers
def _trained_model():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 3], "float32")
        h = paddle.static.nn.fc(x, 4, activation="relu", name="h")
        h = paddle.static.nn.batch_norm(h, name="bn_io")
        y = paddle.static.nn.cond(paddle.mean(x) > 0, lambda: h * 2.0, lambda: h - 1.0)
        out = paddle.static.nn.fc(y, 1, name="out")
        loss = paddle.mean(out * out)
        paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    exe = paddle.static.Executor()
    exe.run(startup)
    xs = np.random.RandomState(0).rand(4, 3).astype("float32")
    for _ in range(3):
        exe.run(main, feed={"x": xs}, fetch_list=[loss])
    return main, startup, exe, x, out, xs


def test_save_load_roundtrip(static_mode, tmp_path):
    main, startup, exe, x, out, xs = _trained_model()
    test_program = main.clone(for_test=True)
    expected = exe.run(test_program, feed={"x": xs}, fetch_list=[out])[0]
    path = str(tmp_path / "model")
    paddle.static.save(main, path)
    state = paddle.static.load_program_state(path)
    assert {"h.w_0", "h.b_0", "bn_io.w_1", "bn_io.w_2", "out.w_0"} <= set(state)
    exe.run(startup)                                   # forget the trained values
    assert not np.allclose(exe.run(test_program, feed={"x": xs}, fetch_list=[out])[0],
                           expected)
    paddle.static.load(main, path, exe)
    np.testing.assert_allclose(exe.run(test_program, feed={"x": xs}, fetch_list=[out])[0],
                               expected, rtol=1e-6)
    exe.run(startup)
    paddle.static.set_program_state(main, state)
    np.testing.assert_allclose(exe.run(test_program, feed={"x": xs}, fetch_list=[out])[0],
                               expected, rtol=1e-6)
    with pytest.raises(ValueError, match="shape"):
        paddle.static.set_program_state(main, {"h.w_0": np.zeros([2, 2], "float32")})


def test_parameter_files_are_pickled_dicts_of_arrays(static_mode, tmp_path):
    # Paddle's static.save writes the .pdparams file as a pickled {name: ndarray}; a
    # file in that form loads, and the file pylayer writes has that form.
    import pickle
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 2], "float32")
        y = paddle.static.nn.fc(x, 1, name="pk")
    exe = paddle.static.Executor()
    exe.run(startup)
    path = str(tmp_path / "m")
    with open(path + ".pdparams", "wb") as f:
        pickle.dump({"pk.w_0": np.array([[1.0], [2.0]], "float32"),
                     "pk.b_0": np.array([0.5], "float32")}, f, protocol=4)
    paddle.static.load(main, path)
    got = exe.run(main, feed={"x": np.array([[1., 1.]], "float32")}, fetch_list=[y])[0]
    np.testing.assert_array_equal(got, [[3.5]])
    paddle.static.save(main, path)
    with open(path + ".pdparams", "rb") as f:
        saved = pickle.load(f)
    assert set(saved) == {"pk.w_0", "pk.b_0"} and isinstance(saved["pk.w_0"], np.ndarray)


def test_inference_model_with_control_flow(static_mode, tmp_path):
    main, startup, exe, x, out, xs = _trained_model()
    expected = exe.run(main.clone(for_test=True), feed={"x": xs}, fetch_list=[out])[0]
    prefix = str(tmp_path / "infer" / "model")
    paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    exe.run(startup)
    program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    assert feeds == ["x"]
    types = [op.type for op in program.global_block().ops]
    assert "cond" in types and "adam" not in types and "gradients" not in types
    np.testing.assert_allclose(exe.run(program, feed={"x": xs}, fetch_list=fetches)[0],
                               expected, rtol=1e-6)
    with pytest.raises(ValueError, match="not a program saved by pylayer"):
        paddle.static.deserialize_program(b"\x08\x01protobuf")


def test_create_global_var(static_mode):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        g = paddle.static.create_global_var([2, 2], 3.0, "int32", persistable=True, name="gv")
        h = paddle.static.create_global_var([1], 0.5, "float32")
        y = h * 2.0
        with pytest.raises(TypeError, match="create_global_var.*'dtype'"):
            paddle.static.create_global_var([1], 0, "complex64")
        with pytest.raises(TypeError, match="create_global_var.*'shape'"):
            paddle.static.create_global_var(3, 0, "float32")
    # Paddle: name, shape and dtype as given, persistable as given, stop_gradient True
    assert (g.name, g.shape, g.dtype, g.persistable, g.stop_gradient) == \
        ("gv", [2, 2], paddle.int32, True, True)
    assert h.name.startswith("_generated_var") and not h.persistable
    exe = paddle.static.Executor()
    exe.run(startup)
    gv, yv = exe.run(main, fetch_list=[g, y])
    np.testing.assert_array_equal(gv, np.full([2, 2], 3, "int32"))
    np.testing.assert_array_equal(yv, [1.0])


def test_create_global_var_dynamic():
    t = paddle.static.create_global_var([2], 1.5, "float32")
    assert isinstance(t, paddle.Tensor) and t.numpy().tolist() == [1.5, 1.5]


def test_print(static_mode, capsys):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        d = paddle.static.data("d", [2, 3], "float32")
        d.stop_gradient = False
        p = paddle.static.Print(d, message="msg", summarize=4, first_n=1,
                                print_phase="forward")
        q = paddle.static.Print(paddle.sum(p * p), print_phase="backward",
                                print_tensor_lod=False)
        (g,) = paddle.static.gradients(q, [d])
    assert capsys.readouterr().out == ""
    exe = paddle.static.Executor()
    feed = {"d": np.arange(6, dtype="float32").reshape(2, 3)}
    got = exe.run(main, feed=feed, fetch_list=[p, g])
    np.testing.assert_array_equal(got[0], feed["d"])
    np.testing.assert_array_equal(got[1], 2 * feed["d"])
    printed = capsys.readouterr().out
    # Paddle 3.3.1 prints exactly these lines for the first op
    assert printed.startswith("Variable: d\n  - message: msg\n  - lod: {}\n  - place: "
                              "Place(cpu)\n  - shape: [2, 3]\n  - layout: NCHW\n"
                              "  - dtype: float32\n  - data: [0.000000 1.000000 2.000000 "
                              "3.000000]\n")
    assert "@GRAD" in printed
    exe.run(main, feed=feed, fetch_list=[p])
    assert "Variable: d\n" not in capsys.readouterr().out       # first_n=1


def test_print_errors():
    with pytest.raises(RuntimeError, match="Print.*enable_static"):
        paddle.static.Print(paddle.ones([2]))


def test_accuracy_matches_paddle(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        scores = paddle.static.data("scores", [4, 3], "float32")
        label = paddle.static.data("label", [4, 1], "int64")
        acc1 = paddle.static.accuracy(scores, label, k=1)
        acc2 = paddle.static.accuracy(scores, label, k=2)
    feed = {"scores": np.array([[0.1, 0.5, 0.4], [0.7, 0.2, 0.1], [0.3, 0.3, 0.4],
                                [0.2, 0.6, 0.2]], "float32"),
            "label": np.array([[1], [0], [0], [2]], "int64")}
    got = paddle.static.Executor().run(main, feed=feed, fetch_list=[acc1, acc2])
    assert [float(v) for v in got] == [0.5, 0.75]     # Paddle 3.3.1's values
    assert got[0].dtype == np.float32 and got[0].shape == ()


def test_exponential_moving_average(static_mode):
    # Paddle 3.3.1's ExponentialMovingAverage crashes while building (in both IRs);
    # the values follow its documented rule: ema = d*ema + (1-d)*param after each
    # update, applied as ema / (1 - d**steps).
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 1], "float32")
        one = paddle.ParamAttr(initializer=paddle.nn.initializer.Constant(1.0))
        y = paddle.static.nn.fc(x, 1, weight_attr=one, bias_attr=False, name="ema_w")
        paddle.optimizer.SGD(learning_rate=1.0).minimize(paddle.mean(y))
        ema = paddle.static.ExponentialMovingAverage(0.9)
        ema.update()
    exe = paddle.static.Executor()
    exe.run(startup)
    scope = paddle.static.global_scope()
    value = lambda: float(np.array(scope.find_var("ema_w.w_0").get_tensor()).item())
    average, params = 0.0, []
    for step in range(1, 4):
        exe.run(main, feed={"x": np.ones([1, 1], "float32")})
        params.append(value())
        average = 0.9 * average + 0.1 * params[-1]
        with ema.apply(exe):
            assert value() == pytest.approx(average / (1 - 0.9 ** step), rel=1e-5)
        assert value() == params[-1]
    with ema.apply(exe, need_restore=False):
        pass
    assert value() != params[-1]
    ema.restore(exe)
    assert value() == params[-1]
    with pytest.raises(TypeError, match="apply.*'executor'"):
        ema.apply(None)


def test_ema_needs_static_mode():
    with pytest.raises(RuntimeError, match="ExponentialMovingAverage.*static"):
        paddle.static.ExponentialMovingAverage()


def test_places_scopes_and_guards(static_mode, monkeypatch):
    assert paddle.static.cpu_places(3) == [paddle.CPUPlace()] * 3
    monkeypatch.delenv("CPU_NUM", raising=False)
    assert len(paddle.static.cpu_places()) == 1
    monkeypatch.setenv("CPU_NUM", "2")
    assert len(paddle.static.cpu_places()) == 2
    with pytest.raises(ValueError, match="cpu_places.*device_count"):
        paddle.static.cpu_places(0)
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        with paddle.static.name_scope("outer"), paddle.static.name_scope("inner"):
            paddle.exp(x)
        with paddle.static.device_guard("cpu"):
            paddle.tanh(x)
    assert [op.namescope for op in main.global_block().ops] == ["/outer/inner/", "/"]
    with pytest.raises(ValueError, match="device_guard.*CPU only"):
        paddle.static.device_guard("gpu:0")


def test_shapes_that_depend_on_values(static_mode):
    # Paddle 3.3.1's build-time shapes: a size given by a Variable (in reshape's
    # shape, or concat's axis) is -1, never the size of a made-up value.
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [-1, 6], "float32")
        x.stop_gradient = False
        fixed = paddle.static.data("fixed", [4, 6], "float32")
        n = paddle.static.data("n", [1], "int32")
        m = paddle.static.data("m", [1], "int32")
        k = paddle.static.data("k", [1], "int32")
        j = paddle.static.data("j", [1], "int32")
        axis = paddle.static.data("axis", [1], "int64")
        shapes = {
            "n_minus1": paddle.reshape(x, [n, -1]),
            "n_3": paddle.reshape(fixed, [n, 3]),
            "2_m": paddle.reshape(fixed, [2, m]),
            "0_m": paddle.reshape(fixed, [0, k]),
            "tensor": paddle.reshape(fixed, paddle.concat([n, j])),
            "concat": paddle.concat([x, x], axis=axis),
            "concat_fixed": paddle.concat([fixed, fixed], axis=axis),
        }
        (grad,) = paddle.static.gradients(paddle.sum(shapes["n_minus1"] ** 2), [x])
    assert {k: v.shape for k, v in shapes.items()} == {
        "n_minus1": [-1, -1], "n_3": [-1, 3], "2_m": [2, -1], "0_m": [4, -1],
        "tensor": [-1, -1], "concat": [-1, -1], "concat_fixed": [-1, -1]}
    exe = paddle.static.Executor()
    feed = {"x": np.ones([4, 6], "float32"), "fixed": np.ones([4, 6], "float32"),
            "n": np.array([8], "int32"), "m": np.array([12], "int32"),
            "k": np.array([6], "int32"), "j": np.array([3], "int32"), "axis": np.array([1])}
    got = exe.run(main, feed=feed, fetch_list=[shapes["n_minus1"], shapes["n_3"],
                                               shapes["tensor"], shapes["concat"], grad])
    assert [list(a.shape) for a in got] == [[8, 3], [8, 3], [8, 3], [4, 12], [4, 6]]
    np.testing.assert_array_equal(got[-1], np.full([4, 6], 2.0, "float32"))


def test_auc_matches_paddle(static_mode):
    # Recorded from Paddle 3.3.1 (old IR, FLAGS_enable_pir_api=0) for the same program
    # and batches: [auc, batch_auc] for num_thresholds=100 (slide_steps 1), 7 with
    # slide_steps=2, and 7 with slide_steps=0.
    paddle_values = [
        [0.61111111, 0.61111111, 0.61111111, 0.61111111, 0.61111111, 0.61111111],
        [0.84285714, 1.0, 0.85714286, 0.85714286, 0.85714286, 0.85714286],
        [0.85064935, 0.875, 0.86363636, 0.953125, 0.86363636, 0.86363636],
        [0.79861111, 0.5, 0.81944444, 0.75714286, 0.81944444, 0.81944444]]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        probs = paddle.static.data("probs", [-1, 2], "float32")
        label = paddle.static.data("label", [-1, 1], "int64")
        a1, b1, _ = paddle.static.auc(probs, label, num_thresholds=100)
        a2, b2, _ = paddle.static.auc(probs, label, num_thresholds=7, slide_steps=2)
        a3, b3, stats = paddle.static.auc(probs, label, num_thresholds=7, slide_steps=0)
    assert [s.persistable for s in stats] == [True] * 4 and stats[2].shape == [8]
    exe = paddle.static.Executor()
    exe.run(startup)
    rng = np.random.RandomState(0)
    for step, expected in enumerate(paddle_values):
        p = rng.rand(6).astype("float32")
        lab = (rng.rand(6) < p).astype("int64").reshape(6, 1)
        if step == 0:
            p = np.array([0.1, 0.8, 0.4, 0.7, 0.5, 0.5], "float32")
            lab = np.array([[0], [1], [1], [0], [1], [0]])
        got = exe.run(main, feed={"probs": np.stack([1 - p, p], 1), "label": lab},
                      fetch_list=[a1, b1, a2, b2, a3, b3])
        np.testing.assert_allclose([float(v) for v in got], expected, atol=1e-7)
    with pytest.raises(ValueError, match="auc.*'curve'"):
        paddle.static.auc(probs, label, curve="PR")


def test_auc_needs_static_mode():
    with pytest.raises(RuntimeError, match="auc.*metric.Auc"):
        paddle.static.auc(paddle.ones([2, 2]), paddle.ones([2, 1], "int64"))


def test_compiled_program_and_build_strategy(static_mode):
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2], "float32")
        y = paddle.exp(x)
    strategy = paddle.static.BuildStrategy()
    # Paddle 3.3.1's defaults and checks
    assert strategy.enable_inplace is True and strategy.fuse_bn_act_ops is False
    assert strategy.reduce_strategy == paddle.static.BuildStrategy.ReduceStrategy.AllReduce
    strategy.fuse_elewise_add_act_ops = True
    with pytest.raises(AttributeError, match="not_a_flag"):
        strategy.not_a_flag = 3
    with pytest.raises(TypeError, match="enable_inplace"):
        strategy.enable_inplace = "x"
    compiled = paddle.static.CompiledProgram(main, build_strategy=strategy)
    got = paddle.static.Executor().run(compiled, feed={"x": np.zeros(2, "float32")},
                                       fetch_list=[y])
    np.testing.assert_array_equal(got[0], [1., 1.])
    with pytest.raises(TypeError, match="CompiledProgram.*'program_or_graph'"):
        paddle.static.CompiledProgram("x")


def test_ctr_metric_bundle_matches_paddle(static_mode):
    # Recorded from Paddle 3.3.1 (old IR) for the same program and two runs; the
    # second run has ins_tag_weight 0 (fake data) for the weighted bundle.
    paddle_values = [[0.3225, 0.85, 1.65, 1.895585, 2.0, 3.0] * 2,
                     [0.645, 1.7, 3.3, 3.791171, 4.0, 6.0, 0.645, 1.7, 3.3, 1.895585, 4.0, 3.0]]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        pred = paddle.static.data("pred", [-1, 1], "float32")
        label = paddle.static.data("label", [-1, 1], "float32")
        w = paddle.static.data("w", [-1, 1], "float32")
        sums = list(paddle.static.ctr_metric_bundle(pred, label))
        sums += list(paddle.static.ctr_metric_bundle(pred, label, w))
        with pytest.raises(ValueError, match="ctr_metric_bundle.*same shape"):
            paddle.static.ctr_metric_bundle(pred, w[:2])
    exe = paddle.static.Executor()
    exe.run(startup)
    for step, expected in enumerate(paddle_values):
        feed = {"pred": np.array([[0.5], [0.25], [0.9]], "float32"),
                "label": np.array([[1.0], [0.0], [1.0]], "float32"),
                "w": np.full([3, 1], 0.0 if step else 1.0, "float32")}
        got = exe.run(main, feed=feed, fetch_list=sums)
        np.testing.assert_allclose([v.item() for v in got], expected, rtol=1e-6)


def test_row_conv_matches_paddle(static_mode):
    # Recorded from Paddle 3.3.1 (old IR, where row_conv exists) for this program.
    out_paddle = [[[0.006446, -0.240451, 0.114084], [-0.080423, -0.231189, -0.335367],
                   [0.027295, 0.101443, -0.028746], [0.064993, -0.279297, -0.068402]],
                  [[-0.101106, 0.614874, -0.447203], [0.006446, -0.240451, 0.114084],
                   [0.00262, 0.279297, -0.039734], [-0.032531, 0.0, 0.068402]]]
    grad_paddle = [[[5.2e-05, -0.008125, 0.001929], [-0.000602, -0.004966, -0.00236],
                    [-0.000443, -0.008407, 0.000972], [0.001562, -0.024802, -0.024866]],
                   [[-0.000814, 0.013715, -0.006128], [-0.000696, -0.012991, -0.006771],
                    [0.001111, 0.037088, -0.025589], [-0.000312, -0.018069, 0.008903]]]
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 4, 3], "float32")
        x.stop_gradient = False
        rng = np.random.RandomState(0)
        w = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(
            rng.uniform(-1, 1, (3, 3)).astype("float32")))
        y = paddle.static.nn.row_conv(x, 2, param_attr=w, act="tanh")
        (g,) = paddle.static.gradients(paddle.mean(y * y), [x])
    assert [p.shape for p in main.all_parameters()] == [[3, 3]] and y.shape == [2, 4, 3]
    exe = paddle.static.Executor()
    exe.run(startup)
    xv = (np.arange(24, dtype="float32").reshape(2, 4, 3) % 5 - 2) / 3
    got = exe.run(main, feed={"x": xv}, fetch_list=[y, g])
    np.testing.assert_allclose(got[0], out_paddle, atol=2e-6)
    np.testing.assert_allclose(got[1], grad_paddle, atol=2e-6)


def test_weight_norm_param_attr(static_mode):
    # Paddle 3.3.1 (old IR) for this program: parameters wn_g [1, 1], wn_v [3, 4],
    # wn1_g [1, 4], wn1_v [3, 4]; y and y2 equal x @ W at the start; these g values.
    # (Paddle's minimize fails on such a program; pylayer's trains.)
    weight = np.arange(12, dtype="float32").reshape(3, 4) / 10
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        init = paddle.nn.initializer.Assign(weight)
        y = paddle.static.nn.fc(x, 4, bias_attr=False, weight_attr=paddle.static.
                                WeightNormParamAttr(dim=None, name="wn", initializer=init))
        y2 = paddle.static.nn.fc(x, 4, bias_attr=False, weight_attr=paddle.static.
                                 WeightNormParamAttr(dim=1, name="wn1", initializer=init))
        loss = paddle.mean(y * y) + paddle.mean(y2 * y2)
        paddle.optimizer.SGD(0.01).minimize(loss)
    assert sorted((p.name, p.shape) for p in main.all_parameters()) == [
        ("wn1_g", [1, 4]), ("wn1_v", [3, 4]), ("wn_g", [1, 1]), ("wn_v", [3, 4])]
    exe = paddle.static.Executor()
    exe.run(startup)
    xv = np.arange(6, dtype="float32").reshape(2, 3)
    test_program = main.clone(for_test=True)
    got = exe.run(test_program, feed={"x": xv}, fetch_list=[y, y2, "wn_g", "wn1_g"])
    expected = [[2.0, 2.3, 2.6, 2.9], [5.6, 6.8, 8.0, 9.2]]
    np.testing.assert_allclose(got[0], expected, rtol=1e-5)
    np.testing.assert_allclose(got[1], expected, rtol=1e-5)
    np.testing.assert_allclose(got[2], [[2.2494442]], rtol=1e-6)
    np.testing.assert_allclose(got[3], [[0.89442724, 1.034408, 1.183216, 1.3379087]],
                               rtol=1e-6)
    losses = [exe.run(main, feed={"x": xv}, fetch_list=[loss])[0] for _ in range(5)]
    assert losses[-1] < losses[0]


def test_weight_norm_param_attr_needs_static_mode():
    with pytest.raises(RuntimeError, match="WeightNormParamAttr.*enable_static"):
        paddle.nn.Linear(3, 2, weight_attr=paddle.static.WeightNormParamAttr(dim=0))
    with pytest.raises(TypeError, match="WeightNormParamAttr.*'dim'"):
        paddle.static.WeightNormParamAttr(dim="0")
