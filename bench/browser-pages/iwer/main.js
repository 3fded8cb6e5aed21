// IWER's per-frame cost in the same Chromium: a Quest 3 with hands, frames driven by hand (a manual
// animation-frame queue stands in for the display), each frame moving the right hand and blending its
// pinch (see ../common/frame-reads.js for the reads). Reports real milliseconds per frame.
import { startFrameReads } from './frame-reads.js';

const queue = [];
window.requestAnimationFrame = (callback) => queue.push(callback);
window.cancelAnimationFrame = () => {};
const { XRDevice, metaQuest3 } = await import('./iwer.js');
const device = new XRDevice(metaQuest3);
device.installRuntime({ forceInstall: true });
device.primaryInputMode = 'hand';
const counter = await startFrameReads();
window.runFrames = async (count) => {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    device.hands.right.position.x = 0.2 + 0.001 * (i % 50);
    device.hands.right.updatePinchValue((i % 90) / 90);
    for (const callback of queue.splice(0)) callback(performance.now());
    await Promise.resolve();
  }
  return { msPerFrame: (performance.now() - started) / count, reads: counter.reads };
};
