"""Every static test gets fresh default programs and a fresh scope, and leaves
dynamic mode on afterwards (whatever happened inside), so that other test
files never see static mode."""
import pytest

import pylayer as paddle


@pytest.fixture(autouse=True)
def isolated_static_state():
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()), \
            paddle.static.scope_guard(paddle.static.Scope()):
        try:
            yield
        finally:
            paddle.disable_static()
    assert paddle.in_dynamic_mode()


@pytest.fixture
def static():
    """Static mode on, with the (fresh) default main and startup programs."""
    paddle.enable_static()
    return paddle.static.default_main_program(), paddle.static.default_startup_program()


@pytest.fixture
def exe():
    return paddle.static.Executor(paddle.static.CPUPlace())
