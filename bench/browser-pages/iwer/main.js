// IWER's per-frame cost in the same Chromium: a Quest 3 with hands, frames driven by hand (a manual
// animation-frame queue stands in for the display), each frame moving the right hand and reading the
// viewer pose and 50 joint poses. Reports real milliseconds per frame.
const queue = [];
window.requestAnimationFrame = (callback) => queue.push(callback);
window.cancelAnimationFrame = () => {};
const { XRDevice, metaQuest3 } = await import('./iwer.js');
const device = new XRDevice(metaQuest3);
device.installRuntime({ forceInstall: true });
device.primaryInputMode = 'hand';
const session = await navigator.xr.requestSession('immersive-vr', { requiredFeatures: ['local-floor', 'hand-tracking'] });
session.updateRenderState({ baseLayer: new XRWebGLLayer(session, document.createElement('canvas').getContext('webgl2')) });
const space = await session.requestReferenceSpace('local-floor');
let reads = 0;
session.requestAnimationFrame(function loop(time, frame) {
  session.requestAnimationFrame(loop);
  frame.getViewerPose(space);
  for (const source of session.inputSources) if (source.hand) for (const joint of source.hand.values()) if (frame.getJointPose(joint, space)) reads++;
});
window.runFrames = async (count) => {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    device.hands.right.position.x = 0.2 + 0.001 * (i % 50);
    device.hands.right.updatePinchValue((i % 90) / 90);
    const callbacks = queue.splice(0);
    for (const callback of callbacks) callback(performance.now());
    await Promise.resolve();
  }
  return { msPerFrame: (performance.now() - started) / count, reads };
};
