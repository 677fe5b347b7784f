"""Each documentation page runs its examples as one doctest, from the same start:
the random stream seeded with 0, dynamic mode, fresh default static programs and
a fresh scope. Dynamic mode is restored afterwards even if a page left static
mode on."""
import pytest

import pylayer


@pytest.fixture(autouse=True)
def fresh_pylayer_state():
    pylayer.seed(0)
    pylayer.disable_static()
    with pylayer.static.program_guard(pylayer.static.Program(), pylayer.static.Program()), \
            pylayer.static.scope_guard(pylayer.static.Scope()):
        try:
            yield
        finally:
            pylayer.disable_static()
