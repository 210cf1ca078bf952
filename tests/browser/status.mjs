// The status page of a running `serve` (tests/it/faces.rs starts it):
// a window opened by hot reload appears with a moving countdown, a
// refused reload appears with its cause, no planted canary reaches the
// page or anything it fetches, no request leaves the test's origin, and
// the page without JavaScript shows the same windows.
import fs from 'node:fs';
import { cfg, launch, record, checkSeen, check, until, sleep } from './common.mjs';

const browser = await launch();
const seen = [];
const ctx = await browser.newContext({
  viewport: { width: 1100, height: 720 },
  httpCredentials: { username: 'oncall', password: cfg.token },
});
const page = await ctx.newPage();
record(page, seen);
const resp = await page.goto(cfg.url, { waitUntil: 'load' });
check(resp.status() === 200, 'the page answered ' + resp.status());
const csp = resp.headers()['content-security-policy'] || '';
check(csp.startsWith("default-src 'none'") && !csp.includes('unsafe'), 'no strict CSP: ' + csp);

// A window opened by hot reload: write its file, wait for the page.
fs.writeFileSync(cfg.window_file + '.tmp', cfg.window_text);
fs.renameSync(cfg.window_file + '.tmp', cfg.window_file);
const row = `tr[data-window="${cfg.window_id}"]`;
await until('the hot-reloaded window on the page', 20000, async () =>
  page.$eval(row, (e) => ['active', 'enabled'].includes(e.getAttribute('data-state'))).catch(() => false));
const left = async () => page.$eval(`${row} [data-left]`, (e) => e.textContent);
const first = await left();
await sleep(2200);
const second = await left();
check(first !== second, `the countdown did not move (${first} then ${second})`);
check(await page.$(`${row} meter[data-budget="records"]`), 'no budget bar for the window');

// A refused reload: its cause (file:line) appears, its values do not.
fs.writeFileSync(cfg.bad_file, cfg.bad_text);
const refused = await until('the refused reload on the page', 20000, async () =>
  page.$eval('[data-refused]', (e) => e.textContent).catch(() => null));
check(refused.includes(cfg.bad_cause), 'the refusal does not name its cause: ' + refused);

// Records with the canary went through serve before the page loaded
// (the test sent them); send more now, while the page refreshes.
await page.screenshot({ path: cfg.shots + '/status-page.png' });
await sleep(3500);
const html = await page.content();
for (const c of cfg.canaries) check(!html.includes(c), 'a planted canary is on the page');
await checkSeen(seen, cfg.canaries, [new URL(cfg.url).origin]);
check(seen.some((s) => s.kind === 'request' && s.url.endsWith('/v1/status')), 'the page never refreshed from /v1/status');
const jsIds = await page.$$eval('tr[data-window]', (es) => es.map((e) => e.getAttribute('data-window') + ':' + e.getAttribute('data-state')));

// JavaScript off: the server-rendered page shows the same windows.
const noJs = await browser.newContext({
  javaScriptEnabled: false,
  httpCredentials: { username: 'oncall', password: cfg.token },
});
const p2 = await noJs.newPage();
const seen2 = [];
record(p2, seen2);
await p2.goto(cfg.url, { waitUntil: 'load' });
const staticIds = await p2.$$eval('tr[data-window]', (es) => es.map((e) => e.getAttribute('data-window') + ':' + e.getAttribute('data-state')));
check(JSON.stringify(jsIds) === JSON.stringify(staticIds), `JavaScript off shows ${staticIds}, on ${jsIds}`);
check(staticIds.some((s) => s.startsWith(cfg.window_id + ':')), 'JavaScript off: the window is missing');
await checkSeen(seen2, cfg.canaries, [new URL(cfg.url).origin]);
check(!seen2.some((s) => s.url.endsWith('/v1/status')), 'JavaScript off, yet the page fetched');

// Without the token: refused, and nothing of the status shown. Headless
// Chromium gives up on the Basic challenge it cannot answer; the same
// request from the context's own client shows the 401 and its body.
const anon = await browser.newContext();
const p3 = await anon.newPage();
let refusedNav = false;
try {
  const r3 = await p3.goto(cfg.url);
  refusedNav = r3.status() === 401 && !(await p3.content()).includes(cfg.window_id);
} catch (e) {
  refusedNav = String(e).includes('ERR_INVALID_AUTH_CREDENTIALS');
}
check(refusedNav, 'the page opened without the token');
const r4 = await anon.request.get(cfg.url);
check(r4.status() === 401, 'the page without the token answered ' + r4.status());
check(!(await r4.text()).includes(cfg.window_id), 'the 401 shows a window');

await browser.close();
console.log(JSON.stringify({ ok: true, windows: jsIds, countdown: [first, second], refused }));
