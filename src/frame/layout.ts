/**
 * The frame layout: which channels a frame holds and where. It is derived from the model and written into
 * every stream header as the channel table, so readers need nothing else to decode a stream.
 *
 * A frame is a fixed section of 32-bit words (every fixed-size channel at a fixed byte offset) followed by
 * the variable-length `events` channel. Later subsystems (head, hands, controllers, sensors, app state) add
 * channels here; readers skip channels they do not know.
 */
import { pinholeCamera, type RasterCamera } from '../../kernels/depth-raster.js';
import { JOINT_COUNT } from '../../kernels/hand-fk.js';
import { POSE_FLOATS } from '../../kernels/pose-compose.js';
import type { SimModel } from '../model/types.js';

/** Floats per pose: position xyz, then quaternion xyzw (owned by `kernels/pose-compose.ts`). */
export { POSE_FLOATS, POSE_ROTATION } from '../../kernels/pose-compose.js';
/** Bytes of the time channel: u32 tick, u32 reserved (0), f64 seconds. */
export const TIME_CHANNEL_BYTES = 16;
/** Floats per hand joint: position xyz, quaternion xyzw, radius. */
export const HAND_JOINT_FLOATS = 8;
/** Where a hand joint's radius is, after its pose. */
export const HAND_JOINT_RADIUS = POSE_FLOATS;
/** Where a hand channel's tracked flag (1 or 0) is, after its joints. */
export const HAND_TRACKED = JOINT_COUNT * HAND_JOINT_FLOATS;
/** Floats per hand channel: 26 joints, then the tracked flag (1 or 0). */
export const HAND_CHANNEL_FLOATS = HAND_TRACKED + 1;
/** Offsets in a controller channel: connected flag, grip pose, target-ray pose, 6 button values, 4 axes. */
export const CONTROLLER = {
  connected: 0,
  grip: 1,
  targetRay: 1 + POSE_FLOATS,
  buttons: 1 + 2 * POSE_FLOATS,
  axes: 1 + 2 * POSE_FLOATS + 6,
  buttonCount: 6,
  axisCount: 4,
} as const;
/** Floats per controller: connected flag, grip pose, target-ray pose, 6 button values, 4 axes. */
export const CONTROLLER_CHANNEL_FLOATS = CONTROLLER.axes + CONTROLLER.axisCount;
/** Offsets in a contact probe: signed distance (negative = penetration), normal xyz, surface (static index, −1 none). */
export const CONTACT_PROBE = { distance: 0, normal: 1, surface: 4 } as const;
/** Floats per contact probe: distance, normal xyz, surface. */
export const CONTACT_PROBE_FLOATS = 5;
/** Probes per hand: thumb, index, middle, ring and little tips, then the palm. */
export const CONTACT_PROBES_PER_HAND = 6;

/** Whether a hand channel says its hand is tracked this frame. */
export function handTracked<T extends ArrayLike<number>>(channel: T | undefined): channel is T {
  return channel !== undefined && channel[HAND_TRACKED] === 1;
}

/** One entry of the channel table. */
export interface ChannelDescriptor {
  /** Stable channel name (`time`, `bodies`, `events`). */
  name: string;
  /** How to read it. */
  kind: 'time' | 'poses' | 'hand' | 'controller' | 'contacts' | 'events' | 'depth';
  /** Byte offset in the fixed section; absent for variable-length channels. */
  offset?: number;
  /** Bytes in the fixed section; absent for variable-length channels. */
  bytes?: number;
  /** For `poses`: the entries, as `origin:id` (for example `task:ball`); for `contacts`, the probes. */
  ids?: string[];
  /** For `contacts`: the static surfaces a probe's surface index refers to, as `origin:id:label`. */
  surfaces?: string[];
  /** For `depth`: the camera that took the images. */
  camera?: DepthCameraDescriptor;
  /** A human description of the layout. */
  layout: string;
}

/**
 * The depth camera behind a `depth` channel: everything needed to turn a pixel into a point. Size and
 * pinhole intrinsics are the rasterizer camera's (pixels; pixel (col, row) has its centre at col + 0.5,
 * row + 0.5).
 */
export interface DepthCameraDescriptor extends Pick<RasterCamera, 'width' | 'height' | 'fx' | 'fy' | 'cx' | 'cy'> {
  /** Metres per raw unit (0.001: millimetres). */
  rawValueToMeters: number;
  /** Pose relative to the head (eye centre): position xyz, quaternion xyzw. */
  mount: number[];
  rateHz: number;
  noise: string;
  minRange: number;
  maxRange: number;
}

/** The channel table and the fixed section's size. */
export interface FrameLayout {
  channels: ChannelDescriptor[];
  /** Bytes of the fixed section (a multiple of 8). */
  fixedBytes: number;
}

/** Qualified id of a model object as used in channel tables: `scene:football`, `task:ball`. */
export function qualifiedId(origin: string, id: string): string {
  return `${origin}:${id}`;
}

/**
 * Layouts already derived, by model. A layout is read-only, like its model, and shared by the model's
 * sessions. (It is not frozen here: this module also runs in the viewer's page, which is served only
 * `frame/` and `kernels/`.)
 */
const layouts = new WeakMap<SimModel, FrameLayout>();

/** The frame layout of a model (the same object for every call with that model: do not change it). */
export function frameLayoutFor(model: SimModel): FrameLayout {
  let layout = layouts.get(model);
  if (!layout) layouts.set(model, (layout = deriveLayout(model)));
  return layout;
}

function deriveLayout(model: SimModel): FrameLayout {
  const channels: ChannelDescriptor[] = [];
  let offset = 0;
  const add = (channel: Omit<ChannelDescriptor, 'offset'>) => {
    channels.push({ ...channel, offset });
    offset += channel.bytes ?? 0;
  };
  add({ name: 'time', kind: 'time', bytes: TIME_CHANNEL_BYTES, layout: 'u32 tick, u32 reserved, f64 seconds' });
  add({
    name: 'bodies',
    kind: 'poses',
    bytes: model.bodies.length * POSE_FLOATS * 4,
    ids: model.bodies.map((b) => qualifiedId(b.origin, b.id)),
    layout: 'per body: f32 position x,y,z, f32 quaternion x,y,z,w (world frame)',
  });
  add({ name: 'head', kind: 'poses', bytes: POSE_FLOATS * 4, ids: ['head'], layout: 'f32 eye-centre position x,y,z, f32 quaternion x,y,z,w (−Z forward)' });
  if (model.user.inputs.hands) {
    for (const side of ['left', 'right']) {
      add({
        name: `hand-${side}`,
        kind: 'hand',
        bytes: HAND_CHANNEL_FLOATS * 4,
        layout: 'per OpenXR joint (26): f32 position x,y,z, quaternion x,y,z,w, radius; then f32 tracked (1 or 0)',
      });
    }
    add({
      name: 'contacts',
      kind: 'contacts',
      bytes: 2 * CONTACT_PROBES_PER_HAND * CONTACT_PROBE_FLOATS * 4,
      ids: ['left', 'right'].flatMap((side) => ['thumb-tip', 'index-tip', 'middle-tip', 'ring-tip', 'little-tip', 'palm'].map((p) => `${side}:${p}`)),
      surfaces: model.statics.map((s) => `${s.origin}:${s.id}:${s.label}`),
      layout: 'per probe: f32 signed distance skin-to-surface (negative = penetration), normal x,y,z, static index (-1 none)',
    });
  }
  if (model.user.inputs.controllers) {
    for (const side of ['left', 'right']) {
      add({
        name: `controller-${side}`,
        kind: 'controller',
        bytes: CONTROLLER_CHANNEL_FLOATS * 4,
        layout: 'f32 connected; grip position, quaternion; target-ray position, quaternion; 6 xr-standard buttons; 4 axes',
      });
    }
  }
  const depth = model.sensing.depth;
  if (depth?.record) {
    const { fx, fy, cx, cy } = pinholeCamera(depth.width, depth.height, depth.horizontalFov, 0, 0);
    channels.push({
      name: 'depth',
      kind: 'depth',
      camera: {
        width: depth.width,
        height: depth.height,
        fx,
        fy,
        cx,
        cy,
        rawValueToMeters: 0.001,
        mount: [...depth.mount.position, ...depth.mount.rotation],
        rateHz: depth.rateHz,
        noise: depth.noisePreset,
        minRange: depth.noise.minRange,
        maxRange: depth.noise.maxRange,
      },
      layout: 'in frames that carry a depth image: u16 millimetres per pixel, row-major from the top left, 0 = no reading (z-depth from the camera plane)',
    });
  }
  add({ name: 'events', kind: 'events', layout: 'u32 records: header (type << 16 | payload words), then payload' });
  return { channels, fixedBytes: offset + (offset % 8 === 0 ? 0 : 4) };
}

/** How each word of the fixed section is quantised in a quantised stream. */
export const QuantClass = { Raw: 0, Position: 1, Rotation: 2 } as const;

/** The quantisation class of every word of a layout's fixed section. */
export function quantisationClasses(layout: FrameLayout): Uint8Array {
  const classes = new Uint8Array(layout.fixedBytes / 4);
  const { Position: P, Rotation: R, Raw: _ } = QuantClass;
  const pose = [P, P, P, R, R, R, R];
  for (const c of layout.channels) {
    if (c.offset === undefined || c.bytes === undefined) continue;
    const first = c.offset / 4;
    const words = c.bytes / 4;
    let pattern: number[] | null = null;
    if (c.kind === 'poses') pattern = pose;
    else if (c.kind === 'hand') pattern = [...pose, P];
    if (pattern) {
      const repeats = c.kind === 'hand' ? JOINT_COUNT : words / pattern.length;
      for (let i = 0; i < repeats * pattern.length; i++) classes[first + i] = pattern[i % pattern.length];
    } else if (c.kind === 'controller') {
      classes.set([_, ...pose, ...pose], first);
    }
  }
  return classes;
}

/** Finds a channel by name, or undefined. */
export function findChannel(layout: FrameLayout, name: string): ChannelDescriptor | undefined {
  return layout.channels.find((c) => c.name === name);
}
