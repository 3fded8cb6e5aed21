/**
 * Writing the user's state into a frame: `head`, `hand-left`, `hand-right`, `contacts`, `controller-*`.
 * Tracking noise (perturbation mode) is added here: it changes what the headset reports, not where the
 * hand is, so physics and contact still see the true hand.
 */
import { JOINT_COUNT } from '../../kernels/hand-fk.js';
import type { Frame } from '../frame/frame.js';
import { CONTACT_PROBE, CONTACT_PROBE_FLOATS, CONTACT_PROBES_PER_HAND, CONTROLLER, HAND_JOINT_FLOATS, HAND_JOINT_RADIUS, HAND_TRACKED, POSE_ROTATION } from '../frame/layout.js';
import type { Controller } from './controller.js';
import type { Hand } from './hand.js';
import type { TrackingNoise } from './perturbation.js';
import type { SimUser } from './user.js';

/**
 * Writes every user channel the frame has. A hand whose update changed nothing keeps last tick's values:
 * the frame's buffer is reused from tick to tick, so they are already there. `all` forces every write.
 */
export function writeUserChannels(user: SimUser, frame: Frame, tick: number, noise: TrackingNoise | null, all = false): void {
  const head = frame.channel('head');
  if (head && (all || user.head.changed)) user.head.writePose(head);
  if (user.hands) {
    const contacts = frame.channel('contacts')!;
    const { left, right } = user.hands;
    if (all || left.changed) {
      writeHand(left, frame.channel('hand-left')!, noise?.at(tick, 0) ?? null);
      writeContacts(left, contacts, 0);
    }
    if (all || right.changed) {
      writeHand(right, frame.channel('hand-right')!, noise?.at(tick, 1) ?? null);
      writeContacts(right, contacts, CONTACT_PROBES_PER_HAND * CONTACT_PROBE_FLOATS);
    }
  }
  const left = frame.channel('controller-left');
  if (left) writeController(user.controllers.left, left);
  const right = frame.channel('controller-right');
  if (right) writeController(user.controllers.right, right);
}

function writeHand(hand: Hand, out: Float32Array, noise: Float64Array | null): void {
  const radius = hand.model.skeleton.radius;
  for (let j = 0; j < JOINT_COUNT; j++) {
    const o = j * HAND_JOINT_FLOATS;
    for (let k = 0; k < 3; k++) out[o + k] = noise ? hand.positions[j * 3 + k] + noise[j * 3 + k] : hand.positions[j * 3 + k];
    out[o + POSE_ROTATION] = hand.orientations[j * 4];
    out[o + POSE_ROTATION + 1] = hand.orientations[j * 4 + 1];
    out[o + POSE_ROTATION + 2] = hand.orientations[j * 4 + 2];
    out[o + POSE_ROTATION + 3] = hand.orientations[j * 4 + 3];
    out[o + HAND_JOINT_RADIUS] = radius[j];
  }
  out[HAND_TRACKED] = hand.tracked ? 1 : 0;
}

function writeContacts(hand: Hand, out: Float32Array, o: number): void {
  for (let k = 0; k < CONTACT_PROBES_PER_HAND; k++) {
    const p = o + k * CONTACT_PROBE_FLOATS;
    out[p + CONTACT_PROBE.distance] = hand.contactDistance[k];
    for (let axis = 0; axis < 3; axis++) out[p + CONTACT_PROBE.normal + axis] = hand.contactNormal[k * 3 + axis];
    out[p + CONTACT_PROBE.surface] = hand.contactSurface[k];
  }
}

function writeController(c: Controller, out: Float32Array): void {
  out[CONTROLLER.connected] = c.connected ? 1 : 0;
  out.set(c.grip, CONTROLLER.grip);
  out.set(c.targetRay, CONTROLLER.targetRay);
  out.set(c.buttons, CONTROLLER.buttons);
  out.set(c.axes, CONTROLLER.axes);
}
