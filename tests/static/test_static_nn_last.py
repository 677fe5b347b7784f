"""``paddle.static.nn.sparse_embedding`` against Paddle 3.3.1.

``PADDLE_DYNAMIC`` is what the scratch Paddle 3.3.1 (CPU) printed for
``paddle.static.nn.sparse_embedding(paddle.to_tensor(IDS), [10, 4],
padding_idx=9, param_attr=ParamAttr(initializer=Assign(TABLE)),
dtype='float64')`` in dynamic mode (``.numpy().tolist()``). In static mode
Paddle 3.3.1's default (PIR) programs fail inside the function
(``bool(Value)`` on ``input.size``); its old IR (``FLAGS_enable_pir_api=0``)
builds a ``lookup_table`` op whose ids need a last dimension of 1, which is
what pylayer builds. The error rules below are the ones Paddle raised.
"""
import numpy as np
import pytest

import pylayer as paddle

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
