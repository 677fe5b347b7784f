"""The demo: train a small MLP with a custom PyLayer activation, then gradcheck it.

Run with ``python -m pylayer.demo`` (``--help`` lists the options). It
classifies three interleaved spirals (made here, no download), training
with a learning rate that decays along a cosine so that the loss settles,
prints the loss and the accuracy on held-out points after every epoch and
a summary at the end, and checks the custom layer's backward against
central differences. It exits with status 1 if the loss did not fall or
the gradient check failed.
"""
import argparse
import math
import sys
import time

import numpy as np

import pylayer as paddle
from pylayer.autograd import PyLayer, gradcheck
from pylayer.ops._arguments import check_count, check_int, describe

__all__ = ["Swish", "make_spirals", "MLP", "main"]


class Swish(PyLayer):
    """``x * sigmoid(x)`` as a custom op with a hand-written backward.

    The backward recomputes ``sigmoid(x)`` from the saved input instead of
    saving it: forward runs with recording off, so only inputs carry the
    graph that double backward (``create_graph=True``) needs.

    >>> x = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
    >>> Swish.apply(x).numpy().round(4)
    array([0.    , 0.7311], dtype=float32)
    """

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * paddle.sigmoid(x)

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        s = paddle.sigmoid(x)
        return dy * (s + x * s * (1 - s))


def make_spirals(points_per_class=200, classes=3, seed=0):
    """Points on ``classes`` interleaved noisy spirals, with their class labels.

    >>> x, y = make_spirals(10)
    >>> x.shape, y.shape
    ((30, 2), (30,))
    """
    points = check_int(points_per_class, "make_spirals", "points_per_class", minimum=1)
    classes = check_int(classes, "make_spirals", "classes", minimum=1)
    seed = check_int(seed, "make_spirals", "seed", minimum=0)
    check_count(2 * points, "make_spirals", "points_per_class")
    check_count(2 * points * classes, "make_spirals", "classes")
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(classes), points)
    radius = np.tile(np.linspace(0.0, 1.0, points), classes)
    # Class k turns through [4k, 4k + 4] radians, plus noise.
    angle = (4.0 * labels + np.tile(np.linspace(0.0, 4.0, points), classes)
             + rng.normal(0.0, 0.2, classes * points))
    features = np.stack([radius * np.sin(angle), radius * np.cos(angle)], 1)
    return features.astype(np.float32), labels.astype(np.int64)


class MLP(paddle.nn.Layer):
    """Two hidden layers with the Swish PyLayer between them.

    >>> _ = paddle.seed(0)
    >>> MLP(2, 8, 3)(paddle.zeros([4, 2])).shape
    [4, 3]
    """

    def __init__(self, inputs, hidden, classes):
        inputs = check_int(inputs, "MLP", "inputs", minimum=1)
        hidden = check_int(hidden, "MLP", "hidden", minimum=1)
        classes = check_int(classes, "MLP", "classes", minimum=1)
        for arg, weight_size in (("hidden", hidden * hidden), ("inputs", inputs * hidden),
                                 ("classes", hidden * classes)):
            check_count(weight_size, "MLP", arg)
        super().__init__()
        self.first = paddle.nn.Linear(inputs, hidden)
        self.second = paddle.nn.Linear(hidden, hidden)
        self.out = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        x = Swish.apply(self.first(x))
        x = Swish.apply(self.second(x))
        return self.out(x)


def _learning_rate(epoch, epochs, start=0.01, end=0.001):
    """The rate of ``epoch`` (1-based): a cosine from ``start`` down to ``end``,
    so that training settles instead of bouncing around its minimum.

    >>> round(_learning_rate(1, 40), 4), round(_learning_rate(40, 40), 4)
    (0.01, 0.001)
    """
    progress = (epoch - 1) / max(1, epochs - 1)
    return end + 0.5 * (start - end) * (1.0 + math.cos(math.pi * progress))


def _accuracy(model, features, labels):
    """The share of ``features`` whose predicted class is their label.

    >>> _ = paddle.seed(0)
    >>> points, labels = make_spirals(10)
    >>> 0.0 <= _accuracy(MLP(2, 8, 3), points, labels) <= 1.0
    True
    """
    with paddle.no_grad():
        predicted = model(paddle.to_tensor(features)).numpy().argmax(1)
    return float((predicted == labels).mean())


def main(epochs=40, batch_size=32, seed=0, out=sys.stdout):
    """Train, print progress and a summary, gradcheck Swish; return 0 on
    success, 1 if the loss did not fall or the gradient check failed.

    >>> import io
    >>> report = io.StringIO()
    >>> status = main(epochs=2, out=report)
    >>> report.getvalue().splitlines()[1][:20]
    'epoch  1/2  loss 0.8'
    """
    epochs = check_int(epochs, "main", "epochs", minimum=1)
    batch_size = check_int(batch_size, "main", "batch_size", minimum=1)
    seed = check_int(seed, "main", "seed", minimum=0)
    if not callable(getattr(out, "write", None)):
        raise TypeError(f"main(): argument 'out' must be a text stream with a write() "
                        f"method, got {describe(out)}")
    features, labels = make_spirals(seed=seed)
    if batch_size > len(labels):
        raise ValueError(f"main(): argument 'batch_size' must be at most the number of "
                         f"training points ({len(labels)}), got {batch_size}")
    # Points drawn with another seed, never trained on: the accuracy that counts.
    held_out_features, held_out_labels = make_spirals(100, seed=seed + 1)
    start = time.perf_counter()
    paddle.seed(seed)
    model = MLP(2, 64, 3)
    optimizer = paddle.optimizer.Adam(learning_rate=_learning_rate(1, epochs),
                                      parameters=model.parameters())
    order = np.random.default_rng(seed)
    losses = []
    print(f"Training a 2-64-64-3 MLP with a custom Swish PyLayer on {len(labels)} spiral "
          f"points; {len(held_out_labels)} other points are held out", file=out)
    for epoch in range(1, epochs + 1):
        optimizer.set_lr(_learning_rate(epoch, epochs))
        perm = order.permutation(len(labels))
        total = 0.0
        for begin in range(0, len(labels), batch_size):
            batch = perm[begin:begin + batch_size]
            logits = model(paddle.to_tensor(features[batch]))
            loss = paddle.nn.functional.cross_entropy(logits, paddle.to_tensor(labels[batch]))
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            total += loss.item() * len(batch)
        losses.append(total / len(labels))
        print(f"epoch {epoch:2d}/{epochs}  loss {losses[-1]:.4f}  "
              f"rate {optimizer.get_lr():.4f}  "
              f"held-out accuracy {_accuracy(model, held_out_features, held_out_labels):.3f}",
              file=out)

    fell = losses[-1] < 0.5 * losses[0]
    x = paddle.to_tensor(np.linspace(-3, 3, 7), dtype="float64", stop_gradient=False)
    checked = gradcheck(Swish.apply, x, raise_exception=False)
    print("summary", file=out)
    print(f"  training loss        {losses[0]:.4f} -> {losses[-1]:.4f} "
          f"({'fell' if fell else 'did NOT fall'} by half or more)", file=out)
    print(f"  training accuracy    {_accuracy(model, features, labels):.3f} "
          f"on {len(labels)} points", file=out)
    print(f"  held-out accuracy    {_accuracy(model, held_out_features, held_out_labels):.3f} "
          f"on {len(held_out_labels)} points not used for training", file=out)
    print(f"  gradient check       Swish.backward against central differences: "
          f"{'passed' if checked else 'FAILED'}", file=out)
    print(f"  time                 {time.perf_counter() - start:.1f} s", file=out)
    return 0 if fell and checked else 1


# The command line's bounds: the data set's size bounds a batch; epochs and seeds
# stay where a run ends in minutes and numpy's seeding conventions hold.
TRAINING_POINTS = 600
MOST_EPOCHS = 1000
LARGEST_SEED = 2 ** 32 - 1


def _integer_in(minimum, maximum):
    """An argparse ``type``: a whole number from ``minimum`` to ``maximum``."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, got {value}")
        return value
    return parse


def _parse_args(argv=None):
    """The command-line options (``sys.argv[1:]`` when ``argv`` is None).

    >>> _parse_args(["--epochs", "5"])
    Namespace(epochs=5, seed=0, batch_size=32)
    """
    parser = argparse.ArgumentParser(
        prog="python -m pylayer.demo",
        description="Train a small MLP whose activation is a custom PyLayer (Swish) on three "
                    "interleaved spirals, report the loss and the accuracy on held-out "
                    "points, then check the layer's backward against central differences. "
                    "Exits with status 1 if the loss did not fall by half or the gradient "
                    "check failed.")
    parser.add_argument("--epochs", type=_integer_in(1, MOST_EPOCHS), default=40,
                        help=f"passes over the {TRAINING_POINTS} training points, at most "
                             f"{MOST_EPOCHS} (default: 40)")
    parser.add_argument("--seed", type=_integer_in(0, LARGEST_SEED), default=0,
                        help=f"seed of the data, the initial weights and the batch order, "
                             f"from 0 to {LARGEST_SEED} (default: 0)")
    parser.add_argument("--batch-size", type=_integer_in(1, TRAINING_POINTS), default=32,
                        help=f"points per optimizer step, at most {TRAINING_POINTS} "
                             f"(default: 32)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = _parse_args()
    sys.exit(main(epochs=arguments.epochs, batch_size=arguments.batch_size,
                  seed=arguments.seed))
