// Lighthouse's JSON reports of several pages, one after another in one Chromium
// (Lighthouse's documented programmatic use: chrome-launcher, then lighthouse(url, {port})).
// The command line would start Node, load Lighthouse and launch Chromium for each page.
//
//   node audit.mjs CHROMIUM CATEGORY[,CATEGORY...] URL...   prints {url: report, ...}
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const [chromePath, categories, ...urls] = process.argv.slice(2);
// Waits that only guard against a hang: a loaded machine is slow, not wrong (Chromium's
// start gets 5 minutes instead of 25 s; a page its first paint in 3 minutes instead of
// 30 s, its load in 5 instead of 45 s). The performance score they leave alone.
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ["--headless", "--no-sandbox"],
  connectionPollInterval: 500,
  maxConnectionRetries: 600,
});
try {
  const reports = {};
  for (const url of urls) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: categories.split(","),
      // The page's full screenshot is for the HTML report's element thumbnails, which
      // no one views here; no audit scores it (1.1 s a page).
      disableFullPageScreenshot: true,
      maxWaitForFcp: 180_000,
      maxWaitForLoad: 300_000,
    });
    reports[url] = JSON.parse(result.report);
  }
  process.stdout.write(JSON.stringify(reports));
} finally {
  await chrome.kill();
}
