"""Rewrite the generated part of class Tensor in src/pylayer/_core/tensor.pyi.

Run it after changing the method table or an op's parameters:
``python tools/write_tensor_stub.py``; tests/core/test_tensor_methods.py fails
until the stub matches.
"""
import pathlib

import pylayer
from pylayer import _methods


def main():
    path = pathlib.Path(pylayer.__file__).parent / _methods.STUB
    text = path.read_text()
    start = text.index(_methods.STUB_BEGIN)
    path.write_text(text[:start] + _methods.tensor_stub(pylayer.tensor_methods()))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
