// The poke-button page, written as a web developer writes it with three.js: on the first frame a button is
// placed in front of the user, facing them, within reach; each frame every tracked index fingertip
// (`renderer.xr.getHand(i).joints['index-finger-tip']`) is taken into the button's own frame, and a press
// is counted by continuous penetration along the face's normal, with hysteresis: 8 mm in presses, back
// within 3 mm releases; the button lights up while it is pressed. `options` are the mistakes the adversarial
// pages make.
import * as THREE from 'three';

const RADIUS = 0.03;
const THICKNESS = 0.02;
/** A press starts 8 mm behind the face and ends when the fingertip is back within 3 mm of it. */
const ENTER_DEPTH = 0.008;
const EXIT_DEPTH = 0.003;

/** The button's colour, and its colour while pressed. */
const COLOUR = 0xdd2222;
const PRESSED_COLOUR = 0xff8a80;

/**
 * @param {{ distance?: number, touch?: 'penetration' | 'inside-box', highlight?: boolean }} options
 *   distance: how far in front of the eyes the button goes (0.38 m; 0.85 m is the mistake of placing it
 *   at a comfortable viewing distance, out of arm's reach).
 *   touch: `inside-box` is the mistake of treating touch as a boolean: a press whenever the fingertip
 *   enters the button's box, with no depth threshold and no hysteresis.
 *   highlight: false is the design mistake of giving no feedback: a press counts, and nothing shows it.
 */
export async function startButtonApp({ distance = 0.38, touch = 'penetration', hands: watchedHands = 'both', highlight = true } = {}) {
  const renderer = new THREE.WebGLRenderer({ antialias: false });
  renderer.xr.enabled = true;
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(70, 1, 0.01, 20);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));

  // A round button whose face is its local z = 0 plane, +Z its outward normal; the body lies behind it.
  const geometry = new THREE.CylinderGeometry(RADIUS, RADIUS, THICKNESS, 24).rotateX(Math.PI / 2).translate(0, 0, -THICKNESS / 2);
  const button = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: COLOUR }));
  button.userData.xrsimTag = 'button';
  const box = new THREE.Box3().setFromBufferAttribute(geometry.attributes.position);

  const hands = [0, 1].map((i) => {
    const hand = renderer.xr.getHand(i);
    scene.add(hand);
    return hand;
  });
  const watched = watchedHands === 'right' ? [hands[1]] : hands;
  const pressed = new Map(); // handedness → pressed now
  const handedness = new Map(); // hand → 'left' | 'right'
  for (const hand of hands) {
    hand.addEventListener('connected', (event) => handedness.set(hand, event.data.handedness));
    hand.addEventListener('disconnected', () => handedness.delete(hand));
  }

  const session = await navigator.xr.requestSession('immersive-ar', { requiredFeatures: ['local-floor', 'hand-tracking'] });
  await renderer.xr.setSession(session);

  /** Puts the button `distance` in front of the viewer, 28 cm below the eyes, its face turned to them. */
  function place(viewer) {
    const front = new THREE.Vector3(0, 0, -1).applyQuaternion(viewer.orientation);
    front.y = 0;
    front.normalize();
    button.position.copy(viewer.position).addScaledVector(front, distance).add(new THREE.Vector3(0, -0.28, 0));
    button.lookAt(button.position.clone().sub(front));
    scene.add(button);
    button.updateMatrixWorld();
  }

  const tip = new THREE.Vector3();
  renderer.setAnimationLoop((time, frame) => {
    if (!button.parent) {
      const pose = frame.getViewerPose(renderer.xr.getReferenceSpace());
      if (pose) place(pose.transform);
    }
    for (const hand of watched) {
      const joint = hand.joints['index-finger-tip'];
      const side = handedness.get(hand);
      if (!joint?.visible || !side || !button.parent) continue;
      // The fingertip in the button's frame: z is its height above the face.
      button.worldToLocal(joint.getWorldPosition(tip));
      if (touch === 'inside-box') {
        // Touch as a boolean: every frame the fingertip is inside is a press.
        if (box.containsPoint(tip)) xrsim.emit('button-pressed', { hand: side });
        continue;
      }
      const depth = Math.hypot(tip.x, tip.y) <= RADIUS ? -tip.z : -Infinity;
      const was = pressed.get(side) ?? false;
      const now = was ? depth >= EXIT_DEPTH : depth >= ENTER_DEPTH;
      if (now && !was) xrsim.emit('button-pressed', { hand: side });
      pressed.set(side, now);
    }
    if (highlight) button.material.color.setHex([...pressed.values()].some(Boolean) ? PRESSED_COLOUR : COLOUR);
    renderer.render(scene, camera);
  });
}
