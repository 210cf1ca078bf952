// The audit report of a scripted day (tests/it/faces.rs writes the log
// and runs `tracegate audit report`): the right lanes and bars, marks for
// the denial and the reloads, the tampered copy flagged, nothing loaded.
import { cfg, launch, record, checkSeen, check } from './common.mjs';

const browser = await launch();
const out = {};
for (const [name, file] of [['intact', cfg.report], ['tampered', cfg.tampered]]) {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await ctx.newPage();
  const seen = [];
  record(page, seen);
  await page.goto('file://' + file, { waitUntil: 'load' });
  const lanes = await page.$$eval('svg#timeline [data-lane]', (es) => es.map((e) => e.getAttribute('data-lane')));
  const bars = await page.$$eval('svg#timeline g[data-window]', (es) => es.map((e) => ({
    id: e.getAttribute('data-window'), sink: e.getAttribute('data-sink'), cause: e.getAttribute('data-cause'),
    records: Number(e.getAttribute('data-records')),
    lane: e.closest('[data-lane]').getAttribute('data-lane'),
    width: e.querySelector('rect').getBoundingClientRect().width,
  })));
  const marks = await page.$$eval('svg#timeline [data-mark]', (es) => es.map((e) => e.getAttribute('data-mark')));
  const status = await page.$eval('#verdict', (e) => e.getAttribute('data-status'));
  const headline = await page.$eval('#verdict .headline', (e) => e.textContent);
  const visible = await page.$eval('#verdict', (e) => e.getBoundingClientRect().top < 400);
  check(visible, name + ': the verdict is not at the top');
  for (const b of bars) check(b.width > 0, name + ': bar ' + b.id + ' is not drawn');
  for (const b of bars) check(b.lane === b.sink, name + ': bar ' + b.id + ' is in lane ' + b.lane);
  await checkSeen(seen, cfg.canaries, []);
  check(!seen.some((s) => !s.url.startsWith('file://')), name + ': the report loaded something');
  if (name === 'intact') await page.screenshot({ path: cfg.shots + '/audit-report.png' });
  out[name] = { lanes, bars, marks, status, headline };
}
await browser.close();
console.log(JSON.stringify(out));
