"""How long ``pylayer.autograd.opcheck`` takes on a PyLayer over a [16, 16] input.

    python benchmarks/opcheck_speed.py [--size 16] [--repeat 9]

Checks a tanh PyLayer (float32 input, checked as a float64 copy, as a user
would call it) ``--repeat`` times after one warm-up run and prints the median
and the fastest run; the target is under one second. For scale it also times
``gradcheck`` and ``gradgradcheck`` on the same layer and input, the two
numerical checks that dominate opcheck's cost.
"""
import argparse
import statistics
import time

import pylayer as paddle
from pylayer.autograd import PyLayer, gradcheck, gradgradcheck, opcheck


class Tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def seconds(action, repeat):
    action()                                   # warm-up
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), min(runs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=16, help="the input is [size, size]")
    parser.add_argument("--repeat", type=int, default=9, help="timed runs (after a warm-up)")
    options = parser.parse_args(argv)
    paddle.seed(0)
    x = paddle.rand([options.size, options.size])
    x.stop_gradient = False
    x64 = paddle.cast(x, "float64").detach()
    x64.stop_gradient = False
    report = opcheck(Tanh, (x,))
    assert report.ok, str(report)
    shape = f"[{options.size}, {options.size}]"
    print(f"opcheck of a tanh PyLayer over a float32 {shape} input, {options.repeat} runs")
    for name, action in (("opcheck (ten checks)", lambda: opcheck(Tanh, (x,))),
                         ("gradcheck alone", lambda: gradcheck(Tanh.apply, x64)),
                         ("gradgradcheck alone", lambda: gradgradcheck(Tanh.apply, x64))):
        median, fastest = seconds(action, options.repeat)
        print(f"  {name:<22}median {median:.3f} s   fastest {fastest:.3f} s")


if __name__ == "__main__":
    main()
