// What both in-page benchmark pages do each frame, so IWER and the shim are timed on the same work: an
// immersive session with hands and a base layer, and a frame loop reading the viewer pose and every
// joint pose of every hand. Returns a counter of joint poses read.
export async function startFrameReads() {
  const session = await navigator.xr.requestSession('immersive-vr', { requiredFeatures: ['local-floor', 'hand-tracking'] });
  session.updateRenderState({ baseLayer: new XRWebGLLayer(session, document.createElement('canvas').getContext('webgl2')) });
  const space = await session.requestReferenceSpace('local-floor');
  const counter = { reads: 0 };
  session.requestAnimationFrame(function loop(time, frame) {
    session.requestAnimationFrame(loop);
    frame.getViewerPose(space);
    for (const source of session.inputSources) if (source.hand) for (const joint of source.hand.values()) if (frame.getJointPose(joint, space)) counter.reads++;
  });
  return counter;
}
