"""Building and reshaping (issue 33): Paddle 3.3.1's call forms, observed values and
errors that the op database cannot express."""
import numpy as np
import pytest

import pylayer


def arange(*shape, dtype="float64"):
    return pylayer.to_tensor(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))


# ------------------------------------------------------------ call forms
def test_reshape_takes_the_shape_as_separate_ints_and_input_by_keyword():
    x = arange(50)
    assert pylayer.reshape(x, 2, 5, 5).shape == [2, 5, 5]
    assert x.reshape(2, 5, 5).shape == [2, 5, 5]
    assert x.reshape(2, -1).shape == [2, 25]
    assert pylayer.reshape(x=x, shape=[2, 25]).shape == [2, 25]
    assert pylayer.reshape(input=x, shape=(2, 25)).shape == [2, 25]


def test_expand_and_broadcast_to_take_input_size_and_separate_ints():
    x = arange(3)
    assert x.expand(2, 3).shape == [2, 3]
    assert pylayer.expand(x, 2, 3).shape == [2, 3]
    assert pylayer.expand(input=x, size=[2, 3]).shape == [2, 3]
    assert pylayer.broadcast_to(input=x, size=[2, 3]).shape == [2, 3]


def test_transpose_swaps_two_axes_given_as_ints_or_dim0_dim1():
    x = arange(2, 1, 3)
    assert pylayer.transpose(x, 0, 2).shape == [3, 1, 2]
    assert pylayer.transpose(x, dim0=0, dim1=2).shape == [3, 1, 2]
    assert pylayer.transpose(input=x, perm=[1, 0, 2]).shape == [1, 2, 3]
    assert x.transpose(0, 1).shape == [1, 2, 3]
    assert pylayer.swapaxes(x, 0, 2).shape == [3, 1, 2]
    assert pylayer.swapaxes(x, [1, 0, 2]).shape == [1, 2, 3]
    assert pylayer.swapaxes(x, axis0=0, axis1=2).shape == [3, 1, 2]
    assert pylayer.swapdims(x, dim0=0, dim1=2).shape == [3, 1, 2]


def test_input_and_dim_keywords_where_paddle_takes_them():
    x = arange(2, 2)
    np.testing.assert_array_equal(pylayer.flatten(input=x, start_dim=0, end_dim=1).numpy(),
                                  x.numpy().ravel())
    assert pylayer.squeeze(input=arange(2, 1), dim=1).shape == [2]
    assert pylayer.unsqueeze(input=arange(2), dim=0).shape == [1, 2]
    assert pylayer.concat(tensors=[x, x], dim=1).shape == [2, 4]
    assert pylayer.stack(tensors=[x, x], dim=0).shape == [2, 2, 2]
    assert len(pylayer.chunk(input=arange(4), chunks=2, dim=0)) == 2
    assert pylayer.tile(input=arange(2), dims=[2]).shape == [4]
    index = pylayer.to_tensor([1])
    assert pylayer.index_select(input=x, index=index, dim=1).shape == [2, 1]
    assert pylayer.gather(input=x, index=index, dim=1).shape == [2, 1]
    assert pylayer.roll(input=arange(3), shifts=1, dims=0).numpy().tolist() == [2, 0, 1]
    assert pylayer.take_along_axis(input=x, indices=pylayer.to_tensor([[0], [1]]),
                                   dim=1).shape == [2, 1]
    assert pylayer.tril(input=x).numpy().tolist() == [[0, 0], [2, 3]]
    assert pylayer.triu(input=x).numpy().tolist() == [[0, 1], [0, 3]]
    assert pylayer.diagonal(input=x, dim1=1, dim2=0).numpy().tolist() == [0, 3]
    assert pylayer.unflatten(input=arange(4), dim=0, sizes=[2, 2]).shape == [2, 2]
    assert pylayer.repeat_interleave(input=arange(2), repeats=2, dim=0).shape == [4]
    assert len(pylayer.tensor_split(input=arange(6), sections=3, dim=0)) == 3
    assert len(pylayer.tensor_split(arange(6), indices=[1, 4])) == 3
    assert len(pylayer.unbind(x, dim=1)) == 2
    assert arange(7).unfold(dimension=0, size=3, step=2).shape == [3, 3]


def test_paddle_refuses_input_where_it_has_no_such_spelling():
    x = arange(2, 2)
    for call in (lambda: pylayer.concat(input=[x]),
                 lambda: pylayer.split(input=x, num_or_sections=2),
                 lambda: pylayer.flip(input=x, axis=0),
                 lambda: pylayer.permute(x=x, dims=[1, 0])):
        with pytest.raises(TypeError):
            call()


def test_variadic_dims_of_permute_view_and_repeat():
    x = arange(2, 3)
    assert pylayer.permute(x, 1, 0).shape == [3, 2]
    assert x.permute(1, 0).shape == [3, 2]
    assert x.view(3, 2).shape == [3, 2]
    assert x.view(size=[6]).shape == [6]
    assert pylayer.to_tensor([1, 2]).repeat(2, 2).numpy().tolist() == [[1, 2, 1, 2]] * 2


def test_einsum_with_a_repeated_output_letter_puts_values_on_a_diagonal():
    x = pylayer.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    out = pylayer.einsum("i->ii", x)
    np.testing.assert_array_equal(out.numpy(), np.diag([1.0, 2.0, 3.0]))
    (out * pylayer.to_tensor(np.arange(9.0, dtype="float32").reshape(3, 3))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 4.0, 8.0])


# ------------------------------------------------ Paddle's observed values
def test_paddle_values_of_splits_diagonals_and_combinations():
    assert [t.numpy().tolist() for t in pylayer.hsplit(pylayer.arange(6), 4)] == \
        [[0, 1], [2, 3], [4], [5]]
    assert [t.shape for t in pylayer.tensor_split(pylayer.arange(7), [5, 2])] == [[5], [0], [5]]
    assert pylayer.diag(pylayer.to_tensor([1, 2]), 1, 9).numpy().tolist() == \
        [[9, 1, 9], [9, 9, 2], [9, 9, 9]]
    assert pylayer.diag(pylayer.to_tensor(3.0)).shape == [1, 1]
    assert pylayer.combinations(pylayer.to_tensor([1, 2, 3]), 4).shape == [0, 4]
    assert pylayer.combinations(pylayer.to_tensor([1, 2, 3]), 0).shape == [0]
    assert pylayer.to_tensor([[1, 2]]).repeat(2).numpy().tolist() == [[1, 2, 1, 2]]
    assert pylayer.cartesian_prod([pylayer.to_tensor([1, 2])]).numpy().tolist() == [1, 2]
    assert pylayer.column_stack([pylayer.to_tensor(1), pylayer.to_tensor(2)]).shape == [1, 2]
    assert pylayer.unfold(pylayer.to_tensor(3.0), 0, 1, 1).shape == [1]
    assert pylayer.triu_indices(3, None, 1).numpy().tolist() == [[0, 0, 1], [1, 2, 2]]
    assert pylayer.broadcast_shape([2, 1, 3], [4, 1]) == [2, 4, 3]
    assert pylayer.broadcast_shapes() == []


def test_errors_name_the_function_and_argument():
    cases = [(lambda: pylayer.tril(pylayer.ones([3])), ValueError, "tril"),
             (lambda: pylayer.diagonal(pylayer.ones([2, 2]), axis1=1, axis2=1), ValueError,
              "diagonal"),
             (lambda: pylayer.narrow(pylayer.arange(10), 0, 8, 5), ValueError, "length"),
             (lambda: pylayer.unfold(pylayer.arange(3.0), 0, 4, 1), ValueError, "size"),
             (lambda: pylayer.unfold(pylayer.arange(3.0), 0, 1, 0), ValueError, "step"),
             (lambda: pylayer.strided_slice(pylayer.arange(4), [0], [0], [2], [0]), ValueError,
              "strides"),
             (lambda: pylayer.tensor_split(pylayer.arange(4), 0), ValueError, "num_or_indices"),
             (lambda: pylayer.add_n([pylayer.ones([2]), pylayer.ones([2, 1])]), ValueError,
              "add_n"),
             (lambda: pylayer.t(pylayer.ones([1, 2, 3])), ValueError, "t()"),
             (lambda: pylayer.moveaxis(pylayer.ones([2, 3]), [0, 0], [1, 0]), ValueError,
              "moveaxis"),
             (lambda: pylayer.ones([2, 3]).t().view([6]), ValueError, "view"),
             (lambda: pylayer.ones([3], dtype="int8").view("float32"), ValueError, "view")]
    for call, error, text in cases:
        with pytest.raises(error, match=text.replace("(", r"\(").replace(")", r"\)")):
            call()


# ----------------------------------------------------- views and gradients
def test_view_ops_share_memory_and_overlapping_windows_refuse_writes():
    x = arange(2, 3)
    pylayer.diagonal(x).fill_(-1.0)
    assert x.numpy()[0, 0] == -1.0 and x.numpy()[1, 1] == -1.0
    for view in (pylayer.narrow(x, 1, 0, 1), pylayer.t(x), pylayer.permute(x, 1, 0),
                 pylayer.unbind(x)[0], pylayer.strided_slice(x, [1], [0], [3], [2])):
        assert view.numpy().base is not None and np.shares_memory(view.numpy(), x.numpy())
    for copy in (pylayer.crop(x, [1, 1]), pylayer.tensor_split(x, 2)[0], pylayer.rot90(x),
                 pylayer.reverse(x, 0)):
        assert not np.shares_memory(copy.numpy(), x.numpy())
    with pytest.raises(ValueError, match="cannot be written"):
        pylayer.arange(5.0).unfold(0, 3, 1).fill_(0.0)


def test_gradients_add_up_where_windows_overlap_as_in_pytorch():
    # Paddle 3.3.1 gives [1, 1, 1] and [0, 2, 4, 6, 8] here: each element once.
    x = pylayer.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    pylayer.as_strided(x * 1.0, [2, 2], [1, 1]).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0, 1.0])
    x = pylayer.arange(5.0)
    x.stop_gradient = False
    y = x.unfold(0, 3, 1)
    (y * y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 4.0, 12.0, 12.0, 8.0])


def test_as_strided_offset_counts_elements():
    # Paddle 3.3.1 counts the offset in bytes (offset 1 of float32 reads garbage).
    out = pylayer.as_strided(pylayer.arange(10.0), [3, 3], [2, 1], 1)
    np.testing.assert_array_equal(out.numpy(), [[1, 2, 3], [3, 4, 5], [5, 6, 7]])


def test_vander_gradient_at_zero_and_in_place_twins():
    x = pylayer.to_tensor([1.0, 2.0, 0.0], stop_gradient=False)
    pylayer.vander(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 5.0, 1.0])
    x = pylayer.ones([2, 3])
    x.stop_gradient = False
    y = x * 1.0
    assert pylayer.tril_(y) is y
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 0, 0], [1, 1, 0]])
    z = pylayer.ones([2, 3])
    assert z.t_() is z and z.shape == [3, 2]
    w = pylayer.ones([2, 2])
    assert w.triu_(1) is w and w.numpy().tolist() == [[0, 1], [0, 0]]


def test_view_as_a_dtype_reads_the_bytes():
    out = pylayer.ones([2]).view("uint8")
    assert out.shape == [8] and out.numpy().tolist() == [0, 0, 128, 63] * 2


def test_the_separate_int_forms_record_in_static_mode():
    from pylayer import static
    pylayer.enable_static()
    try:
        main = static.Program()
        with static.program_guard(main, static.Program()):
            x = static.data("x", [2, 3, 4], "float32")
            outs = [pylayer.reshape(x, 4, 3, 2), pylayer.swapaxes(x, 0, 2), x.permute(2, 0, 1)]
        values = static.Executor().run(main, feed={"x": np.ones([2, 3, 4], "float32")},
                                       fetch_list=outs)
    finally:
        pylayer.disable_static()
    assert [list(v.shape) for v in values] == [[4, 3, 2], [4, 3, 2], [4, 2, 3]]


def test_expand_as_and_slice_take_paddles_keywords():
    x, y = arange(3), arange(2, 3)
    assert pylayer.expand_as(input=x, other=y).shape == [2, 3]
    assert pylayer.expand_as(x, other=y).shape == [2, 3]
    assert pylayer.slice(input=y, axes=[0], starts=[0], ends=[1]).shape == [1, 3]


def test_broadcast_tensors_gives_new_writable_tensors_as_paddle_does():
    x, y = arange(2, 1), arange(3)
    a, b = pylayer.broadcast_tensors([x, y])
    a.fill_(5.0)
    b.fill_(6.0)
    np.testing.assert_array_equal(x.numpy(), [[0.0], [1.0]])
    np.testing.assert_array_equal(y.numpy(), [0.0, 1.0, 2.0])
