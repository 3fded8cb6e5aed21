/**
 * Outputs are never clobbered (issue 36, item 5): every output flag refuses, with exit 2 and before any
 * work, an existing file of the user's that is not the same kind of xrsim output, and leaves it as it
 * was; it replaces its own earlier output and empty files; `--force` replaces anything but a folder.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, xrsim, type CliResult } from '../helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
const NOTES = 'my notes: years of work\n';
const dir = tempDir();
const stream = join(dir, 'session.xrs');

/** A file of the user's, with their words in it. */
function usersFile(name: string): string {
  const path = join(dir, name);
  writeFileSync(path, NOTES);
  return path;
}

/** The command was refused as bad input, naming the option and the path, and the file is untouched. */
function expectRefused(r: CliResult, path: string, option: string): void {
  expect(r.code, r.stderr + r.stdout).toBe(2);
  expect(r.stderr + r.stdout).toContain(`${option} ${path}: refusing to overwrite an existing file that is not`);
  expect(r.stderr + r.stdout).toContain('--force');
  expect(readFileSync(path, 'utf8')).toBe(NOTES);
}

beforeAll(() => {
  // 0.2 s is too short for the task's milestones (exit 1): only the stream matters here.
  const r = xrsim('run', '--task', 'physics/stack-settle', '--duration', '0.2', '--out', stream, '--json');
  expect(r.json.status, r.stderr).not.toBe('errored');
});

describe('run --out', () => {
  it('refuses a file that is not a stream, leaves it as it was, and replaces it with --force', () => {
    const precious = usersFile('precious.json');
    const r = xrsim('run', '--task', 'physics/stack-settle', '--duration', '0.2', '--out', precious, '--json');
    expect(r.code).toBe(2);
    expect(r.json.error).toMatchObject({ kind: 'bad-input', file: precious });
    expect(r.json.error.message).toMatch(/refusing to overwrite an existing file that is not an xrsim stream/);
    expect(readFileSync(precious, 'utf8')).toBe(NOTES);
    const forced = xrsim('run', '--task', 'physics/stack-settle', '--duration', '0.2', '--out', precious, '--force', '--json');
    expect(forced.json.status, forced.stderr).not.toBe('errored');
    expect(readFileSync(precious).subarray(0, 8).toString('latin1')).toBe('XRSTREAM');
  });

  it('writes an existing stream, an empty file and a new path', () => {
    const again = join(dir, 'again.xrs');
    const empty = join(dir, 'empty.xrs');
    writeFileSync(empty, '');
    for (const out of [again, again, empty]) {
      const r = xrsim('run', '--task', 'physics/stack-settle', '--duration', '0.2', '--out', out, '--json');
      expect(r.json.status, out).not.toBe('errored');
      expect(readFileSync(out).subarray(0, 8).toString('latin1')).toBe('XRSTREAM');
    }
  });
});

describe('export --out', () => {
  for (const format of ['jsonl', 'iwer', 'mcap']) {
    it(`${format}: refuses the user's file, replaces its own export, and --force replaces anything`, () => {
      const notes = usersFile(`notes-${format}.txt`);
      expectRefused(xrsim('export', stream, '--format', format, '--out', notes), notes, '--out');
      const out = join(dir, `export.${format}`);
      for (let i = 0; i < 2; i++) expect(xrsim('export', stream, '--format', format, '--out', out).code).toBe(0);
      // Another format's export is not this format's output either.
      const other = join(dir, `export.${format === 'jsonl' ? 'iwer' : 'jsonl'}`);
      expect(xrsim('export', stream, '--format', format === 'jsonl' ? 'iwer' : 'jsonl', '--out', other).code).toBe(0);
      expect(xrsim('export', stream, '--format', format, '--out', other).code).toBe(2);
      expect(xrsim('export', stream, '--format', format, '--out', notes, '--force').code).toBe(0);
      expect(readFileSync(notes, 'utf8')).not.toBe(NOTES);
    });
  }

  it('never writes over the stream it reads, even with --force', () => {
    const r = xrsim('export', stream, '--format', 'jsonl', '--out', join(dir, '.', 'session.xrs'), '--force');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/would overwrite the stream/);
  });
});

describe('sweep, flaky and rank reports', () => {
  const sweepArgs = (out: string) => ['sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--scenes', 'office', '--workers', '1', '--out', out];

  it('sweep --junit and --html refuse the user\'s files before any session runs, and replace their own reports', () => {
    const junit = usersFile('j.txt');
    const html = usersFile('h.txt');
    const out = join(dir, 'sweep-refused');
    expectRefused(xrsim(...sweepArgs(out), '--junit', junit, '--html', html), junit, '--junit');
    expect(readFileSync(html, 'utf8')).toBe(NOTES);
    expect(existsSync(join(out, 'results.jsonl'))).toBe(false); // nothing ran
    expectRefused(xrsim(...sweepArgs(out), '--html', html), html, '--html');
    const reports = { junit: join(dir, 'junit.xml'), html: join(dir, 'report.html') };
    for (let i = 0; i < 2; i++) {
      const r = xrsim(...sweepArgs(join(dir, 'sweep-ok')), '--junit', reports.junit, '--html', reports.html);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(readFileSync(reports.junit, 'utf8')).toContain('<testsuites');
    const forced = xrsim(...sweepArgs(join(dir, 'sweep-ok')), '--junit', junit, '--html', html, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('<!doctype html>');
  });

  it('flaky --html and rank --html refuse the user\'s files', () => {
    const html = usersFile('flaky.txt');
    expectRefused(xrsim('flaky', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--runs', '2', '--out', join(dir, 'flaky'), '--html', html), html, '--html');
    const a = join(dir, 'rank-a');
    const b = join(dir, 'rank-b');
    for (const out of [a, b]) expect(xrsim(...sweepArgs(out)).code).toBe(0);
    expectRefused(xrsim('rank', a, b, '--html', html), html, '--html');
    const own = join(dir, 'rank.html');
    for (let i = 0; i < 2; i++) expect(xrsim('rank', a, b, '--html', own).code).toBe(0);
  });
});

describe('render and view', () => {
  it('render --out refuses the user\'s file, replaces its own PNG, and --force replaces anything', () => {
    const notes = usersFile('notes.png');
    expectRefused(xrsim('render', stream, '--tick', '0', '--out', notes, '--renderer', 'cpu', '--width', '32', '--height', '24'), notes, '--out');
    const own = join(dir, 'view.png');
    for (let i = 0; i < 2; i++) expect(xrsim('render', stream, '--tick', '0', '--out', own, '--renderer', 'cpu', '--width', '32', '--height', '24', '--depth').code).toBe(0);
    expect(xrsim('render', stream, '--tick', '0', '--out', notes, '--renderer', 'cpu', '--width', '32', '--height', '24', '--force').code).toBe(0);
  });

  it('render --out-dir checks every image before writing the first', () => {
    const frames = tempDir();
    writeFileSync(join(frames, 'frame-000010.png'), NOTES);
    const r = xrsim('render', stream, '--every', '5', '--out-dir', frames, '--renderer', 'cpu', '--width', '32', '--height', '24');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('refusing to overwrite');
    expect(readdirSync(frames)).toEqual(['frame-000010.png']);
    expect(readFileSync(join(frames, 'frame-000010.png'), 'utf8')).toBe(NOTES);
  });

  it.skipIf(SKIP_SYSTEM)('render --video refuses the user\'s file and replaces its own video (ffmpeg)', () => {
    for (const extension of ['webm', 'mp4']) {
      const notes = usersFile(`notes.${extension}`);
      expectRefused(xrsim('render', stream, '--video', notes, '--renderer', 'cpu', '--width', '32', '--height', '24', '--fps', '10'), notes, '--video');
      const own = join(dir, `session.${extension}`);
      for (let i = 0; i < 2; i++) {
        const r = xrsim('render', stream, '--video', own, '--renderer', 'cpu', '--width', '32', '--height', '24', '--fps', '10');
        expect(r.code, r.stderr).toBe(0);
      }
    }
  });

  it.skipIf(SKIP_SYSTEM)('view --screenshot refuses the user\'s file before starting Chromium, and replaces its own screenshot', () => {
    const notes = usersFile('shot.png');
    expectRefused(xrsim('view', stream, '--screenshot', notes), notes, '--screenshot');
    const own = join(dir, 'own-shot.png');
    for (let i = 0; i < 2; i++) {
      const r = xrsim('view', stream, '--screenshot', own, '--width', '320', '--height', '200');
      expect(r.code, r.stderr).toBe(0);
    }
  });
});
