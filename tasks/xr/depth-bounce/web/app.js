// The depth-bounce page, written as a web developer writes it with three.js: half a second in, a ball is
// dropped in front of the user and bounces on whatever the depth sensor sees. The page has no model of the
// room: every frame it asks `frame.getDepthInformation(view)` (null until the first depth frame), projects
// the ball's lowest point into the depth camera's view (the depth information's own transform and
// projection matrix) and reads the surface there with `getDepthInMeters`. `options` are the mistakes the
// adversarial pages make.
import * as THREE from 'three';

const RADIUS = 0.03;
const GRAVITY = 9.81;
const RESTITUTION = 0.75;
/** A bounce slower than this is kicked up to LAUNCH_SPEED, as a toy would be, so the ball never comes to rest. */
const MIN_BOUNCE_SPEED = 0.6;
const LAUNCH_SPEED = 2.2;

/**
 * @param {{ depth?: 'live' | 'startup-copy', viewY?: 'down' | 'up' }} options
 *   depth: `startup-copy` is the mistake of copying the first depth frame (its buffer and camera) and
 *   testing against that copy ever after, as if the room never changed.
 *   viewY: `up` is the mistake of normalising view coordinates with +y up (the OpenGL texture convention);
 *   WebXR's normalized view coordinates start at the top left, +y down.
 */
export async function startBounceApp({ depth = 'live', viewY = 'down' } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: false });
  renderer.xr.enabled = true;
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(70, 1, 0.01, 20);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));

  const ball = new THREE.Mesh(new THREE.SphereGeometry(RADIUS, 16, 12), new THREE.MeshStandardMaterial({ color: 0xffcc22 }));
  ball.userData.xrsimTag = 'ball';
  const velocity = new THREE.Vector3();
  let dropped = false;
  let startupCopy = null;

  const session = await navigator.xr.requestSession('immersive-ar', {
    requiredFeatures: ['local-floor', 'depth-sensing'],
    depthSensing: { usagePreference: ['cpu-optimized'], dataFormatPreference: ['unsigned-short', 'float32'] },
  });
  await renderer.xr.setSession(session);

  /** Drops the ball 0.4 m in front of the viewer (on the floor plane's direction) and 0.2 m below the eyes. */
  function drop(viewer) {
    const forward = new THREE.Vector3(0, 0, -1).applyQuaternion(viewer.orientation);
    forward.y = 0;
    forward.normalize();
    ball.position.copy(viewer.position).addScaledVector(forward, 0.4).add(new THREE.Vector3(0, -0.2, 0));
    velocity.set(0, 0, 0);
    scene.add(ball);
    dropped = true;
  }

  let lastTime = null;
  renderer.setAnimationLoop((time, frame) => {
    const dt = lastTime === null ? 0 : (time - lastTime) / 1000;
    lastTime = time;
    const pose = frame.getViewerPose(renderer.xr.getReferenceSpace());
    if (!pose) return;
    if (!dropped && time >= 500) drop(pose.transform);
    if (dropped) {
      const info = frame.getDepthInformation(pose.views[0]);
      if (depth === 'startup-copy' && info && !startupCopy) startupCopy = copyDepth(info);
      step(dt, depth === 'live' ? info && liveDepth(info) : startupCopy);
    }
    renderer.render(scene, camera);
  });

  function step(dt, seen) {
    velocity.y -= GRAVITY * dt;
    ball.position.addScaledVector(velocity, dt);
    if (!seen || velocity.y >= 0) return;
    const bottom = ball.position.clone().add(new THREE.Vector3(0, -RADIUS, 0));
    const reading = readDepthAt(seen, bottom, viewY);
    if (!reading || reading.point <= reading.surface) return;
    // Behind the measured surface along the camera's axis: convert that to a vertical overlap and bounce.
    const axis = new THREE.Vector3(0, 0, -1).applyQuaternion(seen.orientation);
    ball.position.y += (reading.point - reading.surface) * Math.abs(axis.y);
    velocity.y = -velocity.y * RESTITUTION;
    if (velocity.y < MIN_BOUNCE_SPEED) velocity.y = LAUNCH_SPEED;
    xrsim.emit('bounce');
  }
}

/** This frame's depth, read through the platform's own getDepthInMeters. */
function liveDepth(info) {
  return {
    cameraFromWorld: new THREE.Matrix4().fromArray(info.transform.inverse.matrix),
    orientation: new THREE.Quaternion().copy(info.transform.orientation),
    projection: new THREE.Matrix4().fromArray(info.projectionMatrix),
    read: (x, y) => info.getDepthInMeters(x, y),
  };
}

/** A copy of a depth frame that outlives its XRFrame (the buffer and the camera it was taken with). */
function copyDepth(info) {
  const values = info.rawValueToMeters === 1 ? new Float32Array(info.data.slice(0)) : new Uint16Array(info.data.slice(0));
  const { width, height, rawValueToMeters } = info;
  return {
    ...liveDepth(info),
    read: (x, y) => values[Math.min(height - 1, Math.floor(y * height)) * width + Math.min(width - 1, Math.floor(x * width))] * rawValueToMeters,
  };
}

/** The surface depth where `point` projects, and the point's own depth (metres along the camera's axis), or null. */
function readDepthAt(seen, point, viewY) {
  const local = point.clone().applyMatrix4(seen.cameraFromWorld);
  if (local.z >= -1e-6) return null;
  const ndc = local.clone().applyMatrix4(seen.projection);
  const x = (ndc.x + 1) / 2;
  const y = viewY === 'down' ? (1 - ndc.y) / 2 : (ndc.y + 1) / 2;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  const surface = seen.read(x, y);
  return surface > 0 ? { surface, point: -local.z } : null;
}
