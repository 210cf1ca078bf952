// Shared by the browser tests: launch Debian's Chromium through
// playwright-core (installed under target/, see scripts/test.sh) and
// check what a page asked for and received.
import { createRequire } from 'node:module';

const cfg = JSON.parse(process.env.TG_CONFIG || '{}');
const require = createRequire(cfg.playwright_dir + '/package.json');
const { chromium } = require('playwright-core');

export { cfg };

// Without the background-networking flags Chromium opens connections of
// its own (and they are refused on CI machines); a fresh profile each run.
export async function launch() {
  return chromium.launch({
    executablePath: cfg.chromium,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export function fail(msg) {
  console.error('browser test failed: ' + msg);
  process.exit(1);
}

export function check(cond, msg) {
  if (!cond) fail(msg);
}

// Every request the page makes, and every response body, for the canary
// and origin checks. The response handlers run asynchronously: each one's
// promise is kept in `seen.pending`, and `checkSeen` waits for all of them,
// so every response seen before the check is checked whole. A response
// that can no longer be read (its page or browser closed, which happens
// only after the checks) is recorded as unreadable, never thrown.
export function record(page, seen) {
  seen.pending = seen.pending || [];
  page.on('request', (r) => seen.push({ kind: 'request', url: r.url(), post: r.postData() || '' }));
  page.on('response', (r) => {
    seen.pending.push((async () => {
      let body = '';
      try { body = (await r.body()).toString('utf8'); } catch (e) { body = ''; }
      try {
        const headers = JSON.stringify(await r.allHeaders());
        seen.push({ kind: 'response', url: r.url(), body, headers });
      } catch (e) {
        seen.push({ kind: 'response', url: r.url(), body, headers: '', unreadable: true });
      }
    })());
  });
}

export async function checkSeen(seen, canaries, allowed) {
  await Promise.all(seen.pending || []);
  check(seen.length > 0, 'no request was recorded');
  for (const s of seen) {
    // Read while its page was open: a response that could not be read
    // then is a failure, not a pass.
    check(!s.unreadable, 'a response of ' + s.url + ' could not be read for the canary check');
    const u = new URL(s.url);
    if (u.protocol !== 'file:' && u.protocol !== 'data:' && u.protocol !== 'about:') {
      check(allowed.includes(u.origin), 'a request went to ' + u.origin + ', not a loopback origin of the test');
    }
    for (const c of canaries) {
      const where = s.url + ' ' + (s.post || '') + ' ' + (s.body || '') + ' ' + (s.headers || '');
      check(!where.includes(c), 'a planted canary appeared in a ' + s.kind + ' of ' + s.url);
    }
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Ask `f` every 100 ms until it answers truthy, for at most `ms`.
export async function until(what, ms, f) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) fail('timed out waiting for ' + what);
    await sleep(100);
  }
}
