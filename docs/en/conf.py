"""Sphinx configuration of the English site; the shared settings are in ../_shared."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "_shared"))

from conf_common import *  # noqa: E402,F401,F403

language = "en"
bilingual_language = "en"
bilingual_languages = {"en": "English", "zh": "中文"}
