/**
 * The frame layout: which channels a frame holds and where. It is derived from the model and written into
 * every stream header as the channel table, so readers need nothing else to decode a stream.
 *
 * A frame is a fixed section of 32-bit words (every fixed-size channel at a fixed byte offset) followed by
 * the variable-length `events` channel. Later subsystems (head, hands, controllers, sensors, app state) add
 * channels here; readers skip channels they do not know.
 */
import type { SimModel } from '../model/types.js';

/** Floats per pose: position xyz, then quaternion xyzw. */
export const POSE_FLOATS = 7;
/** Bytes of the time channel: u32 tick, u32 reserved (0), f64 seconds. */
export const TIME_CHANNEL_BYTES = 16;

/** One entry of the channel table. */
export interface ChannelDescriptor {
  /** Stable channel name (`time`, `bodies`, `events`). */
  name: string;
  /** How to read it. */
  kind: 'time' | 'poses' | 'events';
  /** Byte offset in the fixed section; absent for variable-length channels. */
  offset?: number;
  /** Bytes in the fixed section; absent for variable-length channels. */
  bytes?: number;
  /** For `poses`: the entries, as `origin:id` (for example `task:ball`). */
  ids?: string[];
  /** A human description of the layout. */
  layout: string;
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

/** The frame layout of a model. */
export function frameLayoutFor(model: SimModel): FrameLayout {
  const bodyBytes = model.bodies.length * POSE_FLOATS * 4;
  const channels: ChannelDescriptor[] = [
    { name: 'time', kind: 'time', offset: 0, bytes: TIME_CHANNEL_BYTES, layout: 'u32 tick, u32 reserved, f64 seconds' },
    {
      name: 'bodies',
      kind: 'poses',
      offset: TIME_CHANNEL_BYTES,
      bytes: bodyBytes,
      ids: model.bodies.map((b) => qualifiedId(b.origin, b.id)),
      layout: 'per body: f32 position x,y,z, f32 quaternion x,y,z,w (world frame)',
    },
    { name: 'events', kind: 'events', layout: 'u32 records: header (type << 16 | payload words), then payload' },
  ];
  const fixedBytes = TIME_CHANNEL_BYTES + bodyBytes + ((bodyBytes % 8) === 0 ? 0 : 4);
  return { channels, fixedBytes };
}

/** Finds a channel by name, or undefined. */
export function findChannel(layout: FrameLayout, name: string): ChannelDescriptor | undefined {
  return layout.channels.find((c) => c.name === name);
}
