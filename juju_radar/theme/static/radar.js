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
