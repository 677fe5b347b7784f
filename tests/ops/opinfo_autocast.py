"""The op database entries of the top-level autocast names (``pylayer.autocast`` and the
state queries, the same objects as ``pylayer.amp``'s): none, as they are a context
manager and queries of the mixed-precision state, not ops on Tensors;
``tests/amp/test_autocast_names.py`` tests them."""
ENTRIES = []
NOT_IN_DATABASE = {
    "autocast": "a context manager that sets the mixed-precision state: not an op",
    "is_autocast_enabled": "a query of the mixed-precision state: not an op",
    "get_autocast_dtype": "a query of the mixed-precision state: not an op",
    "get_autocast_cpu_dtype": "a query of the mixed-precision state: not an op",
    "get_autocast_gpu_dtype": "a query of the mixed-precision state: not an op",
}
