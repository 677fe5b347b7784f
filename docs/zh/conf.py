"""Sphinx configuration of the Chinese site; the shared settings are in ../_shared."""
import logging
import os
import sys

import jieba  # splits Chinese text into words for the search index (docs extra)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))

from conf_common import *  # noqa: E402,F401,F403

language = "zh_CN"
bilingual_language = "zh"
bilingual_languages = {"en": "English", "zh": "中文"}

copyright = author = "pylayer 作者"
# The theme's interface strings in Chinese: locales/zh_CN/LC_MESSAGES/sphinx.po,
# compiled by Sphinx at build time.
locale_dirs = ["locales"]
# The query split like the index, and furo's English labels in Chinese.
extensions = extensions + ["chinese_site"]  # noqa: F405
# jieba reports loading its dictionary on stderr; the builds must print nothing.
jieba.setLogLevel(logging.WARNING)
