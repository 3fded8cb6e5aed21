/**
 * Child process for the memory benchmark. First it steps a 20-minute warm-up session (about a second of
 * wall time), so that V8 has finished tiering Rapier's WASM up to optimised code: in any process, RSS climbs
 * by 50–100 MB during the first second or so of stepping while hot functions are recompiled, whatever the
 * session length, and then stays flat. (Compiling eagerly with --no-liftoff avoids the climb but halves
 * Rapier's speed, so the kernel does not.) Then it runs one recorded 10-body session of the given simulated
 * duration, sampling RSS every simulated second.
 * Prints JSON: { warmRssMb, sessionPeakRssMb, processMaxRssMb }.
 */
import { Session } from '../src/index.js';
import { dropModel } from './worlds.js';

const [duration, path] = process.argv.slice(2);
const mb = (bytes: number) => bytes / 1024 / 1024;

await (await Session.create(dropModel(10, 1200), { seed: 2 })).run();
const warmRssMb = mb(process.memoryUsage().rss);
const session = await Session.create(dropModel(10, Number(duration)), { seed: 1, record: { path } });
let peak = process.memoryUsage().rss;
await session.run({
  onFrame: (frame) => {
    if (frame.tick % 90 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  },
});
process.stdout.write(`${JSON.stringify({ warmRssMb, sessionPeakRssMb: mb(peak), processMaxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
