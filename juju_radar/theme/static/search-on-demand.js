/* A story page's search, loaded when the reader opens it: the page leaves search.js and
 * search.css out of its first visit (sphinx_ext/page_assets.py, on_demand), and this
 * script adds them the first time the theme's search dialog, its button or Ctrl+K / ⌘K
 * is used. search.js then handles the dialog as on every other page; what the reader
 * already typed is searched, and the index starts loading at once.
 */
(() => {
  "use strict";

  const loader = document.currentScript;
  if (!loader) return;
  const { radarSearchScript: script, radarSearchStyle: style } = loader.dataset;
  const INPUT = "#pst-search-dialog input[name=q]";
  const OPENERS = ".search-button__button, .search-button-field";
  let loaded = false;

  function replay() {
    const input = document.querySelector(INPUT);
    if (!input) return;
    if (document.activeElement === input) input.dispatchEvent(new FocusEvent("focus"));
    if (input.value) input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function load() {
    if (loaded || !script) return;
    loaded = true;
    if (style) {
      const sheet = document.createElement("link");
      Object.assign(sheet, { rel: "stylesheet", href: style });
      document.head.append(sheet);
    }
    const code = document.createElement("script");
    code.src = script;
    code.addEventListener("load", replay);
    document.head.append(code);
  }

  const opens = (target) => target instanceof Element && target.closest(`${INPUT}, ${OPENERS}`);
  document.addEventListener("focusin", (event) => { if (opens(event.target)) load(); });
  document.addEventListener("pointerdown", (event) => { if (opens(event.target)) load(); });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") load();
  });
})();
