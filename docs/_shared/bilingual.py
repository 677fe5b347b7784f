"""Sphinx extension: every page links to the same page in the other language.

The two sites are built separately, each into an output directory whose path
holds a directory named after its language (``docs/en/_build/html`` and
``docs/zh/_build/html``, or ``out/en`` and ``out/zh``). The other site's
directory is found by swapping that name, and each page links to the page of
the same name there through a relative URL, so the links work from the file
system and from any web server that serves both trees.

conf.py sets ``bilingual_language`` (this site's directory name, e.g. "en")
and ``bilingual_languages`` (directory name -> label, in display order).
The ``language.html`` sidebar template shows the links, and ``bilingual.js``
carries the reader's section (the URL's #anchor) across.

Sections keep their place across the switch because both languages give each
section the same explicit label (``.. _api-autograd-computing-gradients:``),
and this extension makes that label the section's anchor instead of an id
made from the title (a Chinese title would give ``#id1``). On the Chinese
site it also joins the lines of wrapped Chinese paragraphs, which HTML would
otherwise separate with spaces.
"""
import os
import posixpath
import re

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)


def other_site_root(outdir, own, other):
    """The other language's output directory, or None if ``outdir`` has no ``own`` part."""
    parts = os.path.abspath(outdir).split(os.sep)
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] == own:
            return os.sep.join(parts[:i] + [other] + parts[i + 1:])
    return None


def language_links(app, pagename):
    """``[(label, url or None for this site)]`` for the page ``pagename``."""
    own = app.config.bilingual_language
    to_root = "../" * pagename.count("/")
    links = []
    for code, label in app.config.bilingual_languages.items():
        if code == own:
            links.append((label, None))
            continue
        root = other_site_root(app.outdir, own, code)
        if root is None:
            logger.warning("bilingual: the output directory %s has no part named %r, so the "
                           "link to the %r site cannot be placed", app.outdir, own, code)
            continue
        rel = os.path.relpath(root, app.outdir).replace(os.sep, "/")
        links.append((label, posixpath.join(to_root + rel, pagename + ".html")))
    return links


def add_language_links(app, pagename, templatename, context, doctree):
    context["language_links"] = language_links(app, pagename)


def label_anchors_first(app, doctree):
    """Put each section's explicit label first among its ids: the heading's
    anchor and the table of contents use the first id."""
    for section in doctree.findall(nodes.section):
        labels = [doctree.nameids[name] for name in section["names"]
                  if doctree.nametypes.get(name) and doctree.nameids.get(name) in section["ids"]]
        if labels:
            section["ids"] = labels + [i for i in section["ids"] if i not in labels]


# A line break between two Chinese characters (or full-width punctuation) of a
# wrapped source paragraph; HTML would show it as a space.
_CJK_LINE_BREAK = re.compile(r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])\n"
                             r"(?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])")


def join_chinese_lines(app, doctree):
    """Chinese prose wrapped in the source reads as one line, without stray spaces."""
    if not app.config.language.startswith("zh"):
        return
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if isinstance(parent, (nodes.FixedTextElement, nodes.literal)):
            continue
        joined = _CJK_LINE_BREAK.sub("", text)
        if joined != text:
            parent.replace(text, nodes.Text(joined))


def check_config(app, config):
    if config.bilingual_language not in config.bilingual_languages:
        logger.warning("bilingual: bilingual_language %r is not one of %s",
                       config.bilingual_language, list(config.bilingual_languages))


def setup(app):
    app.add_config_value("bilingual_language", "", "html")
    app.add_config_value("bilingual_languages", {}, "html")
    app.connect("config-inited", check_config)
    app.connect("html-page-context", add_language_links)
    # Before Sphinx's own doctree-read listeners (priority 500) record the
    # table of contents.
    app.connect("doctree-read", label_anchors_first, priority=400)
    app.connect("doctree-read", join_chinese_lines)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
