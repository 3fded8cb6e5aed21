/**
 * A page that leaves its document mid-session (issue 36, item 6) is `errored`, "the page left", with where
 * it went, on every run and over either tick channel; a same-document navigation (a hash
 * change) is not leaving, and the page's milestones judge it as usual. Real Chromium (skipped only with
 * XRSIM_SKIP_SYSTEM=1).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, xrsim } from '../helpers/cli.js';
import { SKIP_SYSTEM } from '../helpers/browser.js';

const page = (name: string) => join(ROOT, 'test/fixtures/browser/navigates-away', `to-${name}.html`);
const run = (name: string, env: NodeJS.ProcessEnv = {}) => {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return xrsim('run', '--task', 'xr/pinch-spawn-ball', '--app', page(name), '--duration', '1', '--json');
  } finally {
    process.env = saved;
  }
};

describe.skipIf(SKIP_SYSTEM)('a page that navigates away', () => {
  const expected: Record<string, RegExp> = {
    elsewhere: /^the page left: it navigated from \/to-elsewhere\.html to \/elsewhere\.html/,
    reload: /^the page left: it navigated from \/to-reload\.html to \/to-reload\.html/,
    blank: /^the page left: it navigated from \/to-blank\.html to about:blank/,
  };
  for (const [name, message] of Object.entries(expected)) {
    it(`(${name}) is errored with where it went, the same on every run and over both tick channels`, () => {
      const runs = [run(name), run(name), run(name, { XRSIM_TICK_CHANNEL: 'devtools' })];
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(1);
        expect(r.json.status).toBe('errored');
        expect(r.json.error.message).toMatch(message);
      }
      expect(new Set(runs.map((r) => r.json.error.message)).size).toBe(1);
    });
  }

  it('a hash change is not leaving: the session runs to its end and its milestones judge it', () => {
    const r = run('hash');
    expect(r.json.status, JSON.stringify(r.json.error)).toBe('failed'); // the page spawns no ball
    expect(r.json.ticks).toBe(90);
  });
});
