"""Shared settings of the reliability tests.

Hypothesis runs derandomized (the same examples on every run, so CI is
reproducible) with no deadline (timing is not what these tests check), and
each test leaves grad mode, saved-tensor hooks, anomaly detection and the
static/dynamic switch as it found them.
"""
import pytest
from hypothesis import HealthCheck, settings

import pylayer
from pylayer._core import graph as _graph

settings.register_profile(
    "reliability", derandomize=True, database=None, deadline=None, max_examples=40,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def global_state():
    """Everything that a test must leave as it found it."""
    return (pylayer.is_grad_enabled(), _graph.current_saved_tensors_hooks(),
            _graph.is_anomaly_enabled(), pylayer.in_dynamic_mode())


@pytest.fixture(autouse=True)
def unchanged_global_state():
    before = global_state()
    yield
    after = global_state()
    if not pylayer.in_dynamic_mode():
        pylayer.disable_static()
    assert after == before, f"the test changed the global state from {before} to {after}"
