"""Sphinx extension: the ``paddle-coverage`` directive, the migration guide's
table of what pylayer has per Paddle namespace, made at build time.

The data is Paddle 3.3.1's name list and the lists beside it in
tools/paddle_api/, read by tools/paddle_coverage.py (the same code the coverage
test runs), against the pylayer the build imports. The directive writes a
table (namespace, names pylayer has, names that apply, Paddle's names, share)
and, per namespace, the names pylayer lacks in a collapsed list. Its labels
follow ``bilingual_language``.
"""
import html
import pathlib
import sys

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

TOOLS = pathlib.Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import paddle_coverage  # noqa: E402

LABELS = {
    "en": {"namespace": "Namespace", "have": "pylayer has", "applicable": "Applicable",
           "total": "In Paddle", "percent": "Share", "all": "all", "n/a": "not applicable",
           "missing": "{namespace}: {count} names missing",
           "none_missing": "{namespace}: nothing missing", "separator": ", "},
    "zh": {"namespace": "命名空间", "have": "pylayer 已有", "applicable": "适用",
           "total": "飞桨中", "percent": "比例", "all": "合计", "n/a": "不适用",
           "missing": "{namespace}：缺少 {count} 个名称",
           "none_missing": "{namespace}：无缺少", "separator": "、"},
}


def row(cells):
    tr = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += nodes.paragraph("", "", cell if isinstance(cell, nodes.Node) else nodes.Text(cell))
        tr += entry
    return tr


def share(have, applicable, labels):
    return labels["n/a"] if not applicable else f"{100.0 * have / applicable:.0f} %"


def coverage_table(spaces, labels):
    table = nodes.table(classes=["paddle-coverage"])
    group = nodes.tgroup(cols=5)
    table += group
    for width in (34, 16, 16, 16, 18):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += row([labels[key] for key in ("namespace", "have", "applicable", "total", "percent")])
    group += head
    body = nodes.tbody()
    for space in spaces:
        body += row([nodes.literal(space.name, space.name), str(len(space.have)),
                     str(len(space.applicable)), str(len(space.names)),
                     share(len(space.have), len(space.applicable), labels)])
    have = sum(len(space.have) for space in spaces)
    applicable = sum(len(space.applicable) for space in spaces)
    body += row([labels["all"], str(have), str(applicable), str(sum(len(s.names) for s in spaces)),
                 share(have, applicable, labels)])
    group += body
    return table


def missing_lists(spaces, labels):
    """One collapsed ``<details>`` per namespace that applies, listing what pylayer lacks."""
    parts = []
    for space in spaces:
        if not space.applicable:
            continue
        missing = space.missing
        key = "missing" if missing else "none_missing"
        summary = html.escape(labels[key].format(namespace=space.name, count=len(missing)))
        names = labels["separator"].join(f"<code>{html.escape(name)}</code>" for name in missing)
        parts.append(f"<details class=\"paddle-missing\"><summary>{summary}</summary>"
                     f"<p>{names}</p></details>" if missing else f"<p>{summary}</p>")
    return nodes.raw("", "\n".join(parts), format="html")


class PaddleCoverage(SphinxDirective):
    """``.. paddle-coverage::``: the table, then the names missing per namespace."""

    def run(self):
        for path in (paddle_coverage.NAMES, paddle_coverage.NOT_APPLICABLE,
                     TOOLS / "paddle_coverage.py"):
            self.env.note_dependency(str(path))
        labels = LABELS[self.config.bilingual_language]
        spaces = paddle_coverage.namespaces()
        return [coverage_table(spaces, labels), missing_lists(spaces, labels)]


def setup(app):
    app.add_directive("paddle-coverage", PaddleCoverage)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
