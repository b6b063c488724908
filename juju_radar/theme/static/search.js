/* Juju Radar search: Pagefind over one record per story, the index in parts (parts.py).
 *
 * - The theme's search dialog (header button, Ctrl+K / ⌘K) shows results as you type.
 * - search.html (the {radar-search} page) adds filters by topic, verdict and year and
 *   reads ?q=, ?topic=, ?verdict=, ?year= so that searches can be linked. It shows ten
 *   results at a time and loads the filters' counts only when the reader opens them:
 *   a first query then fetches no filter index and ten results' data.
 * Every URL is relative to the page (data-content_root) or to this script, so the site
 * works from any sub-path.
 */
(() => {
  "use strict";

  const SCRIPT_URL = document.currentScript ? document.currentScript.src : "";
  // The index comes in parts (a bundle each, listed in parts.json, written by the build):
  // the first part's runtime is loaded and the others are merged into it.
  const BUNDLES_URL = new URL("../pagefind/", SCRIPT_URL || window.location.href).href;
  const CONTENT_ROOT = document.documentElement.dataset.content_root || "";
  // Stories are short and similar in length; an issue page's long bibliography should not
  // count against it, so the length penalty is mild (Pagefind's default is 0.75).
  const RANKING = { pageLength: 0.3, termFrequency: 1.0, termSaturation: 1.4, termSimilarity: 1.0 };
  const OPTIONS = { ranking: RANKING, excerptLength: 36 };
  const HIGHLIGHT_PARAM = "pagefind-highlight";
  const OTHER_KIND = "other"; // the parts of records that are not stories (parts.py)
  const ENTITY_KIND = "entity"; // an entity page's record (records.py)
  const ENTITY_CHECK = 3; // the first others looked at for entity pages
  const DIALOG_LIMIT = 8;
  const PAGE_LIMIT = 10;
  const TYPING_DELAY_MS = 120;
  const FILTERS = [
    { key: "topic", label: "主题" },
    { key: "verdict", label: "判断" },
    { key: "year", label: "年份" },
  ];
  const TEXT = {
    placeholder: "搜索，如“客服 Agent”",
    prompt: "输入关键词开始搜索。",
    searching: "正在搜索……",
    failed: "搜索索引加载失败，请稍后重试。",
    found: (count) => `找到 ${count} 条结果`,
    none: (query) => `没有找到与“${query}”相关的内容。换个关键词试试，或减少筛选条件。`,
    all: "在搜索页查看全部结果与筛选",
    more: "显示更多结果",
    filters: "筛选：主题 · 判断 · 年份",
    issueRest: "本期导语、主线与参考文献",
    inputLabel: "搜索归档",
    ignored: (names) => `地址中的筛选条件没有对应的条目，未采用：${names.join("、")}`,
  };

  let pagefindLoading = null;
  // Read from the search page before search.js replaces its content.
  let TOPIC_EN = {}; // topic label -> English label
  let FILTER_NAMES = {}; // filter key -> {any name of a value, lowercase -> its label}

  function loadPagefind() {
    if (!pagefindLoading) {
      pagefindLoading = (async () => {
        const listed = await fetch(new URL("parts.json", BUNDLES_URL));
        if (!listed.ok) throw new Error(`parts.json: HTTP ${listed.status}`);
        const { parts, kinds } = await listed.json();
        const [first, ...others] = parts.map((part) => ({
          url: new URL(`${part}/`, BUNDLES_URL).href,
          // Each part holds records of one kind: a filter of the part's own, downloaded never.
          options: { ...OPTIONS, mergeFilter: { kind: kinds[part] } },
        }));
        const pagefind = await import(`${first.url}pagefind.js`);
        // options() sets the first part only: the merged ones take theirs in mergeIndex.
        await pagefind.options(first.options);
        await pagefind.init();
        await Promise.all(others.map((part) => pagefind.mergeIndex(part.url, part.options)));
        return pagefind;
      })();
      pagefindLoading.catch(() => { pagefindLoading = null; });
    }
    return pagefindLoading;
  }

  /** The entity pages among the first others (an entity's names weigh most on its page,
   *  records.py), to be shown before the stories, and the other records. */
  async function entitiesFirst(results) {
    const head = results.slice(0, ENTITY_CHECK);
    const kinds = await Promise.all(head.map(async (r) => (await r.data()).meta.kind));
    const entities = head.filter((r, index) => kinds[index] === ENTITY_KIND);
    return [entities, results.filter((r) => !entities.includes(r))];
  }

  /** Search; null when a newer search of the same `owner` started meanwhile. Every story
   *  found comes before every other record (the rest of an issue page, a listing): two
   *  searches, the stories, then the others (only without filters, which name stories). */
  async function runSearch(owner, query, filters, limit) {
    const ticket = (owner.ticket = (owner.ticket || 0) + 1);
    const pagefind = await loadPagefind();
    const hasFilters = Object.keys(filters).length > 0;
    const words = indexQuery(query);
    const stories = await pagefind.search(words || null, { filters: { ...filters, kind: "story" } });
    const others = hasFilters || !words
      ? null
      : await pagefind.search(words, { filters: { kind: OTHER_KIND } });
    if (ticket !== owner.ticket || !stories) return null;
    const [entities, rest] = others ? await entitiesFirst(others.results) : [[], []];
    const all = [...entities, ...stories.results, ...rest];
    const results = await Promise.all(all.slice(0, limit).map((r) => r.data()));
    if (ticket !== owner.ticket) return null;
    return { total: all.length, results, rest: all.slice(limit) };
  }

  // --- the words of Chinese text (outputs/search/terms.py) -----------------------------
  // The index holds each Han run of a record also as its overlapping pairs of characters,
  // each written as one ASCII word ("qz" and four letters a character), which neither
  // Pagefind's segmenter (jieba) nor the browser's (Intl.Segmenter) splits: the query's
  // Han runs become the same words, so any phrase of a story matches.
  const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3134f}]+/gu;
  const INDEX_WORD = /^\s*qz(?:[a-z]{4}){1,2}\s*$/;
  const LETTERS = "abcdefghijklmnopqrstuvwxyz";

  function charCode(char) {
    let number = char.codePointAt(0);
    let code = "";
    for (let digit = 0; digit < 4; digit += 1) {
      code = LETTERS[number % 26] + code;
      number = Math.floor(number / 26);
    }
    return code;
  }

  /** The overlapping pairs of characters of a Han run (a lone character: itself). */
  function hanPairs(run) {
    const chars = Array.from(run);
    if (chars.length < 2) return chars;
    return chars.slice(0, -1).map((char, at) => char + chars[at + 1]);
  }

  function indexWord(chars) {
    return `qz${Array.from(chars, charCode).join("")}`;
  }

  /** The query Pagefind is given: each Han run as the index words of its pairs. */
  function indexQuery(query) {
    return (query || "")
      .replace(HAN_RUN, (run) => ` ${hanPairs(run).map(indexWord).join(" ")} `)
      .replace(/\s+/g, " ")
      .trim();
  }

  // --- rendering -------------------------------------------------------------------

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** The excerpt of a result from its words as Pagefind segmented them (raw_content,
   *  split at U+200B, without the index words of Han pairs), with the query's words
   *  marked, as text nodes and <mark> elements:
   *  - it starts after the record's lead (a story's heading, meta line and topic names,
   *    `lead` characters, records.py), which the result shows above it;
   *  - it starts at a sentence or clause boundary before the first match, or at the
   *    match itself when the clause began too far back, never on punctuation;
   *  - a Han phrase of the query marks every word it overlaps, so a word segmented in
   *    two ("智能", "体") is highlighted whole; a Latin word marks only the words it
   *    begins ("deepfake" marks "deepfake", never a "D"); adjacent marked words are one
   *    mark. */
  function excerptNodes(data, query) {
    const raw = data.raw_content;
    if (typeof raw !== "string") return [document.createTextNode(data.plain_excerpt || "")];
    const words = raw.split("\u200B").filter((word) => !INDEX_WORD.test(word))
      .map((word) => word.replace(/&lt;/g, "<").replace(/&gt;/g, ">"));
    const lead = leadWords(words, Number((data.meta || {}).lead) || 0);
    const matched = matchedWords(words, query);
    data.leadMatches = [...matched].filter((at) => at < lead).map((at) => words[at].trim())
      .filter((word) => word && !PUNCTUATION_ONLY.test(word));
    const anchor = [...matched].filter((at) => at >= lead).sort((a, b) => a - b)[0];
    let start = anchor === undefined ? lead : clauseStart(words, anchor, lead);
    while (start < words.length - 1 && PUNCTUATION_ONLY.test(words[start])) start += 1;
    const end = excerptEnd(words, start);
    const nodes = [];
    let text = "";
    let mark = null;
    const flush = () => { if (text) nodes.push(document.createTextNode(text)); text = ""; };
    for (let at = start; at < end; at += 1) {
      const word = at === start ? words[at].trimStart() : words[at];
      if (matched.has(at)) {
        flush();
        if (!mark) nodes.push((mark = element("mark", "", "")));
        mark.textContent += word;
      } else {
        mark = null;
        text += word;
      }
    }
    if (end < words.length) {
      text = text.trimEnd();
      if (!SENTENCE_END.test(text || (mark ? mark.textContent : ""))) {
        text = `${text.replace(/[，、；：,;:]$/, "")}……`;
      }
    }
    flush();
    return nodes;
  }

  /** The positions of the words the query marks: each word overlapping an occurrence of
   *  one of the query's Han runs, and each word that a Latin (or other) word of the
   *  query begins, compared whole, case aside. */
  function matchedWords(words, query) {
    const matched = new Set();
    const runs = (query || "").match(HAN_RUN) || [];
    const others = (query || "").replace(HAN_RUN, " ").toLowerCase()
      .split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    const starts = [];
    let length = 0;
    words.forEach((word) => { starts.push(length); length += word.length; });
    const text = words.join("");
    const wordAt = (offset) => {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (starts[middle] <= offset) low = middle; else high = middle - 1;
      }
      return low;
    };
    runs.forEach((run) => {
      for (let found = text.indexOf(run); found >= 0; found = text.indexOf(run, found + 1)) {
        for (let at = wordAt(found); at <= wordAt(found + run.length - 1); at += 1) matched.add(at);
      }
    });
    words.forEach((word, at) => {
      const parts = word.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
      if (parts.some((part) => others.some((other) => part.startsWith(other)))) matched.add(at);
    });
    return matched;
  }

  /** The title with the words the query matched in the record's lead marked (the
   *  excerpt leaves the heading out, so a query matching only the heading shows here). */
  function titleNodes(title, matchedWords) {
    const words = [...new Set(matchedWords || [])].filter((word) => title.includes(word));
    if (!words.length) return [document.createTextNode(title)];
    words.sort((a, b) => b.length - a.length);
    const pattern = new RegExp(`(?:${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})+`, "g");
    const nodes = [];
    let position = 0;
    for (const found of title.matchAll(pattern)) {
      if (found.index > position) nodes.push(document.createTextNode(title.slice(position, found.index)));
      nodes.push(element("mark", "", found[0]));
      position = found.index + found[0].length;
    }
    if (position < title.length) nodes.push(document.createTextNode(title.slice(position)));
    return nodes;
  }

  const SENTENCE_END = /[。！？!?]$/;
  const CLAUSE_END = /[。！？；，：、!?;:,.…]\s*$/;
  const PUNCTUATION_ONLY = /^[\s\p{P}]*$/u;
  const CLAUSE_REACH = 24; // words back from the first match to look for a boundary
  const EXCERPT_CHARS = 72;

  /** The number of leading words that hold the first `chars` characters (no spaces). */
  function leadWords(words, chars) {
    let count = 0;
    let at = 0;
    while (at < words.length && count < chars) {
      count += words[at].replace(/\s/g, "").length;
      at += 1;
    }
    return at;
  }

  function clauseStart(words, anchor, lead) {
    for (let at = anchor; at > lead && anchor - at < CLAUSE_REACH; at -= 1) {
      if (CLAUSE_END.test(words[at - 1])) return at;
    }
    return anchor - lead < CLAUSE_REACH ? lead : anchor;
  }

  /** Past EXCERPT_CHARS characters, the excerpt ends with the clause it is in. */
  function excerptEnd(words, start) {
    let chars = 0;
    for (let at = start; at < words.length; at += 1) {
      chars += words[at].length;
      if (chars >= EXCERPT_CHARS && (CLAUSE_END.test(words[at]) || chars >= EXCERPT_CHARS * 1.5)) {
        return at + 1;
      }
    }
    return words.length;
  }

  function englishLabel(text) {
    const label = element("span", "radar-topic-en", ` ${text}`);
    label.lang = "en";
    return label;
  }

  /** From the lists the search page carries: each topic's English label, and the names
   *  (key, label, English label) an address may give a topic or a verdict by. */
  function readFilterNames() {
    ["topic", "verdict"].forEach((kind) => {
      FILTER_NAMES[kind] = {};
      document.querySelectorAll(`.radar-${kind}-names li`).forEach((entry) => {
        const name = entry.querySelector(`.radar-${kind}`);
        const label = name.firstChild.textContent;
        const english = name.querySelector(".radar-topic-en")?.textContent.trim();
        if (english) TOPIC_EN[label] = english;
        [entry.querySelector(".radar-name-key").textContent, label, english].forEach((alias) => {
          if (alias) FILTER_NAMES[kind][alias.toLowerCase()] = label;
        });
      });
    });
  }

  /** The address's parameters with each filter value under its label (?topic=training
   *  chooses 模型训练); a value that names nothing is kept as given. */
  function labelledParams(params) {
    const labelled = new URLSearchParams();
    params.forEach((value, key) => {
      labelled.append(key, FILTER_NAMES[key]?.[value.trim().toLowerCase()] || value.trim());
    });
    return labelled;
  }

  function resultMeta(meta) {
    const line = element("p", "radar-search-result-meta");
    const parts = [
      ["date", meta.date],
      ["issue", meta.kind === "story" ? meta.issue : meta.kind === "issue" ? TEXT.issueRest : ""],
      ["topic", meta.topic],
      ["verdict", meta.verdict],
    ].filter(([, value]) => value);
    parts.forEach(([name, value], index) => {
      if (index) line.append(" · ");
      const part = element("span", `radar-search-result-${name}`, value);
      if (name === "topic" && meta.topic_en) part.append(englishLabel(meta.topic_en));
      line.append(part);
    });
    return line;
  }

  /** A result's address, asking the page reached to mark the searched words
   *  (radar.js loads Pagefind's highlighter for `?pagefind-highlight=`). */
  function resultUrl(link, query) {
    const [path, anchor] = link.split("#");
    const params = new URLSearchParams();
    query.split(/\s+/).filter(Boolean).forEach((word) => params.append(HIGHLIGHT_PARAM, word));
    const search = params.toString();
    return CONTENT_ROOT + path + (search ? `?${search}` : "") + (anchor ? `#${anchor}` : "");
  }

  function resultItem(data, query) {
    const meta = data.meta || {};
    const item = element("li", "radar-search-result");
    item.dataset.kind = meta.kind || "page";
    const link = element("a", "radar-search-result-title");
    link.href = resultUrl(meta.link || "", query);
    const excerpt = element("p", "radar-search-result-excerpt");
    excerpt.append(...excerptNodes(data, query));
    link.append(...titleNodes(meta.title || data.url, data.leadMatches));
    item.append(link, resultMeta(meta));
    item.append(excerpt);
    return item;
  }

  function showResults(view, query, found) {
    view.list.replaceChildren(...found.results.map((data) => resultItem(data, query)));
    view.list.dataset.query = query;
    view.status.textContent = found.total ? TEXT.found(found.total) : TEXT.none(query);
    view.status.classList.toggle("radar-search-none", !found.total);
    view.rest = found.rest;
    if (view.more) view.more.hidden = !view.rest.length;
  }

  /** The next results of the shown search; focus moves to the first of them. */
  async function showMore(view) {
    const ticket = view.ticket;
    const next = view.rest.slice(0, PAGE_LIMIT);
    view.more.disabled = true;
    view.more.setAttribute("aria-busy", "true");
    try {
      const results = await Promise.all(next.map((result) => result.data()));
      if (ticket !== view.ticket) return;
      view.rest = view.rest.slice(next.length);
      const items = results.map((data) => resultItem(data, view.list.dataset.query || ""));
      view.list.append(...items);
      if (items.length) items[0].querySelector("a").focus();
      view.more.hidden = !view.rest.length;
    } catch (error) {
      console.warn("radar search:", error);
    } finally {
      view.more.disabled = false;
      view.more.removeAttribute("aria-busy");
    }
  }

  /** Forget the shown search: a new one is on its way. */
  function retire(view) {
    view.ticket += 1; // a search or "more" still running must not show its results
    view.rest = [];
    if (view.more) view.more.hidden = true;
  }

  async function searchInto(view, query, filters, limit) {
    const hasFilters = Object.values(filters).some((values) => values.any.length);
    retire(view);
    if (!query && !hasFilters) {
      view.list.replaceChildren();
      view.status.textContent = TEXT.prompt;
      view.status.classList.remove("radar-search-none");
      return;
    }
    view.status.textContent = TEXT.searching;
    try {
      const found = await runSearch(view, query, filters, limit);
      if (found) showResults(view, query, found);
    } catch (error) {
      view.status.textContent = TEXT.failed;
      console.warn("radar search:", error);
    }
  }

  function debounce(callback) {
    let timer = null;
    return (...args) => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => callback(...args), TYPING_DELAY_MS);
    };
  }

  function resultsView(parent) {
    const status = element("p", "radar-search-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    const list = element("ol", "radar-search-results");
    parent.append(status, list);
    return { status, list, ticket: 0, rest: [], more: null };
  }

  // --- the theme's search dialog --------------------------------------------------

  function searchPageUrl(query) {
    return `${CONTENT_ROOT}search.html?q=${encodeURIComponent(query)}`;
  }

  function enhanceDialog(dialog) {
    const input = dialog.querySelector("form.bd-search input[name=q]");
    if (!input) return;
    input.placeholder = TEXT.placeholder;
    const panel = element("div", "radar-search-popup");
    const view = resultsView(panel);
    const more = element("a", "radar-search-more", TEXT.all);
    more.href = searchPageUrl(""); // an anchor with an href, even while hidden (Lighthouse)
    more.hidden = true;
    panel.append(more);
    dialog.append(panel);
    const update = debounce(async () => {
      const query = input.value.trim();
      more.hidden = !query;
      more.href = searchPageUrl(query);
      await searchInto(view, query, {}, DIALOG_LIMIT);
    });
    input.addEventListener("input", update);
    input.addEventListener("focus", () => loadPagefind().catch(() => {}), { once: true });
  }

  // --- the search page ---------------------------------------------------------------

  function filterGroup(filter, counts, chosen) {
    const group = element("fieldset", "radar-search-filter");
    group.dataset.filter = filter.key;
    group.append(element("legend", "", filter.label));
    const values = Object.keys(counts).sort((a, b) =>
      filter.key === "year" ? b.localeCompare(a) : a.localeCompare(b, "zh-CN"));
    values.forEach((value) => {
      const label = element("label", "radar-search-filter-option");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.name = filter.key;
      box.value = value;
      box.checked = chosen.includes(value);
      label.append(box, ` ${value}`);
      if (filter.key === "topic" && TOPIC_EN[value]) label.append(englishLabel(TOPIC_EN[value]));
      label.append(" ", element("span", "radar-search-filter-count", `(${counts[value]})`));
      group.append(label);
    });
    return group;
  }

  /** Only the filters with a value chosen: Pagefind loads the index of each filter named. */
  function chosenFilters(form) {
    const filters = {};
    FILTERS.forEach(({ key }) => {
      const boxes = form.querySelectorAll(`input[name="${key}"]:checked`);
      if (boxes.length) filters[key] = { any: Array.from(boxes, (box) => box.value) };
    });
    return filters;
  }

  function pageQueryString(query, filters) {
    const params = new URLSearchParams();
    if (query) params.set("q", query);
    Object.entries(filters).forEach(([key, { any }]) => any.forEach((v) => params.append(key, v)));
    const text = params.toString();
    return text ? `?${text}` : window.location.pathname;
  }

  function searchForm(query) {
    const form = element("form", "radar-search-form");
    form.setAttribute("role", "search");
    const input = element("input", "form-control radar-search-input");
    Object.assign(input, { type: "search", name: "q", value: query, autocomplete: "off" });
    input.placeholder = TEXT.placeholder;
    input.setAttribute("aria-label", TEXT.inputLabel);
    input.spellcheck = false;
    form.append(input);
    return { form, input };
  }

  /** True once the filters are shown; on failure the panel says so and can be reopened. */
  async function fillFilters(panel, params) {
    panel.querySelector(".radar-search-filters-failed")?.remove();
    try {
      const counts = await (await loadPagefind()).filters();
      const groups = element("div", "radar-search-filter-groups");
      FILTERS.forEach((filter) => {
        if (counts[filter.key]) groups.append(filterGroup(filter, counts[filter.key], params.getAll(filter.key)));
      });
      panel.append(groups);
      const ignored = FILTERS.flatMap((filter) => params.getAll(filter.key)
        .filter((value) => !(counts[filter.key] || {})[value])
        .map((value) => `${filter.label} “${value}”`));
      if (ignored.length) panel.append(element("p", "radar-search-filters-ignored", TEXT.ignored(ignored)));
      return true;
    } catch (error) {
      panel.append(element("p", "radar-search-filters-failed", TEXT.failed));
      console.warn("radar search filters:", error);
      return false;
    }
  }

  /** The filters, closed and not loaded until opened, unless the URL chose some. */
  function addFilters(form, params) {
    const panel = element("details", "radar-search-filters");
    panel.append(element("summary", "", TEXT.filters));
    form.append(panel);
    let filling = null;
    const fill = () => {
      filling = filling || fillFilters(panel, params).then((shown) => { if (!shown) filling = null; });
      return filling;
    };
    panel.addEventListener("toggle", () => { if (panel.open) fill(); });
    if (!FILTERS.some(({ key }) => params.has(key))) return Promise.resolve();
    panel.open = true;
    return fill();
  }

  async function buildSearchPage(container) {
    readFilterNames();
    const params = labelledParams(new URLSearchParams(window.location.search));
    const { form, input } = searchForm((params.get("q") || "").trim());
    container.replaceChildren(form);
    const view = resultsView(container);
    view.more = element("button", "btn radar-search-next", TEXT.more);
    Object.assign(view.more, { type: "button", hidden: true });
    view.more.addEventListener("click", () => showMore(view));
    container.append(view.more);
    const update = () => {
      const query = input.value.trim();
      const filters = chosenFilters(form);
      window.history.replaceState(null, "", pageQueryString(query, filters));
      return searchInto(view, query, filters, PAGE_LIMIT);
    };
    const typed = debounce(update);
    form.addEventListener("submit", (event) => { event.preventDefault(); update(); });
    form.addEventListener("input", (event) => (event.target === input ? typed() : update()));
    await addFilters(form, params);
    input.focus();
    await update();
  }

  function start() {
    const dialog = document.getElementById("pst-search-dialog");
    if (dialog) enhanceDialog(dialog);
    const page = document.querySelector(".radar-search-page");
    if (page) buildSearchPage(page);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
