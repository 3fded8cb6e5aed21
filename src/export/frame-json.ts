/**
 * A frame as one plain JSON object with named fields, for scripts (`xrsim export --format jsonl`): head,
 * hands (OpenXR joint names), contact probes, controllers, bodies by id, events and, on request, the depth
 * image. Floats are written with the fewest digits that read back as the same float32.
 */
import { decodeEvents } from '../frame/events.js';
import type { FrameView } from '../frame/frame.js';
import { CONTACT_PROBE_FLOATS, HAND_JOINT_FLOATS, POSE_FLOATS, type ChannelDescriptor, type FrameLayout } from '../frame/layout.js';
import { OPENXR_JOINTS } from '../hand/joints.js';
import { XR_STANDARD_BUTTONS } from '../user/controller.js';
import { eventJson, type EventJson } from './event-json.js';

/** The shortest decimal that reads back as the same float32. */
export function f32(value: number): number {
  if (!Number.isFinite(value)) return value;
  for (let digits = 6; digits < 9; digits++) {
    const short = Number(value.toPrecision(digits));
    if (Math.fround(short) === value) return short;
  }
  return Number(value.toPrecision(9));
}

/** A pose as `{ position, orientation }` from seven floats at `o`. */
export function poseJson(v: ArrayLike<number>, o: number): { position: number[]; orientation: number[] } {
  return { position: [f32(v[o]), f32(v[o + 1]), f32(v[o + 2])], orientation: [f32(v[o + 3]), f32(v[o + 4]), f32(v[o + 5]), f32(v[o + 6])] };
}

/** Options of {@link FrameJsonWriter}. */
export interface FrameJsonOptions {
  /** Include depth images as base64 of little-endian u16 millimetres (large); default: only whether there is one. */
  depthImages?: boolean;
}

/** Turns the frames of one stream into JSON objects. */
export class FrameJsonWriter {
  private readonly bodyIds: string[];
  private readonly probes: ChannelDescriptor | undefined;

  constructor(
    private readonly layout: FrameLayout,
    private readonly colliders: readonly string[],
    private readonly options: FrameJsonOptions = {},
  ) {
    this.bodyIds = layout.channels.find((c) => c.name === 'bodies')?.ids ?? [];
    this.probes = layout.channels.find((c) => c.kind === 'contacts');
  }

  /** The JSON object of `frame`. */
  frame(frame: FrameView): Record<string, unknown> {
    const out: Record<string, unknown> = { tick: frame.tick, time: frame.time };
    const head = frame.channel('head');
    if (head) out.head = poseJson(head, 0);
    const hands: Record<string, unknown> = {};
    for (const side of ['left', 'right']) {
      const c = frame.channel(`hand-${side}`);
      if (!c) continue;
      const tracked = c[26 * HAND_JOINT_FLOATS] === 1;
      const joints: Record<string, unknown> = {};
      if (tracked) OPENXR_JOINTS.forEach((name, j) => (joints[name] = { ...poseJson(c, j * HAND_JOINT_FLOATS), radius: f32(c[j * HAND_JOINT_FLOATS + 7]) }));
      hands[side] = tracked ? { tracked, joints } : { tracked };
    }
    if (Object.keys(hands).length) out.hands = hands;
    const contacts = this.probes && frame.channel('contacts');
    if (contacts && this.probes) {
      const probes: Record<string, unknown> = {};
      this.probes.ids!.forEach((id, k) => {
        const o = k * CONTACT_PROBE_FLOATS;
        const surface = contacts[o + 4];
        probes[id] = { distance: f32(contacts[o]), normal: [f32(contacts[o + 1]), f32(contacts[o + 2]), f32(contacts[o + 3])], surface: surface >= 0 ? (this.probes!.surfaces?.[surface] ?? surface) : null };
      });
      out.contacts = probes;
    }
    const controllers: Record<string, unknown> = {};
    for (const side of ['left', 'right']) {
      const c = frame.channel(`controller-${side}`);
      if (!c) continue;
      controllers[side] =
        c[0] === 1
          ? {
              connected: true,
              grip: poseJson(c, 1),
              targetRay: poseJson(c, 8),
              buttons: Object.fromEntries(XR_STANDARD_BUTTONS.map((b, i) => [b, f32(c[15 + i])])),
              axes: [c[21], c[22], c[23], c[24]].map(f32),
            }
          : { connected: false };
    }
    if (Object.keys(controllers).length) out.controllers = controllers;
    out.bodies = Object.fromEntries(this.bodyIds.map((id, i) => [id, poseJson(frame.bodyPoses, i * POSE_FLOATS)]));
    out.events = this.events(frame);
    const image = frame.depthImage;
    if (this.layout.channels.some((c) => c.kind === 'depth')) {
      out.depth = image === null ? null : this.options.depthImages ? Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('base64') : true;
    }
    return out;
  }

  /** The frame's events as JSON. */
  events(frame: FrameView): EventJson[] {
    return frame.eventWords === 0 ? [] : decodeEvents(frame.events, frame.eventWords).map((e) => eventJson(e, this.colliders));
  }
}
