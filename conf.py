"""Sphinx configuration of the Juju Radar archive."""

project = "Juju Radar"
author = "Juju Radar 编辑部"
copyright = "2026, Juju Radar"
language = "zh_CN"
# The interface translations are locales/<language>/LC_MESSAGES/sphinx.po, text only: the
# build compiles them itself and Sphinx reads only what it compiled
# (juju_radar/sphinx_ext/translations.py). Sphinx must not look into locales/ itself.
locale_dirs: list[str] = []

extensions = [
    "myst_parser",
    "sphinxcontrib.bibtex",
    "juju_radar",
]
# The extension adds its templates and static files, and excludes everything in the
# repository that is not the site (juju_radar/model/site_layout.py).

html_theme = "sphinx_book_theme"
html_title = "Juju Radar 归档"
html_last_updated_fmt = None
html_copy_source = False
html_show_sourcelink = False
html_use_index = False  # the archive has no index entries: genindex.html would be empty
html_theme_options = {
    "show_toc_level": 2,
    "home_page_in_toc": True,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "search_bar_text": "搜索……",
}

# MyST: no raw HTML in content; colon fences carry the item blocks.
myst_enable_extensions = ["colon_fence"]
myst_disable_syntax = ["html_block", "html_inline"]
myst_title_to_header = True
myst_heading_anchors = 0

# Citations: sphinxcontrib-bibtex parses the .bib files (and keeps them in the
# environment until they change); the extension renders the references page and each
# issue's numbered bibliography from that data in the pybtex style "radar" (title case
# kept, Chinese authors joined with 、, institutional authors whole), formatting each
# entry once and keeping it between builds.
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "radar"
bibtex_reference_style = "label"
bibtex_tooltips = False  # nothing cites through sphinxcontrib-bibtex roles
bibtex_cite_id = "cite-{key}"
bibtex_bibliography_id = "bibliography-{bibliography_count}"

# The archive's vocabularies: key, Chinese label, English label, description, aliases.
radar_topics = [
    {
        "key": "agent",
        "label": "Agent",
        "label_en": "Agent",
        "description": "智能体、Coding Agent 与工具使用：能否把事情真正做完。",
        "aliases": ["智能体", "Agents"],
    },
    {
        "key": "training",
        "label": "模型训练",
        "label_en": "Training",
        "description": "预训练、后训练、强化学习与训练方法。",
        "aliases": ["训练", "Model training"],
    },
    {
        "key": "3d",
        "label": "3D 生成",
        "label_en": "3D Generation",
        "description": "3D 资产、场景生成与仿真。",
        "aliases": ["3D", "3D生成"],
    },
    {
        "key": "ai-for-science",
        "label": "AI for Science",
        "label_en": "AI for Science",
        "description": "AI 在生命科学、医药与其他科学研究中的应用。",
        "aliases": ["AI4Science", "科学智能"],
    },
    {
        "key": "governance",
        "label": "治理",
        "label_en": "Governance",
        "description": "法律、监管、司法与 AI 的应用边界。",
        "aliases": ["监管", "AI 治理"],
    },
]
radar_verdicts = [
    {
        "key": "dig-deeper",
        "label": "建议深挖",
        "label_en": "Dig deeper",
        "description": "值得花时间读原文并复现或跟进。",
    },
    {
        "key": "keep-watching",
        "label": "持续观察",
        "label_en": "Keep watching",
        "description": "方向重要，结论仍待后续验证。",
    },
    {
        "key": "read-original",
        "label": "建议阅读原文",
        "label_en": "Read the original",
        "description": "原文本身就是要点，建议直接保存阅读。",
    },
]
# Absolute URL of the published site, for feeds, the sitemap and social cards.
radar_site_url = ""

# radar's messages and the problems the build reports are in Chinese unless the locale
# (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) or `radar --lang en` asks for English.
radar_messages_language = "zh"
