"""``pylayer.jit``: run Python functions and Layers as captured static programs, and
save them for deployment (see :func:`to_static` and :func:`save`)."""
from pylayer.jit._api import (StaticFunction, enable_to_static, ignore_module, not_to_static,
                              set_code_level, set_verbosity, to_static)
from pylayer.jit._io import TranslatedLayer, load, save

__all__ = ["to_static", "not_to_static", "ignore_module", "enable_to_static",
           "set_code_level", "set_verbosity", "save", "load", "TranslatedLayer"]
