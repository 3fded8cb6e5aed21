/**
 * The coordinator writes a result line from the worker's JSON text (spliced with the key, spec and seconds)
 * instead of parsing and re-serialising the result. What users rely on: `results.jsonl` holds exactly the
 * text the line object gives (`JSON.stringify(line)`), the line runSweep yields is that object, results
 * that cannot travel as text (NaN, a stream of their own) still get their line, and the sessions' results
 * and hashes are those of one thread.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSessionPool, runSession, runSweep, type SessionResult, type SweepResultLine } from '../src/index.js';
import { runBoundedBatches } from '../src/sweep/bounded.js';
import { sessionKey, type SweepEntry } from '../src/sweep/matrix.js';
import { lineOf, plainLine } from '../src/sweep/record-kept.js';
import { tempDir } from './helpers/cli.js';
import { tinyTask as tinyTaskFile } from './helpers/tiny-task.js';

const dir = tempDir();
const SCENES = ['empty-lab', 'office'];

const tinyTask = (name: string, app?: string) => tinyTaskFile(dir, name, app);

const plain = tinyTask('plain');
const throws = tinyTask('throws', 'export function frame() { throw new Error("boom \\u001b \\"quoted\\" é"); }\n');

const entryOf = (spec: SweepEntry['spec']): SweepEntry => ({ key: sessionKey(spec), spec });

describe('result lines spliced from the worker text', () => {
  it('give exactly the text and object the parsed result gives, for passing, failing, errored and app-error results', async () => {
    const specs: SweepEntry['spec'][] = [
      { task: plain, scene: 'empty-lab', seed: 3, dominantHand: 'right' },
      { task: throws, app: 'reference', scene: 'office', seed: 4, dominantHand: 'left' },
      { task: join(dir, 'missing.json'), scene: 'office', seed: 1, dominantHand: 'right' },
      { task: 'xr/palm-menu', scene: 'living-room', seed: 2, dominantHand: 'right' },
    ];
    for (const spec of specs) {
      const result = await runSession(spec);
      const entry = entryOf(spec);
      const spliced = plainLine(entry, JSON.stringify(result), 0.0123456);
      const legacy = lineOf(entry, { result, seconds: 0.0123456 }, null);
      expect(spliced, spec.task).not.toBeNull();
      expect(spliced!.text).toBe(JSON.stringify(legacy));
      expect(spliced!.line).toEqual(legacy);
      expect(Object.keys(spliced!.line)).toEqual(Object.keys(legacy));
    }
  });

  it('are refused when the result has a stream of its own or a key field (the caller then builds the line)', () => {
    const entry = entryOf({ task: plain, scene: 'office', seed: 1, dominantHand: 'right' });
    const base = { task: 'x', status: 'passed', score: 1, milestones: [] } as unknown as SessionResult;
    expect(plainLine(entry, JSON.stringify({ ...base, stream: 'a.xrs' }), 0)).toBeNull();
    expect(plainLine(entry, JSON.stringify({ ...base, stream: null, key: 'ffffffffffffffff' }), 0)).toBeNull();
    expect(plainLine(entry, JSON.stringify({ ...base, stream: null }), 0)).not.toBeNull();
  });

  it('a sweep through the pool writes each line as JSON.stringify of the line it yields, with one-thread hashes, and resumes from them', async () => {
    const pool = createSessionPool(2);
    const out = join(dir, 'sweep');
    const options = { tasks: [plain, throws], seeds: { from: 1, to: 30 }, scenes: SCENES, hands: ['right' as const], keepStreams: 'none' as const, out, executor: pool };
    try {
      const yielded = new Map<string, SweepResultLine>();
      for await (const line of runSweep(options)) yielded.set(line.key, line);
      expect(yielded.size).toBe(120);
      const texts = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
      expect(texts).toHaveLength(120);
      for (const text of texts) {
        const line = yielded.get((JSON.parse(text) as SweepResultLine).key)!;
        expect(text).toBe(JSON.stringify(line));
      }
      for (const line of [...yielded.values()].filter((_, i) => i % 17 === 0)) {
        const alone = await runSession(line.spec!);
        expect(line.hash).toBe(alone.hash);
        expect(line.status).toBe(alone.status);
      }
      // Resume: every session is already there, nothing runs again, and the summary counts them all.
      const resumed = runSweep(options);
      let step = await resumed.next();
      let ran = 0;
      for (; !step.done; step = await resumed.next()) ran++;
      expect(ran).toBe(0);
      expect(step.value.sessions).toBe(120);
    } finally {
      await pool.close();
    }
  });

});

describe('runBoundedBatches', () => {
  it('hands every output on exactly once, in batches, with at most the capacity in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const source = (function* () {
      for (let i = 0; i < 5000; i++) yield i;
    })();
    const seen = new Set<number>();
    let batches = 0;
    // Items finish together, as a worker's reply finishes several sessions at once.
    let round: Promise<void> | null = null;
    const nextRound = () => (round ??= new Promise<void>((r) => setImmediate(() => ((round = null), r()))));
    for await (const batch of runBoundedBatches(source, 8, async (i) => {
      most = Math.max(most, ++inFlight);
      await nextRound();
      inFlight--;
      return i;
    })) {
      batches++;
      for (const i of batch) {
        expect(seen.has(i)).toBe(false);
        seen.add(i);
      }
    }
    expect(seen.size).toBe(5000);
    expect(most).toBe(8);
    expect(batches).toBeLessThan(1000); // several outputs per wake-up
  });

  it('throws the first rejection', async () => {
    const source = [1, 2, 3][Symbol.iterator]();
    const run = async () => {
      for await (const _ of runBoundedBatches(source, 2, async (i) => {
        if (i === 2) throw new Error('two');
        return i;
      }));
    };
    await expect(run()).rejects.toThrow('two');
  });
});
