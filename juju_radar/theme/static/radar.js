// The page reached from a search result marks the words searched for: search.js adds
// them to the result's address as ?pagefind-highlight=…, and Pagefind's highlighter
// (loaded only then) marks them in the story the address's #anchor names.
(() => {
  const PARAM = "pagefind-highlight";
  const script = document.currentScript;
  if (!script || !new URLSearchParams(window.location.search).has(PARAM)) return;
  const highlighter = new URL("../pagefind/pagefind-highlight.js", script.src).href;
  const mark = async () => {
    try {
      const { default: PagefindHighlight } = await import(highlighter);
      const anchor = decodeURIComponent(window.location.hash.slice(1));
      const story = anchor ? document.getElementById(anchor) : null;
      new PagefindHighlight({ highlightParam: PARAM, markContext: story, addStyles: false });
    } catch (error) {
      console.warn("radar highlight:", error);
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
})();

// "Cite as": the access date is the day the reader reads the page (in the reader's
// time zone, as GB/T 7714 and BibTeX's urldate write it: YYYY-MM-DD); each citation
// gets a copy button.
document.addEventListener("DOMContentLoaded", () => {
  const now = new Date();
  const pad = (number) => String(number).padStart(2, "0");
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  for (const date of document.querySelectorAll(".radar-access-date")) {
    date.textContent = today;
  }
  // BibTeX has no placeholder for it: the entry gets its urldate field here, laid out as
  // juju_radar.bib.cite_this.bibtex lays out its fields, and the note asking for one goes.
  for (const field of document.querySelectorAll(".radar-access-date-field")) {
    field.textContent = `  urldate      = {${today}},\n`;
  }
  for (const note of document.querySelectorAll(".radar-without-script")) note.remove();
  for (const block of document.querySelectorAll(".radar-copyable")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "radar-copy btn btn-sm";
    button.textContent = "复制";
    button.addEventListener("click", async () => {
      const text = (block.querySelector("pre") ?? block).innerText.trim();
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = "已复制";
      } catch {
        const range = document.createRange();
        range.selectNodeContents(block);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        button.textContent = "已选中，请按 Ctrl+C";
      }
    });
    block.before(button);
  }
});

// The sidebar drawers (pydata-sphinx-theme's <dialog>s, opened by the ☰ and contents
// buttons on narrow screens): Tab and Shift+Tab cycle inside the open drawer instead of
// leaving the page, a link followed within the page closes the drawer so that the
// story it leads to is not hidden behind it, and so does its close button (×).
document.addEventListener("DOMContentLoaded", () => {
  const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";
  for (const id of ["pst-primary-sidebar-modal", "pst-secondary-sidebar-modal"]) {
    const drawer = document.getElementById(id);
    if (!drawer) continue;
    drawer.addEventListener("keydown", (event) => {
      if (event.key !== "Tab") return;
      const stops = Array.from(drawer.querySelectorAll(FOCUSABLE)).filter((el) => el.checkVisibility());
      if (!stops.length) return;
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });
    drawer.addEventListener("click", (event) => {
      if (event.target.closest(".radar-drawer-close")) {
        drawer.close();
        return;
      }
      const link = event.target.closest("a[href]");
      if (link && link.hash && link.pathname === window.location.pathname) drawer.close();
    });
  }
});

// A statistics table wider than a phone scrolls sideways: it takes the keyboard focus so
// that it can be scrolled without a mouse (as the theme does for code blocks).
document.addEventListener("DOMContentLoaded", () => {
  const tables = document.querySelectorAll(".radar-stats-table");
  const update = () => tables.forEach((table) => {
    if (table.scrollWidth > table.clientWidth) table.tabIndex = 0;
    else table.removeAttribute("tabindex");
  });
  if (!tables.length) return;
  update();
  window.addEventListener("resize", update);
});

// A story's own address: its page's (linked from the issue page; the page itself on a
// story's page), without search parameters (?pagefind-highlight=…) or an anchor.
const storyAddress = (story) => {
  const link = story.querySelector("a.radar-story-page-link");
  const own = document.querySelector(".radar-story-page");
  if (!link && !own) return `${window.location.origin}${window.location.pathname}#${story.id}`;
  const address = new URL(link && !own ? link.href : window.location.href);
  address.search = "";
  address.hash = "";
  return address.href;
};

// Each story gets a "复制链接" button beside its category line: it copies the story's
// address (storyAddress) and says so in a toast; where the browser has a share sheet
// (navigator.share, on phones), a "分享" button beside it opens it with that address.
document.addEventListener("DOMContentLoaded", () => {
  const stories = document.querySelectorAll("section.radar-item[id]");
  if (!stories.length) return;
  const toast = document.createElement("div");
  toast.className = "radar-toast";
  toast.setAttribute("role", "status");
  document.body.append(toast);
  let hiding;
  const say = (text) => {
    toast.textContent = text;
    toast.classList.add("radar-toast-shown");
    clearTimeout(hiding);
    hiding = setTimeout(() => toast.classList.remove("radar-toast-shown"), 2500);
  };
  for (const story of stories) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "radar-copy-link btn btn-sm";
    button.textContent = "复制链接";
    const address = storyAddress(story);
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(address);
        say("已复制本条链接");
      } catch {
        window.history.replaceState(null, "", `#${story.id}`);
        say("无法写入剪贴板：本条链接已在地址栏中");
      }
    });
    const buttons = [button];
    if (typeof navigator.share === "function") {
      const share = document.createElement("button");
      share.type = "button";
      share.className = "radar-share btn btn-sm";
      share.textContent = "分享";
      const title = story.querySelector(":scope > h1, :scope > h2")?.textContent.replace(/#$/, "");
      share.addEventListener("click", () => {
        navigator.share({ title: title?.trim(), url: address }).catch(() => {});
      });
      buttons.push(share);
    }
    const meta = story.querySelector(":scope > .radar-item-meta");
    if (meta) meta.append(" ", ...buttons);
    else story.querySelector(":scope > h2")?.after(...buttons);
  }
});

// The subscribe page: a "复制地址" button after each feed's link copies the feed's full
// address (a phone has no right-click) and says so on the button.
document.addEventListener("DOMContentLoaded", () => {
  for (const link of document.querySelectorAll(".radar-feed-address > a")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "radar-copy-address radar-copy-link btn btn-sm";
    button.textContent = "复制地址";
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(link.href);
        button.textContent = "已复制";
      } catch {
        const range = document.createRange();
        range.selectNodeContents(link);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
        button.textContent = "已选中，请长按复制";
      }
    });
    link.after(button);
  }
});
