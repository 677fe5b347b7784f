"""Argument checks of the static API that the hostile-input walker does not reach.

The walker (tests/reliability/test_hostile_input.py) feeds wrong types to
every argument; these tests pin the rules around the edges: when a check
happens, what a refused call leaves behind, and the values still accepted.
"""
import numpy as np
import pytest

import pylayer as paddle
from pylayer.static import Block, Operator, Parameter, Program, Variable


def test_guards_refuse_wrong_arguments_when_called_not_only_when_entered():
    with pytest.raises(TypeError, match=r"program_guard\(\): argument 'main_program' must be "
                                        r"a Program, got 'main'"):
        paddle.static.program_guard("main")
    with pytest.raises(TypeError, match=r"argument 'startup_program' must be a Program or None"):
        paddle.static.program_guard(Program(), 3)
    with pytest.raises(TypeError, match=r"scope_guard\(\): argument 'scope' must be a Scope, "
                                        r"got None"):
        paddle.static.scope_guard(None)


def test_constructors_check_what_they_are_given():
    block = Program().global_block()
    with pytest.raises(TypeError, match=r"Block\(\): argument 'program' must be a Program"):
        Block(block)
    with pytest.raises(ValueError, match=r"Block\(\): argument 'idx' must be at least 0"):
        Block(Program(), -1)
    with pytest.raises(TypeError, match=r"Variable\(\): argument 'block' must be a Block"):
        Variable(Program(), "v", [2], "float32")
    with pytest.raises(ValueError, match=r"Variable\(\): argument 'shape' .* got \[2, -2\]"):
        Variable(block, "v", [2, -2], "float32")
    with pytest.raises(TypeError, match=r"Variable\(\): argument 'dtype'"):
        Variable(block, "v", [2], "float17")
    with pytest.raises(TypeError, match=r"Operator\(\): argument 'fn' must be callable"):
        Operator(block, "tanh", "tanh", (), {}, [], [], [], [])
    with pytest.raises(ValueError, match=r"Operator\(\): argument 'out_index' needs one entry "
                                         r"per output \(1\), got 0"):
        Operator(block, "tanh", paddle.tanh, (), {}, [], [Variable(block, "v", [2], None)],
                 [], [True])


def test_a_variable_may_be_shapeless_or_partly_unknown_but_a_parameter_may_not():
    block = Program().global_block()
    assert Variable(block, "v", None, "float32").shape is None
    assert Variable(block, "w", [None, 3], "float32").shape == [-1, 3]
    with pytest.raises(ValueError, match=r"Parameter\(\): argument 'shape' must hold "
                                         r"non-negative ints"):
        Parameter(block, "p", [-1, 3], "float32")
    with pytest.raises(TypeError, match=r"Parameter\(\): argument 'shape'"):
        Parameter(block, "p", None, "float32")
    with pytest.raises(ValueError, match=r"Variable\(\): argument 'shape' asks for"):
        Variable(block, "big", [-1, 2 ** 30, 2 ** 20], "float32")


def test_block_lookups_name_themselves():
    program = Program()
    block = program.global_block()
    assert program.block(0) is block
    with pytest.raises(ValueError, match=r"Program.block\(\): argument 'index' must be below "
                                         r"the number of blocks \(1\), got 1"):
        program.block(1)
    with pytest.raises(TypeError, match=r"Block.var\(\): argument 'name' must be a str"):
        block.var(0)
    with pytest.raises(ValueError, match=r"Block.var\(\): block 0 has no variable named 'y'"):
        block.var("y")


def test_block_create_parameter_defaults_to_xavier_uniform(exe):
    main, startup = Program(), Program()
    w = main.global_block().create_parameter("w_default_init", [3, 4], "float64", None,
                                             startup_program=startup)
    assert isinstance(w.initializer, paddle.nn.initializer.XavierUniform)
    exe.run(startup)
    value = np.array(paddle.static.global_scope().find_var("w_default_init").get_tensor())
    limit = np.sqrt(6.0 / (3 + 4))
    assert value.shape == (3, 4) and value.dtype == np.float64
    assert np.all(np.abs(value) <= limit) and np.unique(value).size > 1
    with pytest.raises(TypeError, match=r"create_parameter\(\): argument 'initializer' must be "
                                        r"an Initializer or None, got builtin_function_or_method"):
        main.global_block().create_parameter("w2", [2], "float32", np.zeros)


def test_data_and_astype_name_their_dtype_errors(static):
    with pytest.raises(TypeError, match=r"data\(\): argument 'dtype'"):
        paddle.static.data("x", [2], "float17")
    x = paddle.static.data("x", [2], "float32")
    with pytest.raises(TypeError, match=r"Variable.astype\(\): argument 'dtype' must be a "
                                        r"dtype such as 'float32', got None"):
        x.astype(None)
    assert x.astype("float64").dtype == paddle.float64


def test_fc_refuses_a_bad_activation_before_adding_anything(static):
    main, startup = static
    x = paddle.static.data("x", [-1, 3], "float32")
    for activation, error in ((3, TypeError), ("nope", ValueError), ("_state", ValueError)):
        with pytest.raises(error, match=r"fc\(\): .*activation"):
            paddle.static.nn.fc(x, 2, activation=activation)
    with pytest.raises(ValueError, match=r"fc\(\): argument 'size' asks for"):
        paddle.static.nn.fc(x, 2 ** 62)
    assert main.all_parameters() == [] and main.global_block().ops == []
    assert startup.global_block().ops == []


def test_append_backward_takes_parameters_or_their_names(static):
    x = paddle.static.data("x", [2, 3], "float32")
    w = paddle.static.create_parameter([3, 1], "float32", name="w_named")
    loss = paddle.mean(paddle.matmul(x, w))
    [(param, grad)] = paddle.static.append_backward(loss, parameter_list=("w_named",))
    assert param is w and grad.name == "w_named@GRAD"
    with pytest.raises(ValueError, match=r"append_backward\(\): argument 'parameter_list' item "
                                         r"0 names 'nope', which is not a variable"):
        paddle.static.append_backward(loss, parameter_list=["nope"])
    with pytest.raises(TypeError, match=r"append_backward\(\): argument 'parameter_list' must "
                                        r"be a list or tuple"):
        paddle.static.append_backward(loss, parameter_list="w_named")


def test_executor_run_takes_a_fetch_list_of_one_or_many(static, exe):
    main, _ = static
    x = paddle.static.data("x", [2], "float32")
    y = paddle.tanh(x)
    feed = {"x": np.zeros([2], "float32")}
    assert len(exe.run(main, feed=feed, fetch_list=(y, "x"))) == 2
    assert len(exe.run(main, feed=feed, fetch_list=y)) == 1
    with pytest.raises(TypeError, match=r"Executor.run\(\): argument 'fetch_list' must be a "
                                        r"Variable, a variable name, or a list of them, got 3"):
        exe.run(main, feed=feed, fetch_list=3)
