/**
 * Child process of the sweep benchmark: the process's resident memory before a 2-worker sweep of the
 * default suite and its peak during it (worker threads share the process), printed as JSON.
 */
import { timeSweep } from './sweep.js';

const baselineMb = process.memoryUsage().rss / 2 ** 20;
await timeSweep(2);
const peakMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ baselineMb, peakMb })}\n`);
