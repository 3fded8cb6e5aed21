// The shim's own per-frame cost in the page, without the bridge: installs the ESM shim, then runs the
// ticks the host passes to window.runFrames(ticks) in one loop, each frame reading the viewer pose and
// 50 joint poses (as the IWER page does). Reports real milliseconds per frame.
import { install } from './shim.js';

const realNow = Performance.prototype.now.bind(performance);
install({ protocol: 1, seed: 1, epochMs: 0 });
const session = await navigator.xr.requestSession('immersive-vr', { requiredFeatures: ['local-floor', 'hand-tracking'] });
session.updateRenderState({ baseLayer: new XRWebGLLayer(session, document.createElement('canvas').getContext('webgl2')) });
const space = await session.requestReferenceSpace('local-floor');
let reads = 0;
session.requestAnimationFrame(function loop(time, frame) {
  session.requestAnimationFrame(loop);
  frame.getViewerPose(space);
  for (const source of session.inputSources) if (source.hand) for (const joint of source.hand.values()) if (frame.getJointPose(joint, space)) reads++;
});
window.runFrames = async (ticks) => {
  const started = realNow();
  await window.__xrsimHost.tick(ticks);
  return { msPerFrame: (realNow() - started) / ticks.length, reads };
};
