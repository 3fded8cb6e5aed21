// The chime-button page, written as a web developer writes it with three.js: a button is placed in front of
// the user on the first frame, a fingertip pressing into its face is a press (8 mm in, released back within
// 3 mm, in the button's own frame), and each press plays a chime from a THREE.PositionalAudio attached to
// the button, heard through a THREE.AudioListener attached to the camera. The chime is a 0.3 s AudioBuffer
// filled in code (no audio file). `options` are the mistakes the adversarial pages make.
import * as THREE from 'three';

const RADIUS = 0.03;
const ENTER_DEPTH = 0.008;
const EXIT_DEPTH = 0.003;
const CHIME_SECONDS = 0.3;

/**
 * @param {{ sound?: 'positional' | 'flat', listenerOn?: 'camera' | 'scene', when?: 'press' | 'release' }} options
 *   sound: `flat` plays the chime through a THREE.Audio: no panner, heard inside the head.
 *   listenerOn: `scene` adds the AudioListener to the scene instead of the camera: it stays at the room's
 *   origin, and the chime is heard relative to it rather than to the user's head.
 *   when: `release` plays the chime when the finger leaves the button.
 */
export async function startChimeApp({ sound: kind = 'positional', listenerOn = 'camera', when = 'press' } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: false });
  renderer.xr.enabled = true;
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(70, 1, 0.01, 20);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));

  const listener = new THREE.AudioListener();
  (listenerOn === 'scene' ? scene : camera).add(listener);
  const chime = kind === 'flat' ? new THREE.Audio(listener) : new THREE.PositionalAudio(listener);
  chime.name = 'chime';
  chime.setBuffer(chimeBuffer(listener.context));

  const geometry = new THREE.CylinderGeometry(RADIUS, RADIUS, 0.02, 24).rotateX(Math.PI / 2).translate(0, 0, -0.01);
  const button = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0x2266dd }));
  button.userData.xrsimTag = 'button';
  if (kind === 'flat') scene.add(chime);
  else button.add(chime);

  const hands = [0, 1].map((i) => renderer.xr.getHand(i));
  const side = new Map();
  for (const hand of hands) {
    scene.add(hand);
    hand.addEventListener('connected', (event) => side.set(hand, event.data.handedness));
    hand.addEventListener('disconnected', () => side.delete(hand));
  }
  const pressed = new Map();

  const session = await navigator.xr.requestSession('immersive-ar', { requiredFeatures: ['local-floor', 'hand-tracking'] });
  await renderer.xr.setSession(session);

  const tip = new THREE.Vector3();
  renderer.setAnimationLoop((time, frame) => {
    if (!button.parent) {
      const pose = frame.getViewerPose(renderer.xr.getReferenceSpace());
      if (pose) placeInFront(button, pose.transform, scene);
    }
    for (const hand of hands) {
      const joint = hand.joints['index-finger-tip'];
      const handedness = side.get(hand);
      if (!joint?.visible || !handedness || !button.parent) continue;
      button.worldToLocal(joint.getWorldPosition(tip));
      const depth = Math.hypot(tip.x, tip.y) <= RADIUS ? -tip.z : -Infinity;
      const was = pressed.get(handedness) ?? false;
      const now = was ? depth >= EXIT_DEPTH : depth >= ENTER_DEPTH;
      pressed.set(handedness, now);
      if (now && !was) xrsim.emit('button-pressed', { hand: handedness });
      if (when === 'press' ? now && !was : was && !now) {
        if (chime.isPlaying) chime.stop();
        chime.play();
      }
    }
    renderer.render(scene, camera);
  });
}

/** A 0.3 s, 880 Hz chime with an exponential decay, in a one-channel buffer. */
function chimeBuffer(context) {
  const buffer = context.createBuffer(1, Math.round(CHIME_SECONDS * context.sampleRate), context.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < samples.length; i++) {
    const t = i / context.sampleRate;
    samples[i] = 0.5 * Math.sin(2 * Math.PI * 880 * t) * Math.exp(-t * 12);
  }
  return buffer;
}

/** The button 0.38 m ahead of the eyes, 28 cm below them, its face turned to the user. */
function placeInFront(button, viewer, scene) {
  const front = new THREE.Vector3(0, 0, -1).applyQuaternion(viewer.orientation);
  front.y = 0;
  front.normalize();
  button.position.copy(viewer.position).addScaledVector(front, 0.38).add(new THREE.Vector3(0, -0.28, 0));
  button.lookAt(button.position.clone().sub(front));
  scene.add(button);
  button.updateMatrixWorld();
}
