"""The shared test tables are importable from every test directory: the op database
(``tests/ops/opinfo.py``, its numpy references ``tests/ops/references.py``) and the
hostile-input building blocks and tables (``tests/reliability/_hostile_*.py``), which the
op database uses for its calls."""
import pathlib
import sys

TESTS = pathlib.Path(__file__).resolve().parent
for directory in ("ops", "reliability"):
    if str(TESTS / directory) not in sys.path:
        sys.path.append(str(TESTS / directory))
