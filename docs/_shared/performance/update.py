"""Write the performance guide's results, in each language, from a benchmark run.

    python docs/_shared/performance/update.py [RESULT_JSON]

By default it reads ``benchmarks/results/latest.json`` (what
``python benchmarks/run.py`` writes) and writes, for each language, next to
this file: ``<lang>/results.rst`` (the run, one small bar chart and one
generated sentence per workload, the targets and why any was missed, what
was not measured) and ``<lang>/workload-<n>.svg`` (the bar charts, drawn
here as plain SVG so that their text is in the page's language and
renders with the browser's fonts). ``guides/performance.rst`` of each
language includes its ``results.rst``.

Every sentence about the numbers is generated from the run, so prose and
table cannot disagree. A missed target needs an explanation in
``MISS_EXPLANATIONS``; without one the script stops.
"""
import html
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DEFAULT_JSON = os.path.join(ROOT, "benchmarks", "results", "latest.json")
LANGUAGES = ("en", "zh")
# From docs/<lang>/guides/performance.rst, which includes the results.
FROM_GUIDE = "../../_shared/performance"

COLORS = {"pylayer": "#d62728", "paddle": "#1f77b4", "torch": "#ff7f0e", "numpy": "#2ca02c",
          "autograd": "#9467bd"}

WORDS = {
    "en": {
        "run": "Run of {date} on {machine}: the median of {repeat} processes x {samples} "
               "samples of at least {min_time} s each, one thread in every library. "
               "Versions: {versions}.",
        "cores": "{cpu}, {cores} cores, load {load} at start",
        "lower": "Median times, lower is better.",
        "alt": "Bar chart of the median times of workload {key}, in {unit}.",
        "took": "pylayer: {value} {unit}",
        "peer": "{lib} {value} ({ratio}x pylayer's time)",
        "case": "``{case}``: ",
        "and": ", ",
        "end": ".",
        "then": "; ",
        "targets_intro": "The targets are ratios measured within this run:",
        "targets_header": ["#", "Target", "Limit", "Measured", "Result"],
        "miss": "Why workload {key} misses its target ({value} against {limit}):",
        "not_measured": "Not measured in this run:",
        "not_measured_item": "workload {key}, {case}, {lib}: {note}",
        "absent": "absent peer: {lib}",
        "error": "error",
        "because": "{error} ({reason})",
        "na": "n/a",
        "status": {"PASS": "PASS", "MISS": "MISS"},
        "none": "no result",
    },
    "zh": {
        "run": "运行于 {date}，机器：{machine}。每项取 {repeat} 个进程 × {samples} 次采样（每次至少 "
               "{min_time} 秒）的中位数，所有库均为单线程。版本：{versions}。",
        "cores": "{cpu}，{cores} 核，开始时负载 {load}",
        "lower": "图中为中位耗时，越低越好。",
        "alt": "测试项 {key} 的中位耗时柱状图，单位为{unit}。",
        "took": "pylayer：{value} {unit}",
        "peer": "{lib} {value}（pylayer 耗时的 {ratio} 倍）",
        "case": "{case}：",
        "and": "、",
        "end": "。",
        "then": "；",
        "targets_intro": "性能目标都是本次运行中测得的比值：",
        "targets_header": ["#", "目标", "上限", "实测", "结果"],
        "miss": "测试项 {key} 未达到目标的原因（实测 {value}，上限 {limit}）：",
        "not_measured": "本次运行中未能测得：",
        "not_measured_item": "测试项 {key}，{case}，{lib}：{note}",
        "absent": "未安装的对比库：{lib}",
        "error": "出错",
        "because": "{error}（{reason}）",
        "na": "不适用",
        "status": {"PASS": "达标", "MISS": "未达标"},
        "none": "无结果",
    },
}

# The Chinese names of the workloads, units, cases and targets of benchmarks/run.py.
ZH_TITLES = {
    "1": "PyLayer tanh 链，[64] float32，前向 + 反向",
    "2": "内置算子 y = tanh(y)*0.5 + y，[64]，前向 + 反向",
    "3": "PyLayer tanh 链，2^20 个 float32，前向 + 反向",
    "4": "MLP 训练步 64x784-256-10，ReLU，交叉熵，SGD",
    "5": "multiply 链 [64]，前向 + 反向，恒等 saved_tensors_hooks",
    "6": "tanh 链 [64] 的一次反向，1 万与 10 万个节点",
    "7": "tanh 链 [64]，仅前向：Executor.run 与动态图",
    "8": "小型 CNN 训练步 [16,3,32,32]：Conv-BN-ReLU-池化，Conv-ReLU-池化，Linear，交叉熵，SGD",
    "9": "单独的 Conv2D(C,O,3,p=1)，前向 + 反向：3to16 在 [16,3,32,32] 上，16to32 在 "
         "[16,16,16,16] 上",
    "10": "注意力训练步 [8,32,64]：LayerNorm，q/k/v Linear，softmax(qk^T/8)v，均值，SGD",
}
ZH_UNITS = {"us/op": "微秒/算子", "ms/op": "毫秒/算子", "ms/step": "毫秒/步",
            "ms/backward": "毫秒/次反向"}
ZH_CASES = {"plain": "无 hook", "hooks": "恒等 hook", "10k": "1 万节点", "100k": "10 万节点",
            "dynamic": "动态图", "static": "静态图"}
ZH_TARGETS = [
    (r"pylayer <= ([\d.]+)x Paddle PyLayer", "pylayer ≤ Paddle PyLayer 的 {0} 倍"),
    (r"pylayer <= ([\d.]+)x torch Function", "pylayer ≤ torch Function 的 {0} 倍"),
    (r"pylayer <= ([\d.]+)x torch built-ins", "pylayer ≤ torch 内置算子的 {0} 倍"),
    (r"pylayer <= ([\d.]+)x numpy reference", "pylayer ≤ numpy 参考实现的 {0} 倍"),
    (r"pylayer <= ([\d.]+)x torch", "pylayer ≤ torch 的 {0} 倍"),
    (r"pylayer <= ([\d.]+)x Paddle", "pylayer ≤ Paddle 的 {0} 倍"),
    (r"pylayer (\w+) <= ([\d.]+)x torch", "pylayer {0} ≤ torch 的 {1} 倍"),
    (r"pylayer hooks/plain <= ([\d.]+)", "pylayer 恒等 hook / 无 hook ≤ {0}"),
    (r"pylayer 100k/10k <= ([\d.]+)", "pylayer 10 万 / 1 万节点 ≤ {0}"),
    (r"pylayer static/dynamic <= ([\d.]+)", "pylayer 静态图 / 动态图 ≤ {0}"),
]
ZH_REASONS = [(r"worker killed by signal (\d+)", "子进程被信号 {0} 终止")]

# Why a target is missed, per workload; {peers} becomes the peers' ratios in the run.
_GEMM_EN = ("pylayer's convolutions are numpy's matrix products (OpenBLAS sgemm, about 90 to "
            "110 GFLOP/s on one core of this machine) over a compiled im2col buffer, where "
            "PyTorch runs oneDNN's convolution kernels, and the matrix products alone take "
            "about as long as PyTorch's whole convolution.")
_GEMM_ZH = ("pylayer 的卷积是在编译的 im2col 缓冲区上做 numpy 的矩阵乘法（OpenBLAS sgemm，在这台机器的"
            "单核上约 90 到 110 GFLOP/s），而 PyTorch 运行的是 oneDNN 的卷积内核，仅矩阵乘法的耗时就与 "
            "PyTorch 整个卷积的耗时相当。")
# How the host of a run moves ratios between runs (measured on the run's machine).
_HOST_EN = ("On this virtual machine a process runs at one of two speeds, fixed for seconds "
            "at a time (one pylayer worker of workload 1 takes 6.5 µs per op, the next 11 µs, "
            "whatever CPU it is pinned to, with or without address randomization), so a "
            "ratio of two medians moves by 20 % or more between runs of the same code.")
_HOST_ZH = ("在这台虚拟机上，一个进程以两种速度之一运行，每种速度持续数秒（工作负载 1 的一个 pylayer "
            "工作进程每个算子耗时 6.5 微秒，下一个则是 11 微秒，与绑定到哪个 CPU、是否启用地址随机化"
            "无关），因此同一份代码在不同运行之间，两个中位数之比会变动 20 % 或更多。")
MISS_EXPLANATIONS = {
    "8": {"en": "Most of the step is its two convolutions. " + _GEMM_EN,
          "zh": "这一步的大部分时间花在两个卷积上。" + _GEMM_ZH},
    "9": {"en": _GEMM_EN + " The rest (im2col, the bias, the loss's mean and its gradient) "
                           "decides the ratio, and the machine's load moves it by several "
                           "percent. The peers' ratios between the two shapes in the same run: "
                           "{peers}.",
          "zh": _GEMM_ZH + "比值取决于其余部分（im2col、偏置、损失的均值及其梯度），机器负载会让它变动"
                           "几个百分点。同一次运行中对比库在两种形状之间的比值：{peers}。"},
    "10": {"en": "The step is a few dozen small matrix products and elementwise ops on "
                 "[8, 32, 64]: half of pylayer's instructions are OpenBLAS's sgemm, a tenth "
                 "the compiled layer-norm and softmax loops, and the rest per-op costs (each "
                 "op of pylayer's backward is a Python-level rule). " + _HOST_EN,
           "zh": "这一步由几十个在 [8, 32, 64] 上的小矩阵乘法和逐元素算子组成：pylayer 的指令一半"
                 "在 OpenBLAS 的 sgemm 中，约十分之一在编译的层归一化和 softmax 循环中，其余是按算子计的开销"
                 "（pylayer 反向中的每个算子都是 Python 层的规则）。" + _HOST_ZH},
    "7": {"en": "The static run calls one numpy function per op on a [64] array, and numpy's "
                "call costs about as much as pylayer's dynamic op. " + _HOST_EN + " The peers' "
                "ratios in the same run: {peers}.",
          "zh": "静态图运行时对 [64] 数组的每个算子调用一次 numpy 函数，而 numpy 一次调用的开销与 "
                "pylayer 动态图中一个算子相当。" + _HOST_ZH + "同一次运行中对比库的比值：{peers}。"},
    "3": {
        "en": "The reference is numpy running the same formulas by hand, and numpy writes "
              "1 - y² and the product into the temporary array that y² made (its "
              "temporary elision). pylayer never writes into an operand, because a "
              "reference count cannot prove that nothing else holds it: each operator "
              "writes a new 4 MB result into memory from its buffer pool, one more pass over "
              "memory per operator. The peers' ratios in the same run: {peers}.",
        "zh": "参照基准是用 numpy 手写同样公式的实现，numpy 会把 1 - y² 和乘积直接写进 y² "
              "产生的临时数组（临时数组消除）。pylayer 从不写入操作数，因为引用计数无法证明没有"
              "别的代码持有它：每个运算符都写出一个新的 4 MB 结果，放在缓冲池的内存上，每个运算符"
              "多一次内存遍历。同一次运行中对比库的比值：{peers}。",
    },
    "4": {
        "en": "Most of the step is its matrix products (numpy's OpenBLAS sgemm for pylayer, "
              "PyTorch's own CPU kernels for PyTorch); the other ops (bias, ReLU, cross "
              "entropy, SGD) are per-op costs, where pylayer is the faster. " + _HOST_EN,
        "zh": "这一步的大部分时间花在矩阵乘法上（pylayer 用 numpy 的 OpenBLAS sgemm，PyTorch "
              "用它自己的 CPU 内核）；其余算子（偏置、ReLU、交叉熵、SGD）是按算子计的开销，"
              "pylayer 在这部分更快。" + _HOST_ZH,
    },
    "6": {
        "en": "A 10,000-node graph (about 10 MB of nodes, saved arrays and tensors) fits in "
              "the processor's 32 MB L3 cache and a 100,000-node graph does not, so each "
              "node of the larger graph costs more in cache misses; the code path is the "
              "same at both sizes, and beyond the cache the time is linear again "
              "(benchmarks/PROFILE.md). The peers' ratios in the same run: {peers}.",
        "zh": "1 万个节点的计算图（节点、暂存的数组和 Tensor 共约 10 MB）能放进处理器 32 MB 的 "
              "L3 缓存，10 万个节点的计算图放不下，因此大图的每个节点要多付出缓存未命中的代价；"
              "两种规模走的是同一条代码路径，超出缓存之后耗时又恢复线性"
              "（见 benchmarks/PROFILE.md）。同一次运行中对比库的比值：{peers}。",
    },
}


def number(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def escape(text):
    """Plain text made safe for reStructuredText (``*`` in titles, ``_`` in reasons...)."""
    for char in "\\*_`|":
        text = text.replace(char, "\\" + char)
    return text


def translate(text, patterns):
    for pattern, template in patterns:
        match = re.fullmatch(pattern, text)
        if match:
            return template.format(*match.groups())
    return text


class Language:
    """The words of one language for one run's names."""

    def __init__(self, lang):
        self.lang, self.words = lang, WORDS[lang]

    def title(self, key, workload):
        return ZH_TITLES[key] if self.lang == "zh" else workload["title"]

    def unit(self, unit):
        return ZH_UNITS[unit] if self.lang == "zh" else unit

    def case(self, case):
        return ZH_CASES.get(case, case) if self.lang == "zh" else case

    def target(self, text):
        return translate(text, ZH_TARGETS) if self.lang == "zh" else text

    def reason(self, text):
        return translate(text, ZH_REASONS) if self.lang == "zh" else text


def bar_chart(rows, unit):
    """An SVG bar chart: ``rows`` is ``[(label, library, median or None, note)]``."""
    row_height, label_width, bar_width, value_width = 24, 150, 360, 150
    width = label_width + bar_width + value_width
    height = row_height * len(rows) + 30
    largest = max((value for _, _, value, _ in rows if value is not None), default=1.0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">']
    for index, (label, lib, value, note) in enumerate(rows):
        y = index * row_height
        parts.append(f'<text x="{label_width - 8}" y="{y + 17}" text-anchor="end" '
                     f'fill="#555">{html.escape(label)}</text>')
        if value is None:
            parts.append(f'<text x="{label_width}" y="{y + 17}" fill="#666" '
                         f'font-style="italic">{html.escape(note)}</text>')
            continue
        length = max(1.0, bar_width * value / largest)
        parts.append(f'<rect x="{label_width}" y="{y + 4}" width="{length:.1f}" height="16" '
                     f'fill="{COLORS.get(lib, "#7f7f7f")}"/>')
        parts.append(f'<text x="{label_width + length + 6:.1f}" y="{y + 17}" '
                     f'fill="#333">{number(value)}</text>')
    parts.append(f'<text x="{label_width}" y="{height - 8}" fill="#555">'
                 f'{html.escape(unit)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def list_table(header, rows, widths):
    lines = [".. list-table::", "   :header-rows: 1",
             "   :widths: " + " ".join(str(w) for w in widths), ""]
    for row in [header] + rows:
        lines.append(("   * - " + row[0]).rstrip())
        lines.extend(("     - " + cell).rstrip() for cell in row[1:])
    return lines + [""]


def entry_note(entry, words, language):
    if entry["status"] == "unavailable":
        return words["na"]
    reason = language.reason(entry.get("reason", ""))
    return words["because"].format(error=words["error"], reason=reason) if reason else words["error"]


def render(result, lang):
    """``(results.rst text, {file name: svg text})`` of one language."""
    language, words = Language(lang), WORDS[lang]
    libs = list(result["peers"])
    machine = result["machine"]
    settings = result["settings"]
    versions = words["and"].join(f"{lib} {info['version']}" for lib, info in result["peers"].items()
                         if info.get("available"))
    machine_text = words["cores"].format(cpu=machine["cpu"], cores=machine["cores"],
                                         load=machine["load_at_start"])
    lines = [escape(words["run"].format(date=result["date"], machine=machine_text,
                                        repeat=settings["repeat"], samples=settings["samples"],
                                        min_time=settings["min_time"], versions=versions)),
             "", words["lower"], ""]
    charts, notes = {}, []
    for key, workload in result["workloads"].items():
        unit = language.unit(workload["unit"])
        rows, sentences = [], []
        for case, entries in workload["cases"].items():
            case_label = language.case(case)
            for lib in libs:
                entry = entries.get(lib)
                if entry is None:
                    continue
                label = lib if case == "main" else f"{lib} · {case_label}"
                if entry["status"] == "ok":
                    rows.append((label, lib, entry["median"], ""))
                else:
                    note = entry_note(entry, words, language)
                    rows.append((label, lib, None, note))
                    notes.append(words["not_measured_item"].format(
                        key=key, case=case_label, lib=lib, note=note))
            sentences.append(summary(entries, libs, unit, words)
                             if case == "main" else
                             words["case"].format(case=case_label)
                             + summary(entries, libs, unit, words))
        name = f"workload-{key}.svg"
        charts[name] = bar_chart(rows, unit)
        lines += [f"**({key}) {escape(language.title(key, workload))}**", "",
                  f".. image:: {FROM_GUIDE}/{lang}/{name}",
                  f"   :alt: {words['alt'].format(key=key, unit=unit)}", ""]
        for sentence in sentences:  # library names, numbers and units: nothing to escape
            lines += [sentence, ""]

    lines += [words["targets_intro"], ""]
    target_rows, misses = [], []
    for target in result["targets"]:
        value = "\u2014" if target["value"] is None else f"{target['value']:.2f}"
        status = target["status"].split(" ")[0]
        target_rows.append([target["workload"], escape(language.target(target["text"])),
                            str(target["limit"]), value,
                            f"**{words['status'].get(status, status)}**"])
        if status == "MISS":
            misses.append(target)
    lines += list_table(words["targets_header"], target_rows, [4, 51, 10, 15, 20])
    for target in misses:
        key = target["workload"]
        if key not in MISS_EXPLANATIONS:
            raise SystemExit(f"update.py: target {target['text']!r} is missed and "
                             f"MISS_EXPLANATIONS has no explanation for workload {key}")
        lines += [words["miss"].format(key=key, value=f"{target['value']:.2f}",
                                       limit=target["limit"]), "",
                  escape(MISS_EXPLANATIONS[key][lang].format(
                      peers=peer_growth(result["workloads"][key], libs, words))), ""]
    notes += [words["absent"].format(lib=lib) for lib in sorted(result["absent"])]
    if notes:
        lines += [words["not_measured"], ""] + ["* " + escape(note) for note in notes] + [""]
    return "\n".join(lines), charts


def summary(entries, libs, unit, words):
    """One sentence: pylayer's median, then each peer's with its ratio to pylayer's."""
    own = entries.get("pylayer")
    if own is None or own["status"] != "ok":
        return ""
    peers = [words["peer"].format(lib=lib, value=number(entries[lib]["median"]),
                                  ratio=f"{entries[lib]['median'] / own['median']:.2g}")
             for lib in libs[1:] if lib in entries and entries[lib]["status"] == "ok"]
    text = words["took"].format(value=number(own["median"]), unit=unit)
    return text + (words["then"] + words["and"].join(peers) if peers else "") + words["end"]


def peer_growth(workload, libs, words):
    """``torch 13.14, autograd 11.00``: each peer's ratio of its last case to its first."""
    first, last = list(workload["cases"].values())[0], list(workload["cases"].values())[-1]
    ratios = [f"{lib} {last[lib]['median'] / first[lib]['median']:.2f}" for lib in libs[1:]
              if lib in first and lib in last
              and first[lib]["status"] == last[lib]["status"] == "ok"]
    return words["and"].join(ratios)


def main(argv):
    json_path = argv[1] if len(argv) > 1 else DEFAULT_JSON
    with open(json_path) as stream:
        result = json.load(stream)
    for lang in LANGUAGES:
        text, charts = render(result, lang)
        folder = os.path.join(HERE, lang)
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name.startswith("workload-") and name.endswith(".svg"):
                os.remove(os.path.join(folder, name))
        with open(os.path.join(folder, "results.rst"), "w", encoding="utf-8") as stream:
            stream.write(text)
        for name, svg in charts.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as stream:
                stream.write(svg)
        print(f"wrote {folder}/results.rst and {len(charts)} charts")


if __name__ == "__main__":
    main(sys.argv)
