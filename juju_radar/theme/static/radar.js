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
