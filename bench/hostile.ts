/**
 * The hostile-input benchmark (issue 36): how long `xrsim run` takes to refuse input made to exhaust it,
 * as the user runs it (a new CLI process, timed from spawn to exit). `hostile_validation_s` is a 2 MB task
 * whose `bodies` are 1,000,000 numbers (collecting every schema error took minutes); the other case fills
 * the JSON size limit (`MAX_JSON_FILE_BYTES`, 16 MB: 8 million items). Each must exit 2; the median of 3.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_JSON_FILE_BYTES } from '../src/json/load.js';
import { median, round } from './stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/src/cli/main.js');

/** A shipped task with `bodies` replaced by `items` numbers. */
function taskWithItems(items: number): string {
  const task = JSON.parse(readFileSync(join(ROOT, 'tasks/physics/stack-settle/task.json'), 'utf8'));
  task.bodies = new Array(items).fill(1);
  return JSON.stringify(task);
}

/** Seconds from spawning `xrsim run --task FILE` to its exit; throws unless it exits 2 (bad input). */
function refusalSeconds(file: string): number {
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [CLI, 'run', '--task', file], { encoding: 'utf8', timeout: 600_000 });
  const s = Number(process.hrtime.bigint() - start) / 1e9;
  if (child.status !== 2) throw new Error(`xrsim run --task ${file} exited ${child.status}, not 2: ${child.stderr.slice(0, 300)}`);
  return s;
}

export async function hostileBenchmark(progress: (line: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'xrsim-bench-hostile-'));
  try {
    const sizeLimitItems = Math.floor((MAX_JSON_FILE_BYTES - 4096) / 2);
    const cases = [
      { name: 'million-items', items: 1_000_000 },
      { name: 'size-limit', items: sizeLimitItems },
    ];
    const details = [];
    for (const c of cases) {
      const file = join(dir, `${c.name}.json`);
      const text = taskWithItems(c.items);
      writeFileSync(file, text);
      const runs = [0, 1, 2].map(() => refusalSeconds(file));
      details.push({ ...c, bytes: Buffer.byteLength(text), trials: runs.map((r) => round(r)), s: round(median(runs)) });
      progress(`${c.name} (${c.items} items, ${Buffer.byteLength(text)} bytes): exit 2 in ${round(median(runs))} s`);
    }
    return { details, summary: { hostile_validation_s: details[0].s, hostile_validation_size_limit_s: details[1].s } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
