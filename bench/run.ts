/**
 * Benchmark runner: `npm run bench -- kernel|hands|depth|suite|sweep|scale|queue|browser|rank|view|hostile [...] [--json]`.
 * Prints a table; with `--json` the last line is one JSON object of the headline figures.
 */
import { browserBenchmark } from './browser.js';
import { depthBenchmark } from './depth.js';
import { handsBenchmark } from './hands.js';
import { hostileBenchmark } from './hostile.js';
import { kernelBenchmark } from './kernel.js';
import { queueBenchmark } from './queue.js';
import { rankBenchmark } from './rank.js';
import { suiteBenchmark } from './suite.js';
import { scaleBenchmark } from './scale.js';
import { sweepBenchmark } from './sweep.js';
import { viewBenchmark } from './view.js';

const SUITES: Record<string, (progress: (line: string) => void) => Promise<{ details: unknown; summary: Record<string, number | null> }>> = {
  kernel: kernelBenchmark,
  hands: handsBenchmark,
  depth: depthBenchmark,
  suite: suiteBenchmark,
  sweep: sweepBenchmark,
  scale: scaleBenchmark,
  queue: queueBenchmark,
  browser: browserBenchmark,
  rank: rankBenchmark,
  view: viewBenchmark,
  hostile: hostileBenchmark,
};

const args = process.argv.slice(2);
const json = args.includes('--json');
const names = args.filter((a) => !a.startsWith('--'));
const unknown = names.filter((n) => !Object.hasOwn(SUITES, n));
if (names.length === 0 || unknown.length > 0) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(SUITES).join('|')}> [--json]${unknown.length ? `\nunknown suite: ${unknown.join(', ')}` : ''}\n`);
  process.exit(2);
}
const summary: Record<string, number | null> = {};
for (const name of names) {
  const result = await SUITES[name]((line) => process.stderr.write(`${name}: ${line}\n`));
  process.stdout.write(`${name}: ${JSON.stringify(result.details, null, 2)}\n`);
  Object.assign(summary, result.summary);
}
if (json) process.stdout.write(`${JSON.stringify(summary)}\n`);
else for (const [key, value] of Object.entries(summary)) process.stdout.write(`${key.padEnd(28)} ${value}\n`);
