"""The op database entries of the high-level API (``pylayer/hapi``): none, as its two
public functions are not ops; ``tests/hapi/test_hapi.py`` tests them."""
ENTRIES = []
NOT_IN_DATABASE = {
    "summary": "prints a network's layer table and returns parameter counts: not an op",
    "flops": "prints a network's operation counts and returns an int: not an op",
}
