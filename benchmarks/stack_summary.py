"""Summarise py-spy's raw (collapsed) stacks: top functions by self and by total samples.

    python benchmarks/stack_summary.py stacks.txt [--top 30] [--under NAME] [--tree NAME]

Each line of the input is ``frame;frame;...;frame COUNT``, the root first.
``--under NAME`` keeps only stacks that pass through a frame containing NAME
(for example the workload's ``step``), dropping start-up and import time.
``--tree NAME`` prints the call tree below the outermost frame containing
NAME, with inclusive shares, down to ``--depth`` levels and ``--min`` percent.
"""
import argparse
import collections
import re


def frame_name(frame):
    """'tanh (pylayer/ops/math.pyx:300)' -> 'tanh (pylayer/ops/math.pyx)': merge a function's lines."""
    return re.sub(r":\d+\)$", ")", frame.strip())


def read(path, under):
    self_counts = collections.Counter()
    total_counts = collections.Counter()
    total = 0
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            frames = [frame_name(fr) for fr in stack.split(";")]
            if under and not any(under in fr for fr in frames):
                continue
            n = int(count)
            total += n
            self_counts[frames[-1]] += n
            for fr in set(frames):
                total_counts[fr] += n
    return self_counts, total_counts, total


def tree(path, root_name):
    """Nested dict name -> [count, children] of the stacks below ``root_name``."""
    root = [0, {}]
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            frames = [frame_name(fr) for fr in stack.split(";")] if stack else []
            starts = [i for i, fr in enumerate(frames) if root_name in fr]
            if not starts:
                continue
            n = int(count)
            root[0] += n
            node = root
            for fr in frames[starts[0] + 1:]:
                node = node[1].setdefault(fr, [0, {}])
                node[0] += n
    return root


def print_tree(node, total, depth, min_percent, indent=0):
    for name, child in sorted(node[1].items(), key=lambda kv: -kv[1][0]):
        share = 100.0 * child[0] / total
        if share < min_percent:
            continue
        print(f"{share:6.1f}%  {'  ' * indent}{name}")
        if depth > 1:
            print_tree(child, total, depth - 1, min_percent, indent + 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--under", help="keep only stacks through a frame containing this")
    parser.add_argument("--tree", metavar="NAME", help="print the call tree below NAME")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--min", type=float, default=1.0, help="hide tree entries below this %%")
    args = parser.parse_args()
    if args.tree:
        root = tree(args.path, args.tree)
        print(f"{root[0]} samples below '{args.tree}'")
        print_tree(root, root[0], args.depth, args.min)
        return
    self_counts, total_counts, total = read(args.path, args.under)
    print(f"{total} samples" + (f" under '{args.under}'" if args.under else ""))
    for title, counts in (("self", self_counts), ("total (inclusive)", total_counts)):
        print(f"\n--- top {args.top} by {title} ---")
        for name, n in counts.most_common(args.top):
            print(f"{100.0 * n / total:6.1f}%  {n:7d}  {name}")


if __name__ == "__main__":
    main()
