// Drives a real VS Code (code-server, in Debian's headless chromium) on a
// copy of the bakery with the extension installed from its .vsix; called by
// varar-cli/tests/vscode.rs, which checks what it writes to $VARAR_VSCODE_RESULT.
//
// On varar/basket.md, whose step counts one item too many: the lenses; ▶ Run
// on the counting example (a real cargo test) and the failure's squiggle;
// the step fixed and ▶ Run again: the squiggle gone. On tests/steps/shelf.rs:
// the uses above the steps.
const fs = require("fs");
const path = require("path");
const { chromium } = require(process.env.VARAR_PLAYWRIGHT);

const url = process.env.VARAR_VSCODE_URL;
const folder = process.env.VARAR_VSCODE_FOLDER;
const result = {};

async function open(page, file) {
  await page.keyboard.press("Control+P");
  await page.waitForSelector(".quick-input-widget input", { state: "visible" });
  await page.keyboard.type(file);
  // The first row once it is the file (not a recently opened one).
  const first = page.locator(".quick-input-list .monaco-list-row").first();
  await first.filter({ hasText: path.basename(file) }).waitFor({ state: "visible" });
  await page.keyboard.press("Enter");
  await page.waitForSelector(`.tab.active[data-resource-name="${path.basename(file)}"]`);
}

// The titles of the clickable lenses, read in one go once `count` show.
// The editor may draw a document's lenses twice: when a lens provider
// comes or goes (another extension starting), it first draws the titles it
// cached, as plain text that cannot be clicked, then asks the providers
// again. Waiting for one lens and reading the others afterwards could fall
// between the two and read none.
async function lensTexts(page, count) {
  try {
    const texts = await page.waitForFunction(
      (count) => {
        const shown = [...document.querySelectorAll(".codelens-decoration a")]
          .map((a) => a.textContent)
          .filter((t) => t.trim() !== "");
        return shown.length >= count && shown;
      },
      count,
      { timeout: 120000, polling: 100 }
    );
    return await texts.jsonValue();
  } catch (e) {
    // What the window shows instead, for the test's failure message.
    const lenses = page.locator(".codelens-decoration");
    await page.screenshot({ path: path.join(process.env.VARAR_VSCODE_SHOTS, "no-lenses.png") });
    const notes = await page.locator(".notifications-toasts").allInnerTexts();
    const status = await page.locator(".statusbar").allInnerTexts();
    throw new Error(
      `${e.message}\nlenses shown: ${JSON.stringify(await lenses.allTextContents())}` +
        `\nnotifications: ${JSON.stringify(notes)}\nstatus bar: ${JSON.stringify(status)}`
    );
  }
}

// Waits for `locator` to reach `state`; fails at once on an error the
// server shows (a run that did not run, with cargo's message).
async function until(page, locator, state) {
  const shown = page
    .locator(".notifications-toasts .notification-toast", { hasText: "did not run" })
    .first()
    .waitFor({ timeout: 900000 })
    .then(async () => {
      throw new Error(await page.locator(".notifications-toasts").innerText());
    });
  await Promise.race([locator.waitFor({ state, timeout: 900000 }), shown]);
}

async function squiggles(page) {
  return page.locator(".view-overlays .squiggly-error").count();
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.VARAR_CHROMIUM, args: ["--no-sandbox"] });
  try {
    // Tall enough for the whole of basket.md with its lenses: the editor
    // puts in the page only the lenses of the lines it shows, so a shorter
    // window would leave the last example's lens out by its scroll alone.
    const page = await browser.newPage({ viewport: { width: 1400, height: 1800 } });
    await page.goto(`${url}/?folder=${folder}`, { waitUntil: "domcontentloaded" });
    await page.waitForSelector(".monaco-workbench", { timeout: 120000 });
    await open(page, "varar/basket.md");
    result.oath_lenses = await lensTexts(page, 8);
    result.before = await squiggles(page);
    const counting = page.locator(".codelens-decoration a").nth(2);
    await counting.click();
    await until(page, page.locator(".view-overlays .squiggly-error").first(), "visible");
    result.failed = await squiggles(page);
    await page.screenshot({ path: path.join(process.env.VARAR_VSCODE_SHOTS, "failed.png") });
    const steps = path.join(folder, "tests/steps/basket.rs");
    fs.writeFileSync(steps, fs.readFileSync(steps, "utf8").replace("till.item_count() + 1", "till.item_count()"));
    await counting.click();
    await until(page, page.locator(".view-overlays .squiggly-error").first(), "detached");
    result.after_fix = await squiggles(page);
    await open(page, "tests/steps/shelf.rs");
    result.step_lenses = await lensTexts(page, 4);
    await page.screenshot({ path: path.join(process.env.VARAR_VSCODE_SHOTS, "uses.png") });
  } finally {
    fs.writeFileSync(process.env.VARAR_VSCODE_RESULT, JSON.stringify(result));
    await browser.close();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
