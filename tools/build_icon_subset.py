"""Write ``_static/scripts/fontawesome.js``: the theme's icons, only those the site uses.

pydata-sphinx-theme loads Font Awesome's whole SVG-with-JS bundle (1.5 MB, 527 KB
gzipped) on every page to draw about fifteen icons. Sphinx copies the site's
``_static`` over the theme's, so a file at the same path replaces it. This script lets
the real Font Awesome bundle draw each icon the templates use, in headless Chromium,
and keeps what it drew: each icon's SVG data and the CSS Font Awesome injects. The
replacement turns ``<i class="fa-solid fa-NAME">`` into that SVG, as Font Awesome does.

Run it again after changing the theme version or the icons templates use:
``.venv/bin/python tools/build_icon_subset.py``; ``tests/test_icons.py`` checks that
every icon the built pages use is in the subset.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

from conftest import CHROMIUM_ARGS  # noqa: E402

TARGET = ROOT / "juju_radar" / "theme" / "static" / "scripts" / "fontawesome.js"
# Every icon named in the templates of pydata-sphinx-theme, sphinx-book-theme and the site.
ICON_CLASS = re.compile(r"\bfa-(?!solid\b|regular\b|brands\b|lg\b|fw\b|custom\b)([a-z0-9-]+)")
STYLE_CLASSES = ("fa-solid", "fa-regular", "fa-brands")


def theme_dirs() -> list[Path]:
    import pydata_sphinx_theme
    import sphinx_book_theme

    return [Path(pydata_sphinx_theme.__file__).parent, Path(sphinx_book_theme.__file__).parent]


def used_icons() -> list[tuple[str, str]]:
    """(style class, icon name) pairs that templates and the site's own files use."""
    sources = [
        *ROOT.glob("juju_radar/theme/templates/*.html"),
        *ROOT.glob("juju_radar/theme/static/*.js"),
    ]
    for folder in theme_dirs():
        sources += [path for path in folder.rglob("*.html")]
        sources += [path for path in folder.rglob("*.py")]
    found: set[tuple[str, str]] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in ICON_CLASS.findall(text):
            found.add(("fa-solid", name))
    return sorted(found)


def bundle_path() -> Path:
    return (
        theme_dirs()[0] / "theme" / "pydata_sphinx_theme" / "static" / "scripts" / "fontawesome.js"
    )


def draw_icons(icons: list[tuple[str, str]]) -> tuple[dict[str, list[object]], str, str]:
    """Let Font Awesome draw each icon; return name -> [width, height, path], its CSS, license."""
    from playwright.sync_api import sync_playwright

    bundle = bundle_path().read_text(encoding="utf-8")
    markup = "".join(
        f'<span data-name="{name}"><i class="{style} fa-{name}"></i></span>'
        for style, name in icons
    )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        page = browser.new_page()
        page.set_content(f"<html><head></head><body>{markup}</body></html>")
        page.add_script_tag(content=bundle)
        page.wait_for_function("document.querySelectorAll('span[data-name] i').length === 0")
        drawn = page.eval_on_selector_all(
            "span[data-name] svg[data-icon]:not(.missing)",
            """svgs => svgs.map(svg => [
                svg.parentElement.dataset.name,
                svg.getAttribute('viewBox'),
                Array.from(svg.querySelectorAll('path'), p => p.getAttribute('d')),
            ])""",
        )
        css = page.evaluate(
            "Array.from(document.querySelectorAll('style'), s => s.textContent).join('\\n')"
        )
        browser.close()
    shapes = {}
    for name, view_box, paths in drawn:
        _, _, width, height = (int(float(part)) for part in view_box.split())
        shapes[name] = [width, height, *paths]
    license_file = bundle_path().with_name("fontawesome.js.LICENSE.txt")
    license_header = (
        license_file.read_text(encoding="utf-8").strip() if license_file.exists() else ""
    )
    return shapes, css, license_header


RUNTIME = """
  // A constructed stylesheet: the pages' Content-Security-Policy allows no inline <style>.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const NS = "http://www.w3.org/2000/svg";

  function draw(icon) {
    const name = Array.from(icon.classList, (cls) => cls.slice(3)).find((n) => n in ICONS);
    if (!name) return;
    const [width, height, ...paths] = ICONS[name];
    const svg = document.createElementNS(NS, "svg");
    const kept = Array.from(icon.classList).filter((cls) => !STYLES.includes(cls));
    svg.setAttribute("class", ["svg-inline--fa", ...kept].join(" "));
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("data-icon", name);
    svg.setAttribute("data-prefix", "fas");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-hidden", icon.getAttribute("aria-hidden") || "true");
    for (const d of paths) {
      const path = document.createElementNS(NS, "path");
      path.setAttribute("fill", "currentColor");
      path.setAttribute("d", d);
      svg.appendChild(path);
    }
    icon.replaceWith(svg);
  }

  function drawAll(root) {
    if (root.nodeType !== 1) return;
    if (root.matches("i[class*='fa-']")) draw(root);
    else root.querySelectorAll("i[class*='fa-']").forEach(draw);
  }

  const start = () => {
    drawAll(document.body);
    new MutationObserver((changes) => {
      for (const change of changes) change.addedNodes.forEach(drawAll);
    }).observe(document.body, { childList: true, subtree: true });
  };
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
"""


def main() -> int:
    icons = used_icons()
    shapes, css, license_header = draw_icons(icons)
    missing = sorted({name for _, name in icons} - set(shapes))
    script = "\n".join(
        [
            license_header,
            "/* A subset of Font Awesome Free for the Juju Radar archive, written by",
            "   tools/build_icon_subset.py from the bundle pydata-sphinx-theme ships. */",
            "(() => {",
            '  "use strict";',
            f"  const ICONS = {json.dumps(dict(sorted(shapes.items())), separators=(',', ':'))};",
            f"  const STYLES = {json.dumps(list(STYLE_CLASSES))};",
            f"  const CSS = {json.dumps(css)};",
            RUNTIME.rstrip(),
            "})();",
            "",
        ]
    )
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(script, encoding="utf-8")
    print(f"{len(shapes)} icons, {len(script) / 1024:.1f} KB written to {TARGET.relative_to(ROOT)}")
    if missing:
        print(f"not in Font Awesome's solid set (left out): {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
