/**
 * The HTML report in real Chromium (a system test: CI installs Chromium; skipped only with
 * XRSIM_SKIP_SYSTEM=1): it opens offline, renders with no console errors, and shows the pass matrix,
 * the metric histograms, the plots of failed sessions, the flaky table and the ranking.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, xrsim } from './helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
const CHROMIUM = process.env.XRSIM_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

describe.skipIf(SKIP_SYSTEM)('the HTML report in Chromium (system test)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(path: string) {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    // Offline: any request beyond the file itself would fail the test.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`file://${path}`);
    return { page, errors, requests };
  }

  it('renders a sweep report with no console errors: matrix, histograms, plots of failed sessions', async () => {
    const out = tempDir();
    const html = join(out, 'report.html');
    expect(xrsim('sweep', 'xr/poke*', 'xr/palm*', '--apps', 'process', '--seeds', '1', '--scenes', 'office', '--out', out, '--html', html).code).toBe(0); // its adversarial apps fail as expected
    const { page, errors, requests } = await open(html);
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${html}`]);
    const matrix = await page.locator('table').first().innerText();
    expect(matrix).toMatch(/xr\/poke-button · counts-frames\s+0\/1\s+0\/1/);
    expect(matrix).toMatch(/xr\/palm-menu · reference\s+1\/1\s+1\/1/);
    expect(await page.locator('h2').allInnerTexts()).toEqual(['Pass matrix (sessions passed over seeds)', 'Milestones', 'Design score (1–5; mean over the sessions that rated each heuristic)', 'Milestone metrics against their thresholds', 'First failed and errored sessions', 'Slowest sessions']);
    // The design table: a row per task and app, the score and each heuristic's mean rating.
    const design = await page.locator('table').nth(2).innerText();
    expect(design).toMatch(/score\s+reach-comfort\s+neck-rotation/);
    expect(design).toMatch(/xr\/poke-button · out-of-reach\s+\d\.\d\s+1\.0/); // a button out of reach: reach rated 1
    // A histogram per milestone, and for each failed session its failed milestones over time.
    expect(await page.locator('svg .bar').count()).toBeGreaterThan(50);
    expect(await page.locator('svg path.series').count()).toBeGreaterThanOrEqual(8);
    expect(await page.locator('svg line.threshold').count()).toBeGreaterThan(8);
    await page.close();
  });

  it('renders the ranking report: candidates with their intervals, pairwise wins, per-task means', async () => {
    const out = tempDir();
    // Two candidates' sweep folders, as results lines (ranking reads nothing else).
    const dirs = ['agent-a', 'agent-b'].map((name, k) => {
      const dir = join(out, name);
      mkdirSync(dir);
      const lines = [];
      for (const task of ['xr/one', 'xr/two']) {
        for (let seed = 1; seed <= 4; seed++) {
          const score = k === 0 || seed % 2 === 0 ? 1 : 0.5;
          lines.push(JSON.stringify({ key: `${task}${seed}`, task, app: null, scene: 'office', seed, hand: 'right', ticks: 1, status: score === 1 ? 'passed' : 'failed', score, hash: '', milestones: [], stream: null, modelHash: '' }));
        }
      }
      writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
      return dir;
    });
    const html = join(out, 'rank.html');
    expect(xrsim('rank', dirs[1], dirs[0], '--html', html).code).toBe(0);
    const { page, errors, requests } = await open(html);
    expect(errors).toEqual([]);
    expect(requests).toEqual([`file://${html}`]);
    expect(await page.locator('h2').allInnerTexts()).toEqual(['Ranking']);
    const candidates = await page.locator('table').first().innerText();
    expect(candidates).toMatch(/1\s+agent-a\s+1\.000 \[1\.000, 1\.000\]/);
    expect(candidates).toMatch(/2\s+agent-b\s+0\.750/);
    // Partial credit, full pass and Pass@1 for each candidate: agent-a passes both tasks, agent-b neither.
    expect(await page.locator('svg rect.bar').count()).toBe(6);
    expect(candidates).toMatch(/2 of 2 tasks/);
    expect(candidates).toMatch(/0 of 2 tasks/);
    expect(await page.locator('table').nth(2).innerText()).toMatch(/xr\/one\s+4\s+1\.000 \/ 1\.000 ✓\s+0\.750 \/ 0\.500/);
    await page.close();
  });

  it('renders the flaky report with its table', async () => {
    const out = tempDir();
    const html = join(out, 'flaky.html');
    xrsim('flaky', 'xr/poke*', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--perturb', '--runs', '2', '--out', out, '--html', html);
    const { page, errors } = await open(html);
    expect(errors).toEqual([]);
    const headings = await page.locator('h2').allInnerTexts();
    expect(headings.some((h) => h === 'Flakiness' || h === 'Flaky milestones')).toBe(true);
    await page.close();
  });
});
