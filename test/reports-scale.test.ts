/**
 * Reports that scale (issue 10, item 2) and the pieces of the sweep coordinator that do not need workers:
 * long series plot and keep their spikes, JUnit is valid XML whatever an app's error says and carries
 * time, the HTML report aggregates, progress fits where it runs, task globs are real globs, and the
 * bounded executor keeps its bound.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { htmlReport, junitXml, lineSvg, matchTasks, runBounded, thinMinMax, type SessionResult } from '../src/index.js';
import { aggregateResults, compareIdentity } from '../src/report/aggregate.js';
import { writeJunit, xmlEscape } from '../src/report/junit.js';
import { progressPrinter } from '../src/cli/progress.js';
import { KeySet } from '../src/sweep/key-set.js';
import { tempDir } from './helpers/cli.js';

/** A result as a sweep writes it. */
function result(i: number, overrides: Partial<SessionResult> & { seconds?: number } = {}): SessionResult & { seconds?: number } {
  const passed = i % 3 !== 0;
  return {
    task: `suite/task-${i % 4}`,
    app: i % 2 ? 'reference' : null,
    scene: ['office', 'kitchen'][i % 2],
    seed: i,
    hand: i % 5 ? 'right' : 'left',
    ticks: 5,
    status: passed ? 'passed' : 'failed',
    score: passed ? 1 : 0.5,
    hash: i.toString(16).padStart(16, '0'),
    milestones: [
      { id: 'reaches', passed, score: passed ? 1 : 0.5, metric: (i % 97) / 10, threshold: 5, comparison: 'atMost', ticks: [3], validator: 0 } as SessionResult['milestones'][number],
      { id: 'settles', passed: true, score: 1, metric: null, threshold: 1, comparison: 'atMost', ticks: [], validator: 1 } as SessionResult['milestones'][number],
    ],
    stream: null,
    modelHash: 'm',
    seconds: 0.01 + (i % 10) / 100,
    ...overrides,
  };
}

describe('plots', () => {
  it('a 130,000-point metric series plots without error', () => {
    const points: [number, number][] = Array.from({ length: 130_000 }, (_, i) => [i / 90, Math.sin(i / 1000)]);
    const svg = lineSvg(points, 0.5, [10, 20], 'long');
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('class="series"');
  });

  it('thinning keeps each bucket’s minimum and maximum, so a one-frame spike survives', () => {
    const points: [number, number][] = Array.from({ length: 130_000 }, (_, i) => [i, i === 77_777 ? 1000 : i === 12_345 ? -1000 : 0]);
    const thin = thinMinMax(points, 400);
    expect(thin.length).toBeLessThanOrEqual(400);
    expect(thin).toContainEqual([77_777, 1000]);
    expect(thin).toContainEqual([12_345, -1000]);
    for (let i = 1; i < thin.length; i++) expect(thin[i][0]).toBeGreaterThan(thin[i - 1][0]);
  });
});

describe('JUnit', () => {
  it('escapes what XML 1.0 cannot carry (an app error holding \\x1b) and stays well-formed', () => {
    expect(xmlEscape('red \u001b[31m <b> & "q"\u0000\n')).toBe('red \\x1b[31m &lt;b&gt; &amp; &quot;q&quot;\\x00&#10;');
    const errored = result(1, { status: 'errored', milestones: [], error: { kind: 'crash', message: 'colour \u001b[31mred\u001b[0m \ud800 broken' } });
    const xml = junitXml([errored]);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(xml).toContain('message="colour \\x1b[31mred\\x1b[0m \\ud800 broken"');
  });

  it('carries time: a session’s seconds shared by its test cases, summed per suite and overall', () => {
    const xml = junitXml([result(1, { seconds: 0.5 }), result(5, { seconds: 0.25 })]);
    expect(xml).toMatch(/<testsuites name="xrsim sweep" tests="4" failures="0" errors="0" time="0.750">/);
    expect(xml).toMatch(/<testsuite name="suite\/task-1" tests="4" failures="0" errors="0" time="0.750">/);
    expect((xml.match(/time="0.250"/g) ?? []).length).toBe(2);
    expect((xml.match(/time="0.125"/g) ?? []).length).toBe(2);
  });

  it('writes 100,000 sessions in one streaming pass, suites in task order with their counts', () => {
    const path = join(tempDir(), 'junit.xml');
    const n = 100_000;
    writeJunit(path, function* () {
      for (let i = 0; i < n; i++) yield result(i);
    });
    const xml = readFileSync(path, 'utf8');
    expect((xml.match(/<testcase /g) ?? []).length).toBe(2 * n);
    expect(xml.match(/<testsuite name="([^"]+)"/g)).toEqual([0, 1, 2, 3].map((t) => `<testsuite name="suite/task-${t}"`));
    const failures = Math.ceil(n / 3);
    expect(xml).toContain(`<testsuites name="xrsim sweep" tests="${2 * n}" failures="${failures}" errors="0"`);
  });
});

describe('the HTML report aggregates', () => {
  it('from 200,000 sessions: counts, matrix, pass rates, histograms; the first and worst failures only', () => {
    const n = 200_000;
    const source = function* () {
      for (let i = 0; i < n; i++) yield result(i, i === 150_001 ? { score: 0, status: 'failed' } : {});
    };
    const agg = aggregateResults(source);
    expect(agg.sessions).toBe(n);
    expect(agg.failed).toBe(Math.ceil(n / 3) + 1);
    // The first failures by what they ran: task-0 (no app, office), seeds 0, 12, 24, …
    expect(agg.firstFailures).toHaveLength(20);
    expect(agg.firstFailures.slice(0, 3).map((r) => [r.task, r.seed])).toEqual([['suite/task-0', 0], ['suite/task-0', 12], ['suite/task-0', 24]]);
    for (let i = 1; i < agg.firstFailures.length; i++) expect(compareIdentity(agg.firstFailures[i - 1], agg.firstFailures[i])).toBeLessThan(0);
    expect(agg.worstFailures[0].seed).toBe(150_001);
    const reaches = agg.milestones.find((m) => m.task === 'suite/task-0' && m.milestone === 'reaches')!;
    expect(reaches.histogram.counts.reduce((a, b) => a + b, 0)).toBe(reaches.sessions);
    const html = htmlReport({ title: 'big', results: source });
    expect(html.length).toBeLessThan(512 * 1024);
    expect(html).toContain(`${n} sessions`);
    expect(html).toContain('Lowest-scoring failed sessions');
  });
});

describe('progress', () => {
  const capture = (isTTY: boolean) => {
    const written: string[] = [];
    let t = 0;
    const print = progressPrinter({ isTTY, write: (s: string) => written.push(s) }, () => t);
    return { written, print, advance: (seconds: number) => (t += seconds) };
  };

  it('without a terminal: a line only when 10 s and 5 % have both passed, then the last one', () => {
    const { written, print, advance } = capture(false);
    for (let done = 1; done <= 100_000; done++) {
      advance(0.001); // 100 s in all: about every 10 s a line, although 5 % passes every 5 s
      print({ done, total: 100_000, failed: 0, errored: 0, resumed: 0 });
    }
    expect(written.length).toBeGreaterThanOrEqual(10);
    expect(written.length).toBeLessThanOrEqual(12);
    expect(written.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true);
    expect(written[written.length - 1]).toMatch(/^\[100%\] 100000\/100000 sessions/);
  });

  it('a slow sweep prints every 5 %, not every 10 s', () => {
    const { written, print, advance } = capture(false);
    for (let done = 1; done <= 1000; done++) {
      advance(5); // 5000 s in all
      print({ done, total: 1000, failed: 1, errored: 0, resumed: 0 });
    }
    expect(written.length).toBeGreaterThanOrEqual(20);
    expect(written.length).toBeLessThanOrEqual(22);
  });

  it('on a terminal: one bar redrawn in place, at most ten times a second', () => {
    const { written, print, advance } = capture(true);
    for (let done = 1; done <= 10_000; done++) {
      advance(0.001);
      print({ done, total: 10_000, failed: 2, errored: 1, resumed: 0 });
    }
    print.finish();
    expect(written.length).toBeLessThanOrEqual(102);
    expect(written.slice(0, -1).every((s) => s.startsWith('\r['))).toBe(true);
    expect(written[written.length - 2]).toMatch(/10000\/10000 sessions .* 2 failed, 1 errored/);
  });
});

describe('task globs (picomatch)', () => {
  it('braces, classes, ? and negation', () => {
    expect(matchTasks(['xr/{palm-menu,poke-button}'])).toEqual(['xr/palm-menu', 'xr/poke-button']);
    expect(matchTasks(['xr/poke-?utton'])).toEqual(['xr/poke-button']);
    expect(matchTasks(['xr/[d-e]*'])).toEqual(['xr/depth-bounce', 'xr/draw-in-air', 'xr/ergonomic-menu']);
    expect(matchTasks(['physics/*', '!physics/{cube,stack}-*'])).toEqual(['physics/material-curling', 'physics/rolling-ball-checkpoints']);
    expect(matchTasks(['!xr/**'])).toEqual(['physics/cube-move', 'physics/material-curling', 'physics/rolling-ball-checkpoints', 'physics/stack-settle']);
    expect(() => matchTasks(['xr/{nothing,none}'])).toThrow(/no task matches "xr\/\{nothing,none\}"/);
  });
});

describe('the coordinator core', () => {
  it('keeps at most `capacity` in flight over a lazy source of 100,000 items, each once', async () => {
    let pulled = 0;
    let inFlight = 0;
    let most = 0;
    const source = (function* () {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield i;
      }
    })();
    const seen = new KeySet();
    let pulledAhead = 0;
    for await (const i of runBounded(source, 4, async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      pulledAhead = Math.max(pulledAhead, pulled - i); // the source is pulled only as slots free
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return i;
    })) {
      expect(seen.add(i.toString(16).padStart(16, '0'))).toBe(true);
    }
    expect(seen.size).toBe(100_000);
    expect(most).toBe(4);
    expect(pulledAhead).toBeLessThanOrEqual(5);
  });

  it('a KeySet holds a million keys compactly', () => {
    const keys = new KeySet();
    for (let i = 0; i < 1_000_000; i++) keys.add((i * 2654435761).toString(16).padStart(16, '0').slice(-16));
    expect(keys.size).toBe(1_000_000);
    expect(keys.has((12345 * 2654435761).toString(16).padStart(16, '0').slice(-16))).toBe(true);
    expect(keys.has('ffffffffffffffff')).toBe(false);
  });
});
