"""The targets of the performance issue, as ratios computed from one run's medians."""
from dataclasses import dataclass
from typing import Optional


@dataclass
class Target:
    workload: str
    text: str
    limit: float
    numerator: tuple       # (lib, case) whose median is divided ...
    denominator: tuple     # ... by this (lib, case)'s median


TARGETS = [
    Target("1", "pylayer <= 0.35x Paddle PyLayer", 0.35, ("pylayer", "main"), ("paddle", "main")),
    Target("1", "pylayer <= 0.3x torch Function", 0.30, ("pylayer", "main"), ("torch", "main")),
    Target("2", "pylayer <= 0.5x torch built-ins", 0.50, ("pylayer", "main"), ("torch", "main")),
    Target("3", "pylayer <= 1.25x numpy reference", 1.25, ("pylayer", "main"), ("numpy", "main")),
    Target("4", "pylayer <= 1.0x torch", 1.00, ("pylayer", "main"), ("torch", "main")),
    Target("5", "pylayer hooks/plain <= 1.3", 1.30, ("pylayer", "hooks"), ("pylayer", "plain")),
    Target("6", "pylayer 100k/10k <= 11", 11.0, ("pylayer", "100k"), ("pylayer", "10k")),
    Target("7", "pylayer static/dynamic <= 0.8", 0.80, ("pylayer", "static"),
           ("pylayer", "dynamic")),
    Target("8", "pylayer <= 1.5x torch", 1.50, ("pylayer", "main"), ("torch", "main")),
    Target("8", "pylayer <= 0.6x Paddle", 0.60, ("pylayer", "main"), ("paddle", "main")),
    Target("9", "pylayer 3to16 <= 1.5x torch", 1.50, ("pylayer", "3to16"), ("torch", "3to16")),
    Target("9", "pylayer 16to32 <= 1.5x torch", 1.50, ("pylayer", "16to32"),
           ("torch", "16to32")),
    Target("10", "pylayer <= 1.0x torch", 1.00, ("pylayer", "main"), ("torch", "main")),
]

# The model steps of issue 34: each <= 0.8x Paddle, and its own bound against PyTorch
# (the GPT against the explicit attention, jacobian/hessian against autograd.functional).
_TORCH_BOUNDS = {"11": 1.5, "12": 1.1, "13": 1.0, "14": 0.6, "15": 0.7, "16": 0.8, "17": 1.5}
_TORCH_NAMES = {"11": "torch explicit attention", "13": "torch autograd.functional"}
for _key, _bound in _TORCH_BOUNDS.items():
    TARGETS.append(Target(_key, f"pylayer <= {_bound}x {_TORCH_NAMES.get(_key, 'torch')}",
                          _bound, ("pylayer", "main"), ("torch", "main")))
    if _key == "16":
        TARGETS.append(Target("16", "pylayer <= 1.6x numpy BLAS floor", 1.6,
                              ("pylayer", "main"), ("numpy", "blas")))
    TARGETS.append(Target(_key, "pylayer <= 0.8x Paddle", 0.8,
                          ("pylayer", "main"), ("paddle", "main")))

# jit.to_static on a training step (issue 36): the captured step against the dynamic one.
for _key in ("18", "19"):
    TARGETS.append(Target(_key, "pylayer static/dynamic <= 0.8", 0.80, ("pylayer", "static"),
                          ("pylayer", "dynamic")))


def median_of(results, workload, lib, case) -> Optional[float]:
    entry = results.get(workload, {}).get("cases", {}).get(case, {}).get(lib)
    if entry is None or entry.get("status") != "ok":
        return None
    return entry["median"]


def evaluate(results):
    """One dict per target: text, limit, value (or None) and PASS / MISS / n/a with why."""
    evaluated = []
    for target in TARGETS:
        num = median_of(results, target.workload, *target.numerator)
        den = median_of(results, target.workload, *target.denominator)
        row = {"workload": target.workload, "text": target.text, "limit": target.limit,
               "value": None}
        if num is None or den is None:
            missing = target.numerator if num is None else target.denominator
            row["status"] = f"n/a ({missing[0]} {missing[1]} has no result)"
        else:
            row["value"] = num / den
            row["status"] = "PASS" if row["value"] <= target.limit else "MISS"
        evaluated.append(row)
    return evaluated
