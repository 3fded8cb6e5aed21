/**
 * Child process that runs one sweep through the library and measures its coordinator: live heap (after a
 * forced collection) and resident memory every `sampleEvery` results, and peak resident memory. Run with
 * `node --expose-gc`. Used by the scale benchmark and by the test that bounds the coordinator's heap.
 *
 *   node --expose-gc dist/bench/coordinator-child.js '{"out": "...", "tasks": [...], ...}'
 *
 * The last line of stdout is one JSON object: sessions, seconds, samples [{ done, heapMb, rssMb }],
 * peakHeapMb, peakRssMb.
 */
import { runSweep, type RunSweepOptions } from '../src/index.js';

interface ChildOptions extends RunSweepOptions {
  /** Sample the coordinator every this many results (default 1000). */
  sampleEvery?: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ChildOptions;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run me with node --expose-gc');
const every = options.sampleEvery ?? 1000;
const samples: { done: number; heapMb: number; rssMb: number }[] = [];
const sample = (done: number) => {
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  samples.push({ done, heapMb: round(heapUsed / 2 ** 20), rssMb: round(rss / 2 ** 20) });
};
const round = (x: number) => Math.round(x * 100) / 100;
const start = performance.now();
let done = 0;
sample(0);
const sweep = runSweep(options);
let step = await sweep.next();
for (; !step.done; step = await sweep.next()) {
  if (++done % every === 0) sample(done);
}
const seconds = (performance.now() - start) / 1000;
sample(done);
const peakHeapMb = Math.max(...samples.map((s) => s.heapMb));
const peakRssMb = round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify({ sessions: done, total: step.value.sessions, seconds: round(seconds), samples, peakHeapMb, peakRssMb })}\n`);
