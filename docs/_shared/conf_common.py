"""Sphinx settings shared by the English and the Chinese site.

Each language's ``conf.py`` runs ``from conf_common import *`` and then sets
``language`` and the two ``bilingual_*`` values. Nothing here reaches the
network: no intersphinx, and the theme (furo), the copy button and the Chinese
word splitter are installed from the ``docs`` extra.
"""
import os

SHARED = os.path.dirname(os.path.abspath(__file__))

project = "pylayer"
author = "the pylayer authors"
copyright = "the pylayer authors"
release = version = "0.1.0"

# bilingual and paddle_coverage_table (the migration guide's table of Paddle's
# namespaces): docs/_shared/ (conf.py put this folder on sys.path).
extensions = ["bilingual", "sphinx_copybutton", "paddle_coverage_table", "api_entries"]

# The copy button copies the code of an example without its ">>> " and "... "
# prompts and without the output lines.
copybutton_prompt_text = r">>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

root_doc = "index"
exclude_patterns = ["_build"]
templates_path = [os.path.join(SHARED, "_templates")]
html_static_path = [os.path.join(SHARED, "_static")]
html_css_files = ["bilingual.css", "examples.css", "figures.css"]
html_js_files = ["bilingual.js", "examples.js"]
# Which results a search shows, and in which order (see the file).
html_search_scorer = os.path.join(SHARED, "search_tuning.js")

# Every cross-reference must resolve: a missing target is a warning, and the
# builds run with -W.
nitpicky = True
default_role = "literal"
add_module_names = False
python_display_short_literal_types = True

html_theme = "furo"
html_title = "pylayer"
html_favicon = os.path.join(SHARED, "_static", "favicon.svg")
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_sidebars = {
    "**": [
        "sidebar/brand.html",
        "language.html",
        "sidebar/search.html",
        "sidebar/scroll-start.html",
        "sidebar/navigation.html",
        "sidebar/scroll-end.html",
    ],
}
