// The pinch-spawn-ball page, written as a web developer writes it with three.js: a pinch (three's own
// `pinchstart` on `renderer.xr.getHand(i)`) spawns a ball at the pinch point; the ball follows the pinch
// while held, flies off with the hand's velocity on `pinchend`, and disappears when it reaches a wall the
// headset detected (`frame.detectedPlanes`, as a Quest page learns the room). `options` are the mistakes
// the adversarial pages make.
import * as THREE from 'three';

const RADIUS = 0.03;
const GRAVITY = 9.81;
/** Frames of hand motion the release velocity is measured over. */
const HISTORY = 4;

/**
 * @param {{ spawnAt?: 'pinch-point' | 'grip', wallsFrom?: 'live' | 'first-frame', releasedBy?: 'holder' | 'any' }} options
 *   spawnAt: where the ball goes. `grip` is the mistake of reusing controller code for hands: a hand's
 *   grip space sits at its palm, not between the pinching fingertips.
 *   wallsFrom: `first-frame` is the mistake of setting up the wall colliders once, from the planes
 *   detected on the session's first frame, as if the room were known from the start.
 *   releasedBy: `any` is the mistake of letting go of the ball on any hand's `pinchend`, not only the
 *   holding hand's: the other hand's brief pinch drops the ball.
 */
export async function startBallApp({ spawnAt = 'pinch-point', wallsFrom = 'live', releasedBy = 'holder' } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: false });
  renderer.xr.enabled = true;
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(70, 1, 0.01, 20);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));

  const ball = new THREE.Mesh(new THREE.SphereGeometry(RADIUS, 16, 12), new THREE.MeshStandardMaterial({ color: 0xff6633 }));
  ball.userData.xrsimTag = 'ball';

  const inputSources = new Map(); // hand group → its XRInputSource
  const history = []; // { p, t } of the held ball, the last few frames
  const velocity = new THREE.Vector3();
  const previous = new THREE.Vector3();
  let held = null; // the hand group holding the ball
  let flying = false;

  /** Where the hand holds the ball now (scene coordinates), or null when the hand is not tracked. */
  function handPoint(hand, frame) {
    if (spawnAt === 'grip') {
      const source = inputSources.get(hand);
      const pose = source && frame.getPose(source.gripSpace, renderer.xr.getReferenceSpace());
      return pose ? new THREE.Vector3().copy(pose.transform.position) : null;
    }
    const index = hand.joints['index-finger-tip'];
    const thumb = hand.joints['thumb-tip'];
    if (!index?.visible || !thumb?.visible) return null;
    return index.getWorldPosition(new THREE.Vector3()).add(thumb.getWorldPosition(new THREE.Vector3())).multiplyScalar(0.5);
  }

  // three.js fires pinch events while it handles the session's select events, outside the animation frame:
  // note them, and act in the next frame, where poses can be read.
  let pinched = null; // { hand, handedness } of a pinch that started
  let released = null; // the hand that let go
  for (const i of [0, 1]) {
    const hand = renderer.xr.getHand(i);
    scene.add(hand);
    hand.addEventListener('connected', (event) => inputSources.set(hand, event.data));
    hand.addEventListener('disconnected', () => inputSources.delete(hand));
    hand.addEventListener('pinchstart', (event) => {
      if (!held && !pinched) pinched = { hand, handedness: event.handedness };
    });
    hand.addEventListener('pinchend', () => {
      if (held && (held === hand || releasedBy === 'any')) released = hand;
    });
  }

  function spawn(frame) {
    const p = handPoint(pinched.hand, frame);
    if (!p) return;
    held = pinched.hand;
    flying = false;
    history.length = 0;
    ball.position.copy(p);
    scene.add(ball);
    xrsim.emit('ball-spawned', { hand: pinched.handedness });
  }

  function release() {
    held = null;
    // The hand's velocity over the last few frames.
    const first = history[0];
    const last = history[history.length - 1];
    if (history.length >= 2) velocity.subVectors(last.p, first.p).divideScalar(last.t - first.t);
    else velocity.set(0, 0, 0);
    flying = true;
    xrsim.emit('ball-released', { speed: velocity.length() });
  }

  /** The detected walls now: each one's transform from scene to plane space, polygon and label. */
  function detectedWalls(frame) {
    const walls = [];
    for (const plane of frame.detectedPlanes ?? []) {
      if (plane.orientation !== 'vertical') continue;
      const pose = frame.getPose(plane.planeSpace, renderer.xr.getReferenceSpace());
      if (pose) walls.push({ planeFromScene: new THREE.Matrix4().fromArray(pose.transform.inverse.matrix), polygon: plane.polygon, label: plane.semanticLabel ?? null });
    }
    return walls;
  }

  /** The wall the ball's path from `from` to `to` reaches, if any. */
  const a = new THREE.Vector3();
  const b = new THREE.Vector3();
  function wallReached(walls, from, to) {
    for (const wall of walls) {
      // In plane space the plane is y = 0, its normal +Y points into the room, its polygon is in x, z.
      a.copy(from).applyMatrix4(wall.planeFromScene);
      b.copy(to).applyMatrix4(wall.planeFromScene);
      if (b.y > RADIUS || a.y < -RADIUS) continue;
      const s = a.y > b.y ? THREE.MathUtils.clamp((a.y - RADIUS) / (a.y - b.y), 0, 1) : 0;
      const contact = a.lerp(b, s);
      if (insidePolygon(wall.polygon, contact.x, contact.z)) return wall;
    }
    return null;
  }

  const session = await navigator.xr.requestSession('immersive-ar', {
    requiredFeatures: ['local-floor', 'hand-tracking'],
    optionalFeatures: ['plane-detection'],
  });
  await renderer.xr.setSession(session);

  let lastTime = null;
  let startupWalls = null; // the walls of the first frame (what the `first-frame` mistake keeps)
  renderer.setAnimationLoop((time, frame) => {
    const dt = lastTime === null ? 0 : (time - lastTime) / 1000;
    lastTime = time;
    if (wallsFrom === 'first-frame') startupWalls ??= detectedWalls(frame);
    if (released) release();
    if (pinched) spawn(frame);
    released = null;
    pinched = null;
    if (held) {
      const p = handPoint(held, frame);
      if (p) ball.position.copy(p);
      history.push({ p: ball.position.clone(), t: time / 1000 });
      if (history.length > HISTORY) history.shift();
    } else if (flying) {
      previous.copy(ball.position);
      velocity.y -= GRAVITY * dt;
      ball.position.addScaledVector(velocity, dt);
      const wall = wallReached(wallsFrom === 'first-frame' ? startupWalls : detectedWalls(frame), previous, ball.position);
      if (wall) {
        flying = false;
        scene.remove(ball);
        xrsim.emit('ball-despawned', { reason: 'wall', label: wall.label });
      }
    }
    renderer.render(scene, camera);
  });
}

/** Whether (x, z) lies inside a plane's polygon (even-odd rule; the polygon's points are in plane space). */
function insidePolygon(polygon, x, z) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const p = polygon[i];
    const q = polygon[j];
    if (p.z > z !== q.z > z && x < ((q.x - p.x) * (z - p.z)) / (q.z - p.z) + p.x) inside = !inside;
  }
  return inside;
}
