"""The extension's configuration values, declared once and checked on config-inited."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from juju_radar.bib.size_limits import (
    DEFAULT_MAX_ENTRIES,
    DEFAULT_MAX_FIELD_CHARS,
    BibLimits,
    read_bib_limits,
)
from juju_radar.model.issue_records import DEFAULT_DATE_SPAN, read_date_span
from juju_radar.model.listing_views import ViewSettings
from juju_radar.model.messages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    _,
    choose_language,
)
from juju_radar.model.page import PageLimits
from juju_radar.model.site_layout import NOT_SITE
from juju_radar.model.vocabulary import Vocabulary, vocabulary_from_config

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

CONFIG_VALUES: tuple[tuple[str, object, Literal["env", "html"], type | tuple[type, ...]], ...] = (
    ("radar_topics", [], "env", list),
    ("radar_verdicts", [], "env", list),
    ("radar_site_url", "", "html", str),
    ("radar_feed_limit", 50, "html", int),
    # Subscribing other than by feed, shown on the subscribe page only when set: the
    # address of an email newsletter's sign-up page (or a mailto:), and of the WeChat
    # official account's page.
    ("radar_subscribe_email", "", "html", str),
    ("radar_subscribe_wechat", "", "html", str),
    # Issues the front page lists after the newest one (``listing_views.recent``).
    ("radar_front_page_issues", 10, "html", int),
    # Draw each story's share card (``og:image``); False for a site that wants none: its
    # story pages are then shared as a summary, without an image.
    ("radar_story_cards", True, "html", bool),
    # The first and last year an issue may be dated in.
    ("radar_date_span", DEFAULT_DATE_SPAN, "env", (tuple, list)),
    # How large the .bib files may be: entries, and characters in a field once @string
    # macros are expanded (juju_radar.bib.size_limits.BibLimits).
    ("radar_bib_max_entries", DEFAULT_MAX_ENTRIES, "env", int),
    ("radar_bib_max_field_chars", DEFAULT_MAX_FIELD_CHARS, "env", int),
    # How big a page may be (``model.page.PageLimits``).
    ("radar_max_page_chars", PageLimits.max_chars, "env", int),
    ("radar_max_items", PageLimits.max_items, "env", int),
    # Set on config-inited, not by conf.py: see sphinx_ext.translations.
    ("radar_interface_digest", "", "html", str),
    # Set by ``radar serve`` only (``sphinx_ext.preview``): never in conf.py.
    ("radar_preview", False, "html", bool),
    # Build draft issues too (``sphinx_ext.drafts``): on in ``radar serve``, or with
    # ``-D radar_build_drafts=1``; never for the published site.
    ("radar_build_drafts", False, "env", bool),
    # The language of the problems the build reports, unless the locale names one
    # (``juju_radar.model.messages``); this archive's conf.py sets "zh".
    ("radar_messages_language", DEFAULT_LANGUAGE, "env", str),
    # The archive's licence, as the editors choose it: {"spdx": ..., "url": ...}
    # (``juju_radar.model.license``); unset, the site states none. Any value conf.py can
    # write: a wrong one is reported at its line (``bad-license``), not by Sphinx.
    ("radar_license", None, "html", (dict, list, tuple, str, int, float, bool, type(None))),
)
RECORD_KEYS = {"key", "label", "label_en", "description", "aliases"}

# ``RADAR_ACCEL=0``: the build without its accelerations (``juju_radar.accel``), the
# reference the accelerated build must equal. ``RADAR_ACCEL_OFF=NAME,NAME``: without
# the accelerations so named (the register's names), as bench/accel_gains.py measures.
ACCEL_ENV = "RADAR_ACCEL"
ACCEL_OFF_ENV = "RADAR_ACCEL_OFF"


def accelerations_enabled() -> bool:
    return os.environ.get(ACCEL_ENV, "1") != "0"


def acceleration_enabled(name: str) -> bool:
    """Whether the environment lets the acceleration ``name`` run (the register's guard
    also checks the versions it was written for)."""
    named_off = os.environ.get(ACCEL_OFF_ENV, "").split(",")
    return accelerations_enabled() and name not in named_off


def add_config_values(app: Sphinx) -> None:
    for name, default, rebuild, types in CONFIG_VALUES:
        app.add_config_value(name, default, rebuild, types)


def check_config(app: Sphinx, config: Config) -> None:
    choose_messages_language(config)
    config.radar_date_span = date_span(config.radar_date_span)
    bib_limits(config)
    if config.radar_front_page_issues < 0:
        from sphinx.errors import ConfigError

        raise ConfigError(_("radar_front_page_issues must be 0 or more"))
    for name in ("radar_topics", "radar_verdicts"):
        for entry in getattr(config, name):
            unknown = set(entry) - RECORD_KEYS
            missing = {"key", "label", "label_en"} - set(entry)
            if unknown or missing:
                from sphinx.errors import ConfigError

                raise ConfigError(
                    _(
                        "{name}: entry {entry!r} has unknown fields {unknown} or lacks {missing}"
                    ).format(
                        name=name,
                        entry=entry.get("key", entry),
                        unknown=sorted(unknown),
                        missing=sorted(missing),
                    )
                )


def choose_messages_language(config: Config) -> None:
    """The build reports problems in the language ``radar`` would; the choice is a
    config value, so a change of language re-reads every page (and its problems). The
    first check of the configuration, so that the others speak that language."""
    setting = config.radar_messages_language
    language = choose_language(None, lambda: setting)
    if setting not in LANGUAGES:
        from sphinx.errors import ConfigError

        raise ConfigError(
            _("radar_messages_language must be one of {languages}").format(
                languages=", ".join(LANGUAGES)
            )
        )
    config.radar_messages_language = language


FAVICON = "favicon.svg"


def add_theme_files(app: Sphinx, config: Config) -> None:
    """The extension's templates and static files come first from the package; a site's
    own ``templates_path`` entries and later ``html_static_path`` entries override them."""
    from juju_radar.theme import STATIC_DIR, TEMPLATES_DIR

    # Relative to conf.py, so that where the repository is cloned does not change the
    # configuration's digest in .buildinfo.
    templates, static = (os.path.relpath(path, app.confdir) for path in (TEMPLATES_DIR, STATIC_DIR))
    config.templates_path = [*config.templates_path, templates]
    config.html_static_path = [static, *config.html_static_path]
    if not config.html_favicon:  # without one every first visit asks for /favicon.ico: 404
        config.html_favicon = os.path.join(static, FAVICON)


def no_documentation_pager(app: Sphinx, config: Config) -> None:
    """An archive has no reading order: issue pages link their neighbouring issues
    themselves, and listing pages need no "下一页" to the next page of the toctree."""
    config.html_theme_options = {"show_prev_next": False, **config.html_theme_options}


def exclude_non_site(app: Sphinx, config: Config) -> None:
    """Only the site is source: the package, tests, tools and build output are not."""
    config.exclude_patterns = [*config.exclude_patterns, *NOT_SITE]


def date_span(value: object) -> tuple[int, int]:
    """``radar_date_span`` as two years, first <= last (a ConfigError otherwise)."""
    span = read_date_span(value)
    if span is not None:
        return span
    from sphinx.errors import ConfigError

    raise ConfigError(
        _("radar_date_span must be two years (first, last), not {value!r}").format(value=value)
    )


def page_limits(config: Config) -> PageLimits:
    return PageLimits(config.radar_max_page_chars, config.radar_max_items)


def bib_limits(config: Config) -> BibLimits:
    """``radar_bib_max_entries`` and ``radar_bib_max_field_chars`` (a ConfigError if wrong)."""
    limits = read_bib_limits(config.radar_bib_max_entries, config.radar_bib_max_field_chars)
    if isinstance(limits, BibLimits):
        return limits
    from sphinx.errors import ConfigError

    raise ConfigError(limits)


def vocabulary(config: Config) -> Vocabulary:
    return vocabulary_from_config(config.radar_topics, config.radar_verdicts)


def subscribe_links(config: Config) -> tuple[tuple[str, str], ...]:
    """(label, address) of each way to subscribe other than feeds that conf.py sets."""
    given = [
        ("邮件订阅", config.radar_subscribe_email),
        ("微信公众号", config.radar_subscribe_wechat),
    ]
    return tuple((label, address.strip()) for label, address in given if address.strip())


def view_settings(config: Config) -> ViewSettings:
    """What the listings' view models take from ``conf.py``."""
    topics = tuple(topic.key for topic in vocabulary(config).topics)
    return ViewSettings(config.radar_front_page_issues, topics)
