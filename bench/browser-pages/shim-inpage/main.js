// The shim's own per-frame cost in the page, without the bridge: installs the ESM shim, then runs the
// ticks the host passes to window.runFrames(ticks) in one loop (see ../common/frame-reads.js for the
// work each frame does). Reports real milliseconds per frame.
import { install } from './shim.js';
import { startFrameReads } from './frame-reads.js';

const realNow = Performance.prototype.now.bind(performance);
install({ protocol: 2, seed: 1, epochMs: 0 });
const counter = await startFrameReads();
window.runFrames = async (ticks) => {
  const started = realNow();
  await window.__xrsimHost.tick(ticks);
  return { msPerFrame: (realNow() - started) / ticks.length, reads: counter.reads };
};
