// Drives `oxello serve` in Debian's chromium through playwright-core: a game against the
// engine, analysis streaming, import, undo/redo, export, a game played to its end.
// Run by run.sh (which installs chromium and this folder's npm packages); OXELLO names the
// binary, SCREENSHOTS a folder to save the documentation's screenshots in.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const binary = process.env.OXELLO || new URL("../../target/release/oxello", import.meta.url).pathname;
const shots = process.env.SCREENSHOTS;
let server, url, context, page, profile;

/** Starts the server on a free port; resolves with its address from its first line. */
function startServer() {
  const child = spawn(binary, ["serve", "--port", "0", "--threads", "1", "--hash", "16"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/\S+\//);
      if (m) resolve([child, m[0]]);
    });
    child.on("exit", (code) => reject(new Error(`oxello serve exited with ${code}: ${out}`)));
  });
}

before(async () => {
  [server, url] = await startServer();
  profile = mkdtempSync(join(tmpdir(), "oxello-chromium-"));
  // Without the background-networking flags chromium hangs on a machine with no internet.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(30000);
  page.on("pageerror", (e) => { throw e; });
});

after(async () => {
  await context?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const movesPlayed = async () => (await page.locator("#moves").textContent()).match(/[a-h][1-8]|pa/g)?.length ?? 0;
const waitForMoves = (n) => page.waitForFunction((n) => ((document.getElementById("moves").textContent.match(/[a-h][1-8]|pa/g)) || []).length >= n, n);
// Undo shortens the list: waiting for "at least n" would pass before the page had redrawn.
const waitForExactly = (n) => page.waitForFunction((n) => ((document.getElementById("moves").textContent.match(/[a-h][1-8]|pa/g)) || []).length === n, n);
const setup = async ({ engine, level, analysis }) => {
  await page.selectOption("#engine", engine);
  await page.selectOption("#level", String(level));
  if ((await page.isChecked("#analyze")) !== analysis) await page.click("#analyze");
};

test("a game starts, a click plays, the engine replies", async () => {
  await page.goto(url);
  await page.waitForSelector("text=Black to move");
  await setup({ engine: "white", level: 2, analysis: false });
  assert.equal(await page.locator(".sq.legal").count(), 4);
  assert.equal(await page.locator(".disc").count(), 4);
  await page.click('[data-sq="f5"]');
  await waitForMoves(2);
  await page.waitForSelector("#status:has-text('oxello played')");
  assert.match(await page.textContent("#moves"), /^1\. f5 (d6|f6|f4)/);
  assert.equal(await page.locator(".disc").count(), 6);
});

test("analysis scores every legal move, streaming deeper lines, book moves marked", async () => {
  await page.click("#new");
  await page.waitForSelector("text=(no moves yet)");
  await setup({ engine: "none", level: 2, analysis: false });
  await page.keyboard.press("f");
  await page.keyboard.press("5"); // keyboard move entry
  await waitForMoves(1);
  await page.selectOption("#level", "10");
  await page.click("#analyze");
  // After f5: d6, f6 and f4, all three in the book.
  await page.waitForFunction(() => document.querySelectorAll("#lines tr").length === 3);
  await page.waitForFunction(() => document.querySelectorAll(".sq .score").length === 3);
  assert.ok((await page.locator(".sq.book").count()) >= 2, "book moves marked on the board");
  assert.ok((await page.locator("#lines tr.booked").count()) >= 2, "book moves marked in the list");
  assert.match(await page.textContent("#pv"), /^line: [a-h][1-8]/);
  // Out of the book: every move searched, the table updated depth by depth.
  await page.click('[data-sq="f6"]');
  await waitForMoves(2);
  await page.click('[data-sq="e6"]');
  await waitForMoves(3);
  await page.click('[data-sq="f4"]');
  await waitForMoves(4);
  const legal = await page.locator(".sq.legal").count();
  await page.waitForFunction((n) => document.querySelectorAll("#lines tr").length === n, legal, { timeout: 60000 });
  await page.waitForFunction(() => document.querySelectorAll("#graph .point").length >= 2);
  if (shots) await page.screenshot({ path: join(shots, "serve-analysis.png") });
  // Deeper and deeper lines replace each other in the table while the engine thinks (each
  // event is drawn at once; several depths arriving in one read would show as one change).
  await page.evaluate(() => {
    window.depths = new Set();
    new MutationObserver(() => {
      for (const tr of document.querySelectorAll("#lines tr[data-depth]")) window.depths.add(tr.dataset.depth);
    }).observe(document.getElementById("lines"), { childList: true, subtree: true });
  });
  await page.selectOption("#level", "24");
  await page.waitForFunction(() => window.depths.size >= 4, null, { timeout: 60000 });
  // A move stops the analysis at once and the next position's analysis starts.
  await page.waitForFunction(() => document.body.dataset.thinking === "analyze" && document.querySelectorAll("#lines tr").length > 0);
  const best = (await page.textContent("#lines tr >> nth=0 >> td >> nth=0")).trim();
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => document.body.dataset.thinking), "analyze", "still thinking at level 24");
  // Pressed, held until a new line has redrawn the board, then released: the move must count
  // (a click pressed on the score that the redraw replaced used to be lost).
  const box = await page.locator(`[data-sq="${best}"]`).boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(() => {
    new MutationObserver(() => { window.redrawn = true; }).observe(document.getElementById("board"), { childList: true, subtree: true });
  });
  await page.mouse.down();
  // Only a redraw after the press counts.
  await page.evaluate(() => { window.redrawn = false; });
  await page.waitForFunction(() => window.redrawn, null, { timeout: 60000 });
  const before = Date.now();
  await page.mouse.up();
  await waitForMoves(5);
  await page.waitForFunction(() => document.querySelectorAll("#lines tr").length > 0);
  assert.ok(Date.now() - before < 5000, `the new analysis took ${Date.now() - before} ms to start`);
  await page.selectOption("#level", "10");
  await page.click("#analyze");
});

test("undo and redo, by buttons and keys", async () => {
  const n = await movesPlayed();
  await page.click("#undo");
  await waitForExactly(n - 1);
  assert.equal(await movesPlayed(), n - 1);
  await page.keyboard.press("ArrowLeft");
  await waitForExactly(n - 2);
  await page.keyboard.press("ArrowRight");
  await waitForExactly(n - 1);
  await page.click("#redo");
  await waitForExactly(n);
  assert.equal(await movesPlayed(), n);
});

test("export gives a transcript and GGF; bad input is refused without harm", async () => {
  await page.click("#export");
  await page.waitForFunction(() => document.getElementById("io").value.includes("GM[Othello]"));
  const text = await page.inputValue("#io");
  assert.match(text, /^[a-h1-8]{10}\n\n\(;GM\[Othello\]/);
  await page.fill("#io", "f5f5");
  await page.click("#import");
  await page.waitForSelector("#error:has-text('illegal move')");
  assert.equal(await movesPlayed(), 5);
});

// A game of 54 moves (GGS style, with times and evaluations on the moves).
const GGF = "(;GM[Othello]PC[GGS/os]DT[2003.08.27_14:19:59.PDT]PB[alpha]PW[beta]RB[2100]RW[2050]TI[15:00//02:00]TY[8]RE[?]" +
  "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]" +
  TRANSCRIPT_GGF() + ";)";
function TRANSCRIPT_GGF() {
  const moves = "f5f4f3f6d3f2g6c3b3b2g4g3b1d2c4c5f1g2g1g5c6a1h6a2b5c7f7d6c2h5b8e7d1a4a3g7h4e3e6h1d8e1e8b4f8h2c1h8a6b6h3g8a5h7".match(/../g);
  return moves.map((m, i) => `${i % 2 ? "W" : "B"}[${m.toUpperCase()}/${(i % 7) - 3}/1.5]`).join("");
}

test("a GGF game imports, is played to its end against the engine, and the score is right", async () => {
  await setup({ engine: "white", level: 1, analysis: false });
  await page.fill("#io", GGF);
  await page.click("#import");
  await waitForMoves(54);
  assert.equal(await page.textContent("#error"), "");
  assert.match(await page.textContent("#moves"), /^1\. f5 f4 2\. f3 f6/);
  // Black to move: play the first legal move until the game ends.
  for (let i = 0; i < 40; i++) {
    const status = await page.textContent("#status");
    if (status.startsWith("Game over")) break;
    const legal = page.locator(".sq.legal");
    if ((await legal.count()) > 0 && status.startsWith("Black to move")) {
      const n = await movesPlayed();
      await legal.first().click();
      await page.waitForFunction((n) => (document.getElementById("moves").textContent.match(/[a-h][1-8]|pa/g) || []).length > n
        || document.getElementById("status").textContent.startsWith("Game over"), n);
    }
    await page.waitForFunction(() => {
      const s = document.getElementById("status").textContent;
      return s.startsWith("Game over") || s.startsWith("Black to move");
    });
  }
  const status = await page.textContent("#status");
  const m = status.match(/^Game over: Black (\d+) – White (\d+), (a draw|(Black|White) wins by (\d+))$/);
  assert.ok(m, status);
  const [black, white] = [+m[1], +m[2]];
  assert.equal(await page.locator(".disc.black").count(), black);
  assert.equal(await page.locator(".disc.white").count(), white);
  // The server's own count of the final position agrees, empties going to the winner.
  const moves = (await page.textContent("#moves")).match(/[a-h][1-8]|pa/g).join("");
  const final = await page.evaluate(async (moves) => (await fetch("/api/state", { method: "POST", body: JSON.stringify({ moves }) })).json(), moves);
  assert.equal(final.over, true);
  assert.equal(final.black, black);
  assert.equal(final.white, white);
  const diff = black - white;
  const expected = diff === 0 ? 0 : Math.sign(diff) * (64 - 2 * Math.min(black, white));
  assert.equal(final.result, expected);
  if (expected === 0) assert.equal(m[3], "a draw");
  else assert.equal(m[3], `${expected > 0 ? "Black" : "White"} wins by ${Math.abs(expected)}`);
  // The graph ends at the result.
  const last = await page.locator("#graph .point title").last().textContent();
  assert.match(last, new RegExp(`: ${expected > 0 ? "\\+" : ""}${expected}\\.0$`));
});

test("a game in progress against the engine, with its graph", async () => {
  // The player follows the analysis (level 4), so the graph shows a real game.
  await setup({ engine: "white", level: 4, analysis: true });
  await page.click("#new");
  for (let i = 0; i < 14; i++) {
    await page.waitForSelector("#status:has-text('Black to move')");
    await page.waitForFunction(() => document.body.dataset.thinking === "" && document.querySelectorAll("#lines tr").length > 0);
    const n = await movesPlayed();
    await page.click(`[data-sq="${await page.getAttribute("#lines tr >> nth=0", "data-move")}"]`);
    await waitForMoves(n + 2);
  }
  await page.waitForSelector("#status:has-text('Black to move')");
  await page.waitForFunction(() => document.body.dataset.thinking === "" && document.querySelectorAll("#lines tr[data-depth]").length > 0);
  assert.ok((await page.locator("#graph .point").count()) >= 20);
  await page.click("#export");
  await page.waitForFunction(() => document.getElementById("io").value.includes("PB[you]PW[oxello]"));
  await page.evaluate(() => window.scrollTo(0, 0));
  if (shots) await page.screenshot({ path: join(shots, "serve-game.png") });
  await page.click("#analyze");
});
