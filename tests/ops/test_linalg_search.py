"""addmm, bmm, einsum, argsort, sort, topk, bernoulli beyond what the op database
checks for every op (tests/ops/opinfo.py): Paddle 3.3.1's outcomes, ties, the shapes
Paddle refuses, with backward and double backward by central differences."""
import numpy as np
import pytest

import pylayer
from pylayer.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(0)


def leaf(*shape):
    return pylayer.to_tensor(RNG.standard_normal(shape), dtype="float64", stop_gradient=False)


def check_grads(fn, *inputs):
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)


# -------------------------------------------------------------------- addmm
@pytest.mark.parametrize("shapes", [([2, 2], [3, 4], [4, 2]), ([3, 2], [2, 3, 4], [2, 4, 2]),
                                    ([3, 2], [3, 4], [3, 2])])
def test_addmm_refuses_shapes_paddle_refuses(shapes):
    with pytest.raises(ValueError, match="addmm"):
        pylayer.addmm(*(pylayer.ones(s) for s in shapes))


# ---------------------------------------------------------------------- bmm
@pytest.mark.parametrize("shapes", [([1, 3, 4], [2, 4, 5]), ([3, 4], [4, 5]),
                                    ([2, 3, 4], [2, 3, 5])])
def test_bmm_refuses_batches_that_differ_and_other_ranks(shapes):
    with pytest.raises(ValueError, match="bmm"):
        pylayer.bmm(*(pylayer.ones(s) for s in shapes))


# ------------------------------------------------------------------- einsum
def test_einsum_broadcasts_size_1_dimensions_as_paddle_does():
    # Paddle 3.3.1: einsum("i,i", ones([1]), ones([4])) == 4.0
    a, b = leaf(1), leaf(4)
    out = pylayer.einsum("i,i", a, b)
    np.testing.assert_allclose(out.numpy(), a.numpy()[0] * b.numpy().sum())
    check_grads(lambda s, t: pylayer.einsum("i,i->i", s, t), a, b)
    check_grads(lambda s, t: pylayer.einsum("ij,ij->", s, t), leaf(1, 3), leaf(2, 3))


def test_einsum_accepts_a_list_of_operands():
    a, b = leaf(2, 3), leaf(3, 2)
    np.testing.assert_allclose(pylayer.einsum("ij,jk", [a, b]).numpy(), a.numpy() @ b.numpy())


@pytest.mark.parametrize("equation,shapes,match", [
    ("ij,jk->ik", [(3, 4), (3, 2)], "sizes"),
    ("ij->ik", [(3, 4)], "output"),
    ("ij,jk->ik", [(3, 4)], "operands"),
    ("ijk->", [(3, 4)], "'equation'.*does not fit"),
    ("i1->i", [(3, 4)], "letters"),
])
def test_einsum_refuses_bad_equations(equation, shapes, match):
    with pytest.raises(ValueError, match=f"einsum.*{match}"):
        pylayer.einsum(equation, *[pylayer.ones(s) for s in shapes])


def test_einsum_refuses_mixed_dtypes_as_paddle_does():
    with pytest.raises(TypeError, match="einsum.*same dtype"):
        pylayer.einsum("ij,j->i", pylayer.ones([2, 2]), pylayer.ones([2], dtype="float64"))


# ------------------------------------------------------------------ sorting
X = [[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 5.0, -1.0]]


def test_argsort_results_recorded_from_paddle():
    x = pylayer.to_tensor(X)
    assert pylayer.argsort(x).numpy().tolist() == [[1, 3, 2, 0], [3, 0, 1, 2]]
    assert pylayer.argsort(x, descending=True).numpy().tolist() == [[0, 2, 1, 3], [1, 2, 0, 3]]
    assert pylayer.argsort(x, axis=0).numpy().tolist() == [[1, 0, 0, 1], [0, 1, 1, 0]]
    assert pylayer.argsort(x).dtype == pylayer.int64
    nan = pylayer.to_tensor([1.0, float("nan"), 2.0])
    assert pylayer.argsort(nan).numpy().tolist() == [0, 2, 1]
    assert pylayer.argsort(nan, descending=True).numpy().tolist() == [1, 2, 0]
    assert pylayer.argsort(pylayer.to_tensor(3.0)).shape == []


def test_sort_forward_and_grads():
    x = pylayer.to_tensor(X)
    assert pylayer.sort(x, axis=1, descending=True).numpy().tolist() == [
        [3.0, 2.0, 1.0, 1.0], [5.0, 5.0, 0.0, -1.0]]
    t = leaf(3, 5)
    np.testing.assert_array_equal(pylayer.sort(t, axis=0).numpy(), np.sort(t.numpy(), axis=0))
    check_grads(lambda a: pylayer.sort(a, axis=0), t)
    check_grads(lambda a: pylayer.sort(a, descending=True), t)


def test_topk_results_recorded_from_paddle():
    x = pylayer.to_tensor(X)
    values, indices = pylayer.topk(x, 2)
    assert values.numpy().tolist() == [[3.0, 2.0], [5.0, 5.0]]
    assert indices.numpy().tolist() == [[0, 2], [1, 2]]
    values, indices = pylayer.topk(x, 2, axis=0)
    assert indices.numpy().tolist() == [[0, 1, 1, 0], [1, 0, 0, 1]]
    values, indices = pylayer.topk(x, 2, largest=False)
    assert values.numpy().tolist() == [[1.0, 1.0], [-1.0, 0.0]]
    assert indices.numpy().tolist() == [[1, 3], [3, 0]]
    values, indices = pylayer.topk(pylayer.to_tensor([1.0, float("nan"), 2.0]), 2)
    assert indices.numpy().tolist() == [1, 2]
    assert pylayer.topk(pylayer.to_tensor([1.0, 2.0]), pylayer.to_tensor(1))[0].numpy() == [2.0]


def test_topk_grads_and_errors():
    t = leaf(3, 5)
    check_grads(lambda a: pylayer.topk(a, 3)[0], t)
    check_grads(lambda a: pylayer.topk(a, 2, axis=0, largest=False)[0], t)
    with pytest.raises(ValueError, match="topk.*'k'"):
        pylayer.topk(t, 6)
    with pytest.raises(TypeError, match="topk.*'k'"):
        pylayer.topk(t, 1.5)


# ---------------------------------------------------------------- bernoulli
def test_bernoulli_draws_zeros_and_ones_with_the_given_chances():
    pylayer.seed(7)
    x = pylayer.full([20000], 0.3)
    sample = pylayer.bernoulli(x)
    assert sample.dtype == pylayer.float32 and sample.stop_gradient
    assert set(np.unique(sample.numpy())) <= {0.0, 1.0}
    assert abs(sample.numpy().mean() - 0.3) < 0.02
    assert pylayer.bernoulli(pylayer.to_tensor([0.0, 1.0])).numpy().tolist() == [0.0, 1.0]
    assert pylayer.bernoulli(x, p=0.0).numpy().sum() == 0
    pylayer.seed(3)
    first = pylayer.bernoulli(x).numpy()
    pylayer.seed(3)
    np.testing.assert_array_equal(first, pylayer.bernoulli(x).numpy())


def test_bernoulli_refuses_bad_probabilities_and_integer_input():
    with pytest.raises(ValueError, match="bernoulli.*'x'"):
        pylayer.bernoulli(pylayer.to_tensor([0.0, 1.5]))
    with pytest.raises(ValueError, match="bernoulli.*'x'"):
        pylayer.bernoulli(pylayer.to_tensor([float("nan")]))
    with pytest.raises(ValueError, match="bernoulli.*'p'"):
        pylayer.bernoulli(pylayer.ones([2]), p=2.0)
    with pytest.raises(TypeError, match="bernoulli.*'x'"):
        pylayer.bernoulli(pylayer.to_tensor([0, 1]))


# ------------------------------------------------------------- static mode
@pytest.mark.parametrize("build", [
    lambda x: pylayer.addmm(pylayer.ones([3]), x, pylayer.ones([3, 3])),
    lambda x: pylayer.einsum("ij,kj->ik", x, x),
    lambda x: pylayer.sort(x, axis=1),
    lambda x: pylayer.topk(x, 2)[0],
    lambda x: pylayer.take_along_axis(x, pylayer.to_tensor([[0], [1]]), 1),
    lambda x: pylayer.masked_fill(x, pylayer.to_tensor([True, False, True]), 0.0),
])
def test_new_ops_record_into_a_static_program(build):
    from pylayer import static
    data = np.arange(6.0, dtype="float32").reshape(2, 3)
    want = build(pylayer.to_tensor(data)).numpy()
    pylayer.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [2, 3], "float32")
            y = build(x)
        assert type(y).__name__ == "Variable"
        (got,) = static.Executor().run(main, feed={"x": data}, fetch_list=[y])
    finally:
        pylayer.disable_static()
    np.testing.assert_allclose(got, want)
