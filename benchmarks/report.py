"""Turning a run's JSON result into the printed table and the plot."""
from workloads import LIBS, WORKLOADS

# A second, within-library ratio shown for workloads measured in two variants.
CASE_RATIOS = {"5": ("hooks", "plain"), "6": ("100k", "10k"), "7": ("static", "dynamic")}
# The floor of a step (its matrix products alone, in numpy) against a measured step,
# and what the ratio means.
FLOORS = {"18": (("pylayer", "dynamic"), "pylayer dynamic",
                 "no captured step can go lower"),
          "12": (("torch", "main"), "torch",
                 "no step of im2col products on this BLAS can go lower")}
# Workload 5: every multiply saves both inputs.
SAVED_PER_OP = 2

NAME_WIDTH = 26
CELL = 11


def _cell(entry, absent):
    if absent:
        return "absent"
    if entry is None:
        return "-"
    if entry["status"] == "ok":
        return _number(entry["median"])
    return "n/a" if entry["status"] == "unavailable" else "ERROR"


def _number(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _row(label, cells):
    return (f"  {label:<{NAME_WIDTH}}" + "".join(f"{c:>{CELL}}" for c in cells)).rstrip()


def _median(workload_result, case, lib):
    entry = workload_result["cases"].get(case, {}).get(lib)
    return entry["median"] if entry and entry["status"] == "ok" else None


def format_table(result):
    libs = [lib for lib in LIBS if lib in result["peers"]]
    absent = set(result["absent"])
    settings = result["settings"]
    lines = [f"pylayer benchmarks, {result['date']}; {result['machine']['summary']}",
             f"median of {settings['repeat']} process(es) x {settings['samples']} sample(s), "
             f">= {settings['min_time']} s per sample, sizes '{settings['size']}', "
             "1 thread everywhere",
             _row("", libs)]
    notes = []
    for workload in WORKLOADS:
        wres = result["workloads"].get(workload.key)
        if wres is None:
            continue
        lines.append(f"{workload.key} {workload.title} ({workload.unit})")
        for case in workload.cases:
            cells = [_cell(wres["cases"][case].get(lib), lib in absent) for lib in libs]
            lines.append(_row(case, cells))
            for lib in libs:
                entry = wres["cases"][case].get(lib)
                if entry and entry["status"] != "ok":
                    notes.append(f"  [{workload.key} {case} {lib}] {entry['reason']}")
        lines.extend(_ratio_rows(workload, wres, libs))
        if workload.same_loss:
            lines.append(_first_losses(wres, libs))
        for target in result["targets"]:
            if target["workload"] == workload.key:
                value = "" if target["value"] is None else f" ({target['value']:.2f})"
                lines.append(f"  target {target['text']}: {target['status']}{value}")
    if notes:
        lines.append("not measured:")
        lines.extend(notes)
    lines.append("absent peers: " + (", ".join(sorted(absent)) or "none"))
    return "\n".join(lines)


def _first_losses(wres, libs):
    """The first step's loss of each library (the models start from the same weights)."""
    losses = {lib: entry.get("first_loss") for lib in libs
              for entry in [wres["cases"].get("main", {}).get(lib)]
              if entry and entry["status"] == "ok" and entry.get("first_loss") is not None}
    if not losses:
        return "  first-step loss: none measured"
    spread = max(losses.values()) - min(losses.values())
    shown = ", ".join(f"{lib} {value:.7g}" for lib, value in losses.items())
    return f"  first-step loss: {shown} (spread {spread:.2g})"


def _ratio_rows(workload, wres, libs):
    rows = []
    for case in workload.cases:
        ours = _median(wres, case, "pylayer")
        cells = []
        for lib in libs:
            theirs = _median(wres, case, lib)
            ok = ours is not None and theirs is not None and lib != "pylayer"
            cells.append(f"{ours / theirs:.2f}x" if ok else "")
        if any(cells):
            label = "pylayer / peer" + ("" if case == "main" else f" ({case})")
            rows.append(_row(label, cells))
    if workload.key in FLOORS:
        (lib, case), name, meaning = FLOORS[workload.key]
        floor, step = _median(wres, "blas", "numpy"), _median(wres, case, lib)
        if floor is not None and step is not None:
            rows.append(f"  products alone / {name}: {floor / step:.2f} ({meaning})")
    if workload.key in CASE_RATIOS:
        num, den = CASE_RATIOS[workload.key]
        ratios, extras = [], []
        for lib in libs:
            a, b = _median(wres, num, lib), _median(wres, den, lib)
            ratios.append("-" if a is None or b is None else f"{a / b:.2f}")
            extras.append("-" if a is None or b is None else _number((a - b) / SAVED_PER_OP))
        rows.append(_row(f"{num}/{den}", ratios))
        if workload.key == "5":
            rows.append(_row("extra us/saved tensor", extras))
    return rows


def plot(result, path):
    """Write a PNG of the medians; return a sentence saying what happened."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "plot skipped: matplotlib is not importable in this interpreter"
    colors = dict(zip(LIBS, ["#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd"]))
    shown = [w for w in WORKLOADS if w.key in result["workloads"]]
    columns = min(4, len(shown)) or 1
    rows = (len(shown) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(4.2 * columns, 3.6 * rows), squeeze=False)
    for ax, workload in zip(axes.flat, shown):
        cases = result["workloads"][workload.key]["cases"]
        labels, heights, bar_colors = [], [], []
        for case in workload.cases:
            for lib in LIBS:
                entry = cases.get(case, {}).get(lib)
                if entry and entry["status"] == "ok":
                    labels.append(lib if case == "main" else f"{lib}\n{case}")
                    heights.append(entry["median"])
                    bar_colors.append(colors[lib])
        ax.bar(range(len(heights)), heights, color=bar_colors)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=60, fontsize=7, ha="right")
        ax.set_title(f"({workload.key}) {workload.title}", fontsize=8)
        ax.set_ylabel(workload.unit, fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    fig.suptitle(f"pylayer vs peers, medians (lower is better), {result['date']}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return f"plot written to {path}"
