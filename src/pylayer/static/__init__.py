"""Static-graph mode (placeholder until issue 4 lands)."""
from pylayer import _state

__all__ = ["enable_static", "disable_static", "in_dynamic_mode"]


def enable_static():
    raise NotImplementedError("static mode is not built yet")


def disable_static(place=None):
    _state.static_mode = False


def in_dynamic_mode():
    return not _state.static_mode
