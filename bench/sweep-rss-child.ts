/**
 * Child process of the sweep benchmark: a cold 2-worker sweep of the default suite, and the largest
 * resident memory a worker process reported after one of its sessions, printed as JSON. (Workers are
 * processes of their own, so this process's RSS no longer includes them.)
 */
import { createSessionPool } from '../src/index.js';
import { timeSweep } from './sweep.js';

const pool = createSessionPool(2);
await timeSweep(2, pool);
process.stdout.write(`${JSON.stringify({ peakWorkerMb: pool.stats.peakWorkerRssMb })}\n`);
await pool.close();
