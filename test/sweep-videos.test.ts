/**
 * `xrsim sweep --videos` (a system test: ffmpeg): a video of each kept stream beside it, checked with
 * ffprobe, embedded in the HTML report by a relative path; and `--judge` on a sweep, whose views go beside
 * the streams and whose verdicts go into results.jsonl.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SweepResultLine } from '../src/sweep/results.js';
import { ROOT, tempDir, xrsim } from './helpers/cli.js';

const SKIP_SYSTEM = process.env.XRSIM_SKIP_SYSTEM === '1';
const TASK = join(ROOT, 'test/fixtures/visual/ball-in-view.json');
const JUDGE = `node ${join(ROOT, 'tasks/judges/colour-fill.mjs')}`;

const lines = (dir: string) => readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SweepResultLine);

describe.skipIf(SKIP_SYSTEM)('xrsim sweep --videos (system test: ffmpeg)', () => {
  it('keeps a video next to each failed session\'s stream and embeds it in the report; the judge\'s views and verdicts are kept too', () => {
    const dir = tempDir();
    const out = join(dir, 'sweep');
    const html = join(dir, 'report', 'index.html');
    execFileSync('mkdir', ['-p', dirname(html)]);
    const r = xrsim('sweep', TASK, '--seeds', '1', '--hands', 'right', '--workers', '1', '--videos', 'failed', '--judge', JUDGE, '--html', html, '--out', out, '--json');
    expect(r.code, r.stderr).toBe(1); // one criterion is not met: the session fails
    const [line] = lines(out);
    expect(line.status).toBe('failed');
    expect(line.video).toBe(join(resolve(out), 'streams', `${line.key}.webm`));
    // 1 s at 15 fps: frames 0..15.
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,nb_read_frames,width,height', '-of', 'json', line.video!], { encoding: 'utf8' }));
    expect(probe.streams[0]).toMatchObject({ codec_name: 'vp9', width: 320, height: 240, nb_read_frames: '16' });
    const report = readFileSync(html, 'utf8');
    expect(report).toContain(`<video src="../sweep/streams/${line.key}.webm"`);
    expect(report).toContain('<h2>Session videos</h2>');
    const visible = line.milestones.find((m) => m.id === 'ball-visible')!;
    expect(visible.passed).toBe(true);
    expect(visible.visual?.images?.[0]).toBe(join(resolve(out), 'streams', `${line.key}.visual`, 'visual0-moment0-t18.png'));
    expect(existsSync(visible.visual!.images![0])).toBe(true);
    expect(line.milestones.find((m) => m.id === 'ball-fills-view')?.visual?.verdict?.passed).toBe(false);
  });

  it('makes no video by default, and refuses --videos all without the streams to render', () => {
    const out = join(tempDir(), 'sweep');
    const none = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--hands', 'right', '--workers', '1', '--keep-streams', 'all', '--out', out, '--json');
    expect(none.code, none.stderr).toBe(0);
    const [line] = lines(out);
    expect(line.stream).not.toBeNull();
    expect(line.video).toBeUndefined();
    const refused = xrsim('sweep', 'physics/stack-settle', '--seeds', '1', '--videos', 'all', '--keep-streams', 'failed', '--out', join(tempDir(), 'x'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--videos all needs the streams .* --keep-streams all/);
  });
});
