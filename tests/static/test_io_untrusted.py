"""The static save/load functions read their files as untrusted input: nothing in a
parameter or program file runs code (as pylayer.load, tests/framework/test_load_untrusted.py)."""
import os
import pickle

import numpy as np
import pytest

import pylayer as paddle
from pylayer.static import _io


class _RunsCode:
    """Unpickling this calls os.system: what a hostile file does."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "ran"
    yield path
    assert not path.exists(), "the file ran code"


@pytest.fixture
def static_program():
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 2], "float32")
        y = paddle.static.nn.fc(x, 1, name="untrusted_demo")
    exe = paddle.static.Executor()
    exe.run(startup)
    yield main, x, y, exe
    paddle.disable_static()


def test_a_parameter_file_that_would_run_code_is_refused(tmp_path, marker, static_program):
    prefix = str(tmp_path / "model")
    with open(prefix + ".pdparams", "wb") as f:
        pickle.dump({"w": _RunsCode(marker)}, f)
    with pytest.raises(pickle.UnpicklingError):
        paddle.static.load_program_state(prefix)


def test_persistables_that_would_run_code_are_refused(marker, static_program):
    main, x, y, exe = static_program
    with pytest.raises(pickle.UnpicklingError):
        paddle.static.deserialize_persistables(main, pickle.dumps({"w": _RunsCode(marker)}),
                                               exe)


@pytest.mark.parametrize("payload", [
    lambda m: pickle.dumps((_io._FORMAT, _RunsCode(m))),
    lambda m: pickle.dumps((_io._FORMAT, _ByName("os", "system", f"touch {m}"))),
])
def test_a_program_that_would_run_code_is_refused(marker, payload):
    with pytest.raises(pickle.UnpicklingError, match="deserialize_program"):
        paddle.static.deserialize_program(payload(marker))


class _ByName:
    """Reduces to ``_public_function(module, name)(arg)``: a function found by name."""

    def __init__(self, module, name, arg):
        self.module, self.name, self.arg = module, name, arg

    def __reduce__(self):
        return _Call, (_io._public_function, (self.module, self.name), self.arg)


def _Call(*args):  # stands for the reducer chain; never called when loading is safe
    raise AssertionError("called")


def test_a_program_still_round_trips(static_program):
    main, x, y, exe = static_program
    data = paddle.static.serialize_program([x], [y], program=main)
    params = paddle.static.serialize_persistables([x], [y], exe, program=main)
    program = paddle.static.deserialize_persistables(
        paddle.static.deserialize_program(data), params, exe)
    feed = {"x": np.ones([3, 2], np.float32)}
    fetched = exe.run(program, feed=feed, fetch_list=[program.global_block().var(y.name)])
    assert fetched[0].shape == (3, 1)
