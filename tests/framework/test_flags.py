"""set_flags / get_flags: Paddle's flags as Paddle 3.3.1 accepts and reports them."""
import pytest

import pylayer
from pylayer.framework import flags


@pytest.fixture(autouse=True)
def restored_flags():
    saved = dict(flags._values)
    yield
    flags._values.clear()
    flags._values.update(saved)


def test_paddles_defaults_are_reported():
    # As paddle.get_flags reports them on Paddle 3.3.1 (CPU build).
    assert pylayer.get_flags(["FLAGS_check_nan_inf", "FLAGS_call_stack_level",
                              "FLAGS_eager_delete_tensor_gb", "FLAGS_allocator_strategy",
                              "FLAGS_use_mkldnn"]) == {
        "FLAGS_check_nan_inf": False, "FLAGS_call_stack_level": 1,
        "FLAGS_eager_delete_tensor_gb": 0.0, "FLAGS_allocator_strategy": "auto_growth",
        "FLAGS_use_mkldnn": False}
    assert pylayer.get_flags(("FLAGS_enable_pir_api",)) == {"FLAGS_enable_pir_api": True}
    assert pylayer.get_flags([]) == {}
    assert len(flags.PADDLE_DEFAULTS) == 247


def test_a_set_flag_is_recorded_and_reported_everywhere():
    pylayer.set_flags({"FLAGS_call_stack_level": 2, "FLAGS_check_nan_inf": 1,
                       "FLAGS_fraction_of_gpu_memory_to_use": 1})
    assert pylayer.get_flags("FLAGS_call_stack_level") == {"FLAGS_call_stack_level": 2}
    assert pylayer.framework.get_flags(["FLAGS_check_nan_inf"]) == {"FLAGS_check_nan_inf": True}
    assert pylayer.get_flags("FLAGS_fraction_of_gpu_memory_to_use") == \
        {"FLAGS_fraction_of_gpu_memory_to_use": 1.0}
    pylayer.framework.set_flags({"FLAGS_allocator_strategy": "naive_best_fit"})
    assert pylayer.get_flags("FLAGS_allocator_strategy")["FLAGS_allocator_strategy"] == \
        "naive_best_fit"


@pytest.mark.parametrize("name", ["FLAGS_nonexistent_xyz", "call_stack_level",
                                  "FLAGS_cudnn_deterministic"])
def test_a_name_paddle_does_not_accept_is_a_value_error(name):
    with pytest.raises(ValueError, match=rf"set_flags\(\): '{name}' is not a flag"):
        pylayer.set_flags({name: 1})
    with pytest.raises(ValueError, match=rf"get_flags\(\): '{name}' is not a flag"):
        pylayer.get_flags(name)


@pytest.mark.parametrize("name, value, expected", [
    ("FLAGS_check_nan_inf", "abc", "a bool"), ("FLAGS_check_nan_inf", 2, "a bool"),
    ("FLAGS_call_stack_level", 2.7, "an int"), ("FLAGS_call_stack_level", True, "an int"),
    ("FLAGS_eager_delete_tensor_gb", "x", "a number"),
    ("FLAGS_allocator_strategy", 3, "a str"),
])
def test_a_value_of_the_wrong_type_is_a_type_error_and_sets_nothing(name, value, expected):
    before = pylayer.get_flags(["FLAGS_call_stack_level", name])
    with pytest.raises(TypeError, match=rf"set_flags\(\): flag {name} takes {expected}"):
        pylayer.set_flags({"FLAGS_call_stack_level": 3, name: value})
    assert pylayer.get_flags(["FLAGS_call_stack_level", name]) == before


def test_retain_grad_for_all_tensor_is_accepted_as_false_and_refused_as_true():
    pylayer.set_flags({"FLAGS_retain_grad_for_all_tensor": False})
    assert pylayer.get_flags("FLAGS_retain_grad_for_all_tensor") == \
        {"FLAGS_retain_grad_for_all_tensor": False}
    with pytest.raises(ValueError, match=r"FLAGS_retain_grad_for_all_tensor=True is not "
                                         r"supported.*retain_grads\(\)"):
        pylayer.set_flags({"FLAGS_retain_grad_for_all_tensor": True})


def test_arguments_of_the_wrong_kind_are_type_errors():
    with pytest.raises(TypeError, match=r"set_flags\(\): argument 'flags' must be a dict"):
        pylayer.set_flags("FLAGS_check_nan_inf")
    with pytest.raises(TypeError, match=r"get_flags\(\): argument 'flags' must be a flag name"):
        pylayer.get_flags(3)
    with pytest.raises(TypeError, match=r"get_flags\(\): flag names are strings, got int"):
        pylayer.get_flags([3])
