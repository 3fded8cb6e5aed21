/**
 * Writing the user's state into a frame: `head`, `hand-left`, `hand-right`, `contacts`, `controller-*`.
 * Tracking noise (perturbation mode) is added here: it changes what the headset reports, not where the
 * hand is, so physics and contact still see the true hand.
 */
import { JOINT_COUNT } from '../../kernels/hand-fk.js';
import type { Frame } from '../frame/frame.js';
import { CONTACT_PROBE_FLOATS, CONTACT_PROBES_PER_HAND, HAND_JOINT_FLOATS } from '../frame/layout.js';
import type { RandomStream } from '../random.js';
import type { Controller } from './controller.js';
import type { Hand } from './hand.js';
import { gaussian } from './perturbation.js';
import type { SimUser } from './user.js';

/**
 * Writes every user channel the frame has. A hand whose update changed nothing keeps last tick's values:
 * the frame's buffer is reused from tick to tick, so they are already there. `all` forces every write.
 */
export function writeUserChannels(user: SimUser, frame: Frame, noise: RandomStream | null, all = false): void {
  const head = frame.channel('head');
  if (head && (all || user.head.changed)) user.head.writePose(head);
  if (user.hands) {
    const contacts = frame.channel('contacts')!;
    const sigma = user.config.perturbation?.trackingNoise ?? 0;
    const { left, right } = user.hands;
    if (all || left.changed) {
      writeHand(left, frame.channel('hand-left')!, sigma, noise);
      writeContacts(left, contacts, 0);
    }
    if (all || right.changed) {
      writeHand(right, frame.channel('hand-right')!, sigma, noise);
      writeContacts(right, contacts, CONTACT_PROBES_PER_HAND * CONTACT_PROBE_FLOATS);
    }
  }
  const left = frame.channel('controller-left');
  if (left) writeController(user.controllers.left, left);
  const right = frame.channel('controller-right');
  if (right) writeController(user.controllers.right, right);
}

function writeHand(hand: Hand, out: Float32Array, sigma: number, noise: RandomStream | null): void {
  const radius = hand.model.skeleton.radius;
  for (let j = 0; j < JOINT_COUNT; j++) {
    const o = j * HAND_JOINT_FLOATS;
    for (let k = 0; k < 3; k++) out[o + k] = hand.positions[j * 3 + k] + (noise && sigma > 0 ? sigma * gaussian(noise) : 0);
    out[o + 3] = hand.orientations[j * 4];
    out[o + 4] = hand.orientations[j * 4 + 1];
    out[o + 5] = hand.orientations[j * 4 + 2];
    out[o + 6] = hand.orientations[j * 4 + 3];
    out[o + 7] = radius[j];
  }
  out[JOINT_COUNT * HAND_JOINT_FLOATS] = hand.tracked ? 1 : 0;
}

function writeContacts(hand: Hand, out: Float32Array, o: number): void {
  for (let k = 0; k < CONTACT_PROBES_PER_HAND; k++) {
    const p = o + k * CONTACT_PROBE_FLOATS;
    out[p] = hand.contactDistance[k];
    out[p + 1] = hand.contactNormal[k * 3];
    out[p + 2] = hand.contactNormal[k * 3 + 1];
    out[p + 3] = hand.contactNormal[k * 3 + 2];
    out[p + 4] = hand.contactSurface[k];
  }
}

function writeController(c: Controller, out: Float32Array): void {
  out[0] = c.connected ? 1 : 0;
  out.set(c.grip, 1);
  out.set(c.targetRay, 8);
  out.set(c.buttons, 15);
  out.set(c.axes, 21);
}
