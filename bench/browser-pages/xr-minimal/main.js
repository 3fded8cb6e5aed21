// A minimal shimmed XR page: every frame reads the viewer pose and both hands' 25 joints (50 joint poses).
const session = await navigator.xr.requestSession('immersive-vr', { requiredFeatures: ['local-floor', 'hand-tracking'] });
session.updateRenderState({ baseLayer: new XRWebGLLayer(session, document.createElement('canvas').getContext('webgl2')) });
const space = await session.requestReferenceSpace('local-floor');
session.requestAnimationFrame(function loop(time, frame) {
  session.requestAnimationFrame(loop);
  frame.getViewerPose(space);
  for (const source of session.inputSources) if (source.hand) for (const joint of source.hand.values()) frame.getJointPose(joint, space);
});
