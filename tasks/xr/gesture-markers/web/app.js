// The gesture-markers page, written as an XR Blocks developer writes it: XR Blocks' own gesture recognizer
// (options.enableGestures(), `gesturestart` events on xb.core.gestureRecognition) turns a pinch into a
// marker at the pinch point, and the open palm of the hand that placed the markers clears them. `options` are
// the mistakes the adversarial pages make.
import * as THREE from 'three';
import * as xb from 'xrblocks';

const RADIUS = 0.015;

/**
 * @param {{ markAt?: 'pinch-point' | 'wrist', markOn?: 'start' | 'every-update', clearedBy?: 'owner' | 'any' }} mistakes
 *   markAt: where a marker goes. `wrist` is the mistake of taking the hand's root joint for where it acts.
 *   markOn: `every-update` also places a marker on each `gestureupdate` of a pinch, the recognizer's
 *   every-evaluation report of a gesture still held, instead of once when it starts.
 *   clearedBy: `any` clears the markers on any hand's open palm, not only the hand that placed them.
 */
export function startMarkers({ markAt = 'pinch-point', markOn = 'start', clearedBy = 'owner' } = {}) {
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();

  const markers = [];
  const geometry = new THREE.SphereGeometry(RADIUS, 12, 8);
  const material = new THREE.MeshStandardMaterial({ color: 0x33aaff });
  let owner = null; // the hand ('left' | 'right') the markers belong to

  const handedness = (hand) => (hand === 'left' ? xb.Handedness.LEFT : xb.Handedness.RIGHT);
  const jointPosition = (name, hand) => xb.user.hands.getJoint(name, handedness(hand))?.getWorldPosition(new THREE.Vector3()) ?? null;

  function mark(hand) {
    if (owner && owner !== hand) return;
    let at;
    if (markAt === 'wrist') at = jointPosition('wrist', hand);
    else {
      const index = jointPosition('index-finger-tip', hand);
      const thumb = jointPosition('thumb-tip', hand);
      at = index && thumb ? index.add(thumb).multiplyScalar(0.5) : null;
    }
    if (!at) return;
    const marker = new THREE.Mesh(geometry, material);
    marker.position.copy(at);
    xb.scene.add(marker);
    markers.push(marker);
    owner = hand;
    xrsim.emit('marker-placed', { hand, count: markers.length });
  }

  function clear(hand) {
    if (markers.length === 0 || (clearedBy === 'owner' && hand !== owner)) return;
    for (const marker of markers) marker.removeFromParent();
    xrsim.emit('markers-cleared', { hand, count: markers.length });
    markers.length = 0;
    owner = null;
  }

  class GestureMarkers extends xb.Script {
    init() {
      const gestures = xb.core.gestureRecognition;
      gestures.addEventListener('gesturestart', (event) => {
        const { name, hand } = event.detail;
        if (name === 'pinch') mark(hand);
        else if (name === 'open-palm') clear(hand);
      });
      if (markOn === 'every-update') {
        gestures.addEventListener('gestureupdate', (event) => {
          if (event.detail.name === 'pinch') mark(event.detail.hand);
        });
      }
      // The newest marker, for the task's validators.
      xrsim.tag('marker', () => (markers.length ? markers[markers.length - 1].getWorldPosition(new THREE.Vector3()).toArray() : null));
    }
  }

  xb.add(new GestureMarkers());
  xb.init(options);
}
