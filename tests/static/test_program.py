"""Building programs: modes, Program/Block/Variable, shape inference, clone, printing."""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.ops.dispatch import op
from pylayer.static import Program, Variable


def test_enable_and_disable_static_switch_the_mode():
    assert paddle.in_dynamic_mode()
    paddle.enable_static()
    assert not paddle.in_dynamic_mode()
    paddle.disable_static()
    assert paddle.in_dynamic_mode()


def test_ops_record_in_static_mode_and_compute_in_dynamic_mode(static):
    main, _ = static
    x = paddle.static.data("x", [2, 3], "float32")
    y = paddle.tanh(x)
    assert isinstance(y, Variable)
    assert [op.type for op in main.global_block().ops] == ["tanh"]
    op = main.global_block().ops[0]
    assert op.inputs == [x] and op.outputs == [y]
    assert op.input_arg_names == ["x"] and op.output_arg_names == [y.name]
    paddle.disable_static()
    t = paddle.tanh(paddle.ones([2]))
    assert isinstance(t, paddle.Tensor)
    assert len(main.global_block().ops) == 1


def test_default_programs_and_program_guard(static):
    main, startup = static
    assert paddle.static.default_main_program() is main
    assert paddle.static.default_startup_program() is startup
    other_main, other_startup = Program(), Program()
    with paddle.static.program_guard(other_main, other_startup):
        assert paddle.static.default_main_program() is other_main
        assert paddle.static.default_startup_program() is other_startup
        paddle.static.data("inside", [1], "float32")
    assert paddle.static.default_main_program() is main
    assert other_main.global_block().has_var("inside")
    assert not main.global_block().has_var("inside")
    with paddle.static.program_guard(other_main):
        assert paddle.static.default_startup_program() is startup


def test_program_guard_restores_after_an_error_and_checks_types(static):
    main, _ = static
    with pytest.raises(KeyError):
        with paddle.static.program_guard(Program()):
            raise KeyError("boom")
    assert paddle.static.default_main_program() is main
    with pytest.raises(TypeError, match="argument 'main_program' must be a Program"):
        with paddle.static.program_guard("main"):
            pass
    with pytest.raises(TypeError, match="startup_program"):
        with paddle.static.program_guard(Program(), 3):
            pass


def test_blocks(static):
    main, _ = static
    assert main.current_block() is main.global_block() is main.block(0)
    assert main.num_blocks == 1
    x = paddle.static.data("x", [2], "float32")
    block = main.global_block()
    assert block.var("x") is x and block.has_var("x") and not block.has_var("y")
    with pytest.raises(ValueError, match="no variable named 'y'"):
        block.var("y")
    assert list(main.list_vars()) == [x]


def test_data_declares_a_feed_variable(static):
    x = paddle.static.data(name="img", shape=[None, 28, -1], dtype="float64")
    assert x.name == "img" and x.shape == [-1, 28, -1] and x.ndim == 3
    assert x.dtype == paddle.float64 and x.dtype == "float64"
    assert x.stop_gradient is True and not x.persistable
    assert paddle.static.data("img", [None, 28, -1], "float64") is x
    with pytest.raises(ValueError, match="'img' already exists"):
        paddle.static.data("img", [3], "float64")
    with pytest.raises(TypeError, match="shape"):
        paddle.static.data("bad", "3", "float32")
    with pytest.raises(TypeError, match="argument 'shape' is required"):
        paddle.static.data("bad", None, "float32")
    assert paddle.static.data("default_dtype", [1]).dtype == "float32"


def test_create_var(static):
    main, _ = static
    block = main.current_block()
    v = block.create_var(name="out", dtype="float32", shape=[-1, 4])
    assert (v.name, v.shape, v.dtype, v.stop_gradient) == ("out", [-1, 4], paddle.float32, False)
    assert block.create_var(name="out", dtype="float32", shape=[-1, 4]) is v
    with pytest.raises(ValueError, match="'out' already exists with shape"):
        block.create_var(name="out", dtype="float32", shape=[3])
    unnamed = block.create_var(dtype="int64", shape=[2])
    assert unnamed.name.startswith("_generated_var") and unnamed.dtype == "int64"
    assert block.create_var(name="shapeless").shape is None


def test_output_shapes_keep_the_unknown_batch_dimension(static):
    x = paddle.static.data("x", [-1, 28, 28], "float32")
    flat = paddle.reshape(x, [-1, 784])
    assert flat.shape == [-1, 784]
    w = paddle.static.create_parameter([784, 10], "float32")
    logits = paddle.matmul(flat, w)
    assert logits.shape == [-1, 10] and logits.dtype == "float32"
    assert paddle.sum(logits, axis=0).shape == [10]
    assert paddle.mean(logits).shape == []
    assert paddle.reshape(x, [-1]).shape == [-1]
    assert paddle.reshape(paddle.static.data("y", [-1, 6], "float32"), [4, -1]).shape == [4, -1]
    assert paddle.transpose(x, [1, 2, 0]).shape == [28, 28, -1]


def test_output_dtypes_follow_the_op(static):
    x = paddle.static.data("x", [3], "float32")
    assert paddle.cast(x, "int64").dtype == paddle.int64
    assert (x > 0).dtype == paddle.bool
    assert paddle.static.data("i", [3], "int64").dtype == "int64"
    assert (x * 2).dtype == "float32"


def test_variable_operators_record_the_matching_ops(static):
    main, _ = static
    x = paddle.static.data("x", [2, 2], "float32")
    y = paddle.static.data("y", [2, 2], "float32")
    results = [x + y, 1.0 - x, x * y, x / 2.0, -x, x @ y, x ** 2, x > y, x.mean(),
               x.astype("float64"), abs(x)]
    assert all(isinstance(r, Variable) for r in results)
    types = [op.type for op in main.global_block().ops]
    assert types == ["add", "subtract", "multiply", "divide", "neg", "matmul", "pow",
                     "greater_than", "mean", "cast", "abs"]
    assert results[-2].dtype == "float64"


def test_stop_gradient_propagates_from_inputs(static):
    x = paddle.static.data("x", [2], "float32")
    assert paddle.tanh(x).stop_gradient is True
    w = paddle.static.create_parameter([2], "float32")
    assert w.stop_gradient is False
    h = x * w
    assert h.stop_gradient is False
    assert paddle.cast(h, "int64").stop_gradient is True
    x2 = paddle.static.data("x2", [2], "float32")
    x2.stop_gradient = False
    assert paddle.exp(x2).stop_gradient is False


def test_variables_have_no_value_while_building(static):
    x = paddle.static.data("x", [2], "float32")
    with pytest.raises(TypeError, match="Variable 'x' has no value"):
        bool(x)
    with pytest.raises(TypeError, match="'x' has no value"):
        np.asarray(x)
    with pytest.raises(TypeError, match="fetch it with Executor.run"):
        x.numpy()
    with pytest.raises(TypeError, match="first dimension is not known"):
        len(paddle.static.data("b", [-1, 2], "float32"))
    assert len(x) == 2


def test_inputs_from_another_program_are_refused(static):
    other = Program()
    with paddle.static.program_guard(other):
        foreign = paddle.static.data("foreign", [2], "float32")
    with pytest.raises(ValueError, match="'foreign' belongs to another Program"):
        paddle.tanh(foreign)


def test_a_shapeless_input_is_refused(static):
    main, _ = static
    v = main.current_block().create_var(name="v", dtype="float32")
    with pytest.raises(ValueError, match="'v' has no shape"):
        paddle.tanh(v)


def test_build_time_errors_name_the_inputs(static):
    a = paddle.static.data("a", [-1, 3], "float32")
    b = paddle.static.data("b", [4, 5], "float32")
    with pytest.raises(ValueError, match="matmul") as info:
        paddle.matmul(a, b)
    assert any("a: [-1, 3]" in note and "b: [4, 5]" in note
               for note in getattr(info.value, "__notes__", []))
    assert not paddle.in_dynamic_mode() and paddle.is_grad_enabled()
    assert isinstance(paddle.exp(a), Variable)


def test_a_call_on_tensors_is_computed_at_once(static):
    main, _ = static
    t = paddle.tanh(paddle.Tensor(np.array([0.0, 1.0])))
    assert isinstance(t, paddle.Tensor)
    np.testing.assert_allclose(t.numpy(), np.tanh([0.0, 1.0]), rtol=1e-6)
    assert main.global_block().ops == []
    assert not paddle.in_dynamic_mode()


def test_building_does_not_consume_random_numbers(static):
    paddle.seed(7)
    x = paddle.static.data("x", [-1, 5], "float32")
    paddle.nn.functional.dropout(x, p=0.5)
    paddle.disable_static()
    after_build = paddle.rand([4]).numpy()
    paddle.seed(7)
    np.testing.assert_array_equal(after_build, paddle.rand([4]).numpy())


def test_name_argument_names_the_output(static):
    x = paddle.static.data("x", [2], "float32")
    y = paddle.tanh(x, name="activated")
    assert y.name == "activated"
    again = paddle.tanh(x, name="activated")
    assert again.name != "activated" and again.name.startswith("activated")


def test_program_text_lists_variables_and_ops(static):
    main, _ = static
    x = paddle.static.data("x", [-1, 3], "float32")
    y = paddle.mean(paddle.tanh(x), axis=1)
    text = str(main)
    assert "x: float32[-1, 3] (data)" in text
    assert f"{y.name}: float32[-1] (tmp)" in text
    assert "0: tanh_0.tmp_0 = tanh(x)" in text
    assert f"1: {y.name} = mean(tanh_0.tmp_0, axis=1)" in text
    assert main.to_string(True) == text
    assert repr(main) == "<Program: 3 vars, 2 ops>"


def test_clone_copies_variables_and_ops(static, exe):
    main, _ = static
    x = paddle.static.data("x", [2], "float32")
    y = paddle.tanh(x)
    copy = main.clone()
    assert [v.name for v in copy.list_vars()] == [v.name for v in main.list_vars()]
    assert copy.global_block().var("x") is not x
    assert [op.type for op in copy.global_block().ops] == ["tanh"]
    with paddle.static.program_guard(copy):
        paddle.exp(copy.global_block().var(y.name))
    assert len(copy.global_block().ops) == 2 and len(main.global_block().ops) == 1
    feed = {"x": np.array([0.5, -1.0], "float32")}
    out_main, = exe.run(main, feed=feed, fetch_list=[y])
    out_copy, = exe.run(copy, feed=feed, fetch_list=[y.name])
    np.testing.assert_array_equal(out_main, out_copy)


def test_clone_for_test_drops_training_ops_and_evaluates(static, exe):
    main, startup = static
    x = paddle.static.data("x", [-1, 4], "float32")
    hidden = paddle.nn.functional.dropout(paddle.static.nn.fc(x, 3), p=0.5)
    loss = paddle.mean(hidden)
    test_program = main.clone(for_test=True)
    paddle.static.append_backward(loss)
    assert any(op.role == "backward" for op in main.global_block().ops)
    for_test_after = main.clone(for_test=True)
    assert all(op.role == "forward" for op in for_test_after.global_block().ops)
    assert not any(v.name.endswith("@GRAD") for v in for_test_after.list_vars())
    exe.run(startup)
    feed = {"x": np.ones([2, 4], "float32")}
    no_dropout, = exe.run(test_program, feed=feed, fetch_list=[hidden.name])
    fc_out_name = test_program.global_block().ops[-3].outputs[0].name
    fc_out, = exe.run(test_program, feed=feed, fetch_list=[fc_out_name])
    np.testing.assert_array_equal(no_dropout, fc_out)


def test_an_op_that_returns_its_input_records_nothing(static):
    main, _ = static

    @op
    def identity(x):
        return x

    x = paddle.static.data("x", [2], "float32")
    assert identity(x) is x
    assert main.global_block().ops == []


def test_an_op_that_writes_into_an_input_makes_it_an_output(static, exe):
    main, _ = static
    x = paddle.static.data("x", [2], "float32")
    target = main.current_block().create_var(name="target", dtype="float32", shape=[2])
    assert paddle.assign(paddle.exp(x), output=target) is target
    op = main.global_block().ops[-1]
    assert op.type == "assign" and op.outputs == [target]
    got, = exe.run(feed={"x": np.zeros([2], "float32")}, fetch_list=[target])
    np.testing.assert_array_equal(got, [1.0, 1.0])


def test_parameters_with_the_same_name_are_shared(static, exe):
    main, startup = static
    x = paddle.static.data("x", [-1, 2], "float32")
    shared = paddle.ParamAttr(name="shared_w")
    a = paddle.static.nn.fc(x, 2, weight_attr=shared, bias_attr=False)
    b = paddle.static.nn.fc(x, 2, weight_attr=shared, bias_attr=False)
    assert [p.name for p in main.all_parameters()] == ["shared_w"]
    assert len(startup.global_block().ops) == 1
    exe.run(startup)
    got_a, got_b = exe.run(feed={"x": np.ones([1, 2], "float32")}, fetch_list=[a, b])
    np.testing.assert_array_equal(got_a, got_b)
    with pytest.raises(ValueError, match=r"'shared_w' already exists as shared_w: float32\[2, 2\]"):
        paddle.static.nn.fc(x, 3, weight_attr=shared)
