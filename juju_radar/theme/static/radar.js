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

// Copy buttons for the BibTeX blocks of "cite this".
document.addEventListener("DOMContentLoaded", () => {
  for (const block of document.querySelectorAll(".radar-bibtex")) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "radar-copy btn btn-sm";
    button.textContent = "复制";
    button.addEventListener("click", async () => {
      const text = block.querySelector("pre")?.innerText ?? block.innerText;
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
