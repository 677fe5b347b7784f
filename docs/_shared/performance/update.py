"""Write the performance guide's table and plot from a benchmark run.

    python docs/_shared/performance/update.py [RESULT_JSON [PLOT_PNG]]

By default it reads ``benchmarks/results/latest.json`` and
``benchmarks/results/benchmarks.png`` (what ``python benchmarks/run.py``
writes), then writes ``table.rst`` next to this file and copies the plot
there as ``benchmarks.png``. Both language versions of
``guides/performance.rst`` include these two files.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DEFAULT_JSON = os.path.join(ROOT, "benchmarks", "results", "latest.json")
DEFAULT_PLOT = os.path.join(ROOT, "benchmarks", "results", "benchmarks.png")
TABLE = os.path.join(HERE, "table.rst")
PLOT = os.path.join(HERE, "benchmarks.png")


def _number(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _cell(entry, absent):
    if absent:
        return "absent"
    if entry is None:
        return "\u2014"
    if entry["status"] == "ok":
        return _number(entry["median"])
    return "n/a" if entry["status"] == "unavailable" else "error"


def _escape(text):
    """Plain text made safe for reStructuredText (``*`` in titles, ``_`` in reasons...)."""
    for char in "\\*_`|":
        text = text.replace(char, "\\" + char)
    return text


def _list_table(header, rows, widths):
    lines = [".. list-table::", "   :header-rows: 1",
             "   :widths: " + " ".join(str(w) for w in widths), ""]
    for row in [header] + rows:
        lines.append(("   * - " + row[0]).rstrip())
        lines.extend(("     - " + cell).rstrip() for cell in row[1:])
    return lines


def render_table(result):
    """The reStructuredText of the results of one run (no section titles)."""
    libs = list(result["peers"])
    absent = set(result["absent"])
    settings = result["settings"]
    versions = ", ".join(f"{lib} {info['version']}" for lib, info in result["peers"].items()
                         if info.get("available"))
    lines = [_escape(f"Run of {result['date']} on {result['machine']['summary']}; median of "
             f"{settings['repeat']} processes x {settings['samples']} samples of at least "
             f"{settings['min_time']} s, one thread in every library. Versions: {versions}."),
             ""]

    rows, notes = [], []
    for key, workload in result["workloads"].items():
        for index, (case, entries) in enumerate(workload["cases"].items()):
            number, label = (key, f"{workload['title']}, {workload['unit']}") if index == 0 \
                else ("", "")
            rows.append([number, _escape(label), "``" + case + "``"]
                        + [_cell(entries.get(lib), lib in absent) for lib in libs])
            for lib, entry in entries.items():
                if entry["status"] != "ok":
                    notes.append(f"({key}) {case} {lib}: {entry.get('reason', entry['status'])}")
    lines += _list_table(["#", "Workload", "Case"] + libs, rows, [4, 34, 8] + [9] * len(libs))
    lines.append("")

    target_rows = []
    for target in result["targets"]:
        value = "\u2014" if target["value"] is None else f"{target['value']:.2f}"
        status = target["status"].split(" ")[0]
        target_rows.append([target["workload"], _escape(target["text"]), str(target["limit"]),
                            value, f"**{status}**"])
    lines += _list_table(["#", "Target", "Limit", "Measured", "Result"], target_rows,
                         [4, 51, 10, 15, 20])
    lines.append("")

    if notes or absent:
        lines += ["Not measured in this run:", "", ".. code-block:: text", ""]
        lines += ["   " + note for note in notes]
        lines += ["   absent peer: " + lib for lib in sorted(absent)]
        lines.append("")
    return "\n".join(lines)


def main(argv):
    json_path = argv[1] if len(argv) > 1 else DEFAULT_JSON
    plot_path = argv[2] if len(argv) > 2 else DEFAULT_PLOT
    with open(json_path) as stream:
        result = json.load(stream)
    with open(TABLE, "w") as stream:
        stream.write(render_table(result))
    shutil.copyfile(plot_path, PLOT)
    print(f"wrote {TABLE} and {PLOT}")


if __name__ == "__main__":
    main(sys.argv)
