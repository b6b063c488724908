/* What a story page loads only when the reader uses it (sphinx_ext/page_assets.py,
 * load_on_demand), so that its first visit stays small:
 *
 * - the search: search.js and search.css, added the first time the theme's search
 *   dialog, its button or Ctrl+K / ⌘K is used. search.js then handles the dialog as on
 *   every other page; what the reader already typed is searched, and the index starts
 *   loading at once.
 * - Bootstrap (the theme's tooltips and its colour-mode menu, 24 KB gzipped), added at
 *   the reader's first pointer, key, touch or scroll. A tooltip asked for meanwhile is
 *   shown, and a menu clicked before it came opens once it has.
 */
(() => {
  "use strict";

  const loader = document.currentScript;
  if (!loader) return;
  const { radarSearchScript, radarSearchStyle } = loader.dataset;
  const INPUT = "#pst-search-dialog input[name=q]";
  const OPENERS = ".search-button__button, .search-button-field";
  const THEME_SCRIPT = 'script[src*="scripts/pydata-sphinx-theme.js"]';
  const TOOLTIP = '[data-bs-toggle="tooltip"]';
  const MENU = '[data-bs-toggle="dropdown"]';
  const FIRST_USE = ["pointerover", "pointerdown", "focusin", "keydown", "touchstart", "scroll"];

  function addScript(source) {
    return new Promise((resolve, reject) => {
      const code = document.createElement("script");
      code.src = source;
      code.addEventListener("load", resolve);
      code.addEventListener("error", reject);
      document.head.append(code);
    });
  }

  // --- the search ---------------------------------------------------------------------

  let searchLoaded = false;

  function replaySearch() {
    const input = document.querySelector(INPUT);
    if (!input) return;
    if (document.activeElement === input) input.dispatchEvent(new FocusEvent("focus"));
    if (input.value) input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function loadSearch() {
    if (searchLoaded || !radarSearchScript) return;
    searchLoaded = true;
    if (radarSearchStyle) {
      const sheet = document.createElement("link");
      Object.assign(sheet, { rel: "stylesheet", href: radarSearchStyle });
      document.head.append(sheet);
    }
    addScript(radarSearchScript).then(replaySearch, (error) => console.warn("radar search:", error));
  }

  const opensSearch = (target) => target instanceof Element && target.closest(`${INPUT}, ${OPENERS}`);
  document.addEventListener("focusin", (event) => { if (opensSearch(event.target)) loadSearch(); });
  document.addEventListener("pointerdown", (event) => { if (opensSearch(event.target)) loadSearch(); });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") loadSearch();
  });

  // --- Bootstrap ----------------------------------------------------------------------

  let bootstrapLoading = null;

  function showAskedTooltip() {
    const asked = document.activeElement instanceof Element && document.activeElement.closest(TOOLTIP)
      ? document.activeElement.closest(TOOLTIP)
      : Array.from(document.querySelectorAll(TOOLTIP)).find((element) => element.matches(":hover"));
    if (asked) window.bootstrap.Tooltip.getInstance(asked)?.show();
  }

  function loadBootstrap() {
    if (!bootstrapLoading) {
      const theme = document.querySelector(THEME_SCRIPT);
      const source = theme ? theme.src.replace("pydata-sphinx-theme.js", "bootstrap.js") : "";
      bootstrapLoading = source ? addScript(source) : Promise.reject(new Error("no theme script"));
      bootstrapLoading.then(showAskedTooltip, (error) => console.warn("radar bootstrap:", error));
    }
    return bootstrapLoading;
  }

  FIRST_USE.forEach((type) => window.addEventListener(type, loadBootstrap, { once: true, passive: true }));
  // A menu clicked before Bootstrap came: opened once it has.
  document.addEventListener("click", (event) => {
    const menu = event.target instanceof Element ? event.target.closest(MENU) : null;
    if (!menu || window.bootstrap) return;
    event.preventDefault();
    loadBootstrap().then(() => window.bootstrap.Dropdown.getOrCreateInstance(menu).toggle());
  }, true);
})();
