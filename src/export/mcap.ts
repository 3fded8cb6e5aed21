/**
 * `xrsim export --format mcap`: an MCAP file (written with `@mcap/core`, JSON messages with JSON Schemas)
 * that Foxglove opens. Channels, all stamped with simulated time from 0:
 *
 * | topic | schema | when |
 * |---|---|---|
 * | `/tf` | foxglove.FrameTransforms | every frame: `world`→`head`, `head`→`depth_camera` (optical axes), `world`→each body, `world`→`tag:ROLE` for present tags |
 * | `/head` | foxglove.PoseInFrame | every frame |
 * | `/hand/left`, `/hand/right` | foxglove.PosesInFrame (26 OpenXR joints in order) | frames where the hand is tracked |
 * | `/controller/left`, `/controller/right` | xrsim.Controller | frames where it is connected |
 * | `/depth/image` | foxglove.RawImage (16UC1, millimetres) | frames with a depth image |
 * | `/depth/calibration` | foxglove.CameraCalibration | once, with the first image |
 * | `/events` | xrsim.Event | every event record except tag poses (they are in `/tf`) |
 * | `/scene` | foxglove.SceneUpdate | once: the room and the bodies' shapes |
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { McapWriter, type IWritable } from '@mcap/core';
import { EventType } from '../frame/events.js';
import { startsWith, type OutputKind } from '../output-file.js';
import { findChannel, HAND_JOINT_FLOATS, POSE_FLOATS } from '../frame/layout.js';
import type { FrameView } from '../frame/frame.js';
import { quatMultiply, type Pose } from '../geometry/math.js';
import { replayModelFromHeader } from '../stream/header.js';
import type { StreamReader } from '../stream/reader.js';
import { XR_STANDARD_BUTTONS } from '../user/controller.js';
import { colliderNames, eventJson } from './event-json.js';
import { decodeEvents } from '../frame/events.js';
import { MCAP_SCHEMAS } from './mcap-schemas.js';
import { poseMsg, sceneUpdate } from './mcap-scene.js';

/** MCAP's magic, which every MCAP file starts with. */
const MCAP_MAGIC = Buffer.from([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);

/** An MCAP export, as an output that may replace an existing file: MCAP whose header names xrsim as its library (src/output-file.ts). */
export const MCAP_OUTPUT: OutputKind = {
  what: 'an MCAP file written by xrsim',
  isOwn: (head) => startsWith('', MCAP_MAGIC).isOwn(head) && head.subarray(0, 256).includes('xrsim '),
};

/** Appends to a file descriptor, counting bytes. */
class FileWritable implements IWritable {
  private offset = 0n;
  constructor(private readonly fd: number) {}
  async write(buffer: Uint8Array): Promise<void> {
    writeSync(this.fd, buffer);
    this.offset += BigInt(buffer.byteLength);
  }
  position(): bigint {
    return this.offset;
  }
}

/** Messages written per topic. */
export type McapCounts = Record<string, number>;

const poseAt = (v: ArrayLike<number>, o: number): Pose => ({ position: [v[o], v[o + 1], v[o + 2]], rotation: [v[o + 3], v[o + 4], v[o + 5], v[o + 6]] });
const encoder = new TextEncoder();

/** Writes the MCAP file of `reader`'s session to `out`; returns the messages written per topic. */
export async function exportMcap(reader: StreamReader, out: string, progress?: (tick: number) => void): Promise<McapCounts> {
  const model = replayModelFromHeader(reader.header);
  const colliders = colliderNames(model);
  const fd = openSync(out, 'w');
  const writer = new McapWriter({ writable: new FileWritable(fd), useStatistics: true, useChunks: true, useChunkIndex: true, useMessageIndex: true, useSummaryOffsets: true });
  const counts: McapCounts = {};
  try {
    await writer.start({ profile: '', library: `xrsim ${reader.header.generator}` });
    const schemaIds = new Map<string, number>();
    const channels = new Map<string, number>();
    const channel = async (topic: string, schema: string) => {
      if (!schemaIds.has(schema)) schemaIds.set(schema, await writer.registerSchema({ name: schema, encoding: 'jsonschema', data: encoder.encode(JSON.stringify(MCAP_SCHEMAS[schema])) }));
      channels.set(topic, await writer.registerChannel({ schemaId: schemaIds.get(schema)!, topic, messageEncoding: 'json', metadata: new Map() }));
      counts[topic] = 0;
    };
    const depth = findChannel(reader.layout, 'depth')?.camera;
    await channel('/scene', 'foxglove.SceneUpdate');
    await channel('/tf', 'foxglove.FrameTransforms');
    await channel('/head', 'foxglove.PoseInFrame');
    for (const side of ['left', 'right']) {
      if (findChannel(reader.layout, `hand-${side}`)) await channel(`/hand/${side}`, 'foxglove.PosesInFrame');
      if (findChannel(reader.layout, `controller-${side}`)) await channel(`/controller/${side}`, 'xrsim.Controller');
    }
    if (depth) {
      await channel('/depth/image', 'foxglove.RawImage');
      await channel('/depth/calibration', 'foxglove.CameraCalibration');
    }
    await channel('/events', 'xrsim.Event');
    const publish = async (topic: string, time: bigint, message: unknown) => {
      await writer.addMessage({ channelId: channels.get(topic)!, sequence: counts[topic]++, logTime: time, publishTime: time, data: encoder.encode(JSON.stringify(message)) });
    };
    await publish('/scene', 0n, sceneUpdate(model));
    const bodyIds = findChannel(reader.layout, 'bodies')?.ids ?? [];
    const tagRoles = new Map<number, string>();
    // The depth camera's optical frame: ROS/Foxglove cameras look along +Z with +Y down (ours: −Z, +Y up).
    const optical = depth ? { ...poseAt(depth.mount, 0), rotation: quatMultiply(poseAt(depth.mount, 0).rotation, [1, 0, 0, 0]) } : null;
    let calibrated = false;
    for (const frame of reader.framesInOrder()) {
      const ns = BigInt(Math.round(frame.time * 1e9));
      const timestamp = { sec: Math.floor(frame.time), nsec: Number(ns % 1_000_000_000n) };
      const transform = (parent: string, child: string, p: Pose) => ({ timestamp, parent_frame_id: parent, child_frame_id: child, translation: poseMsg(p).position, rotation: poseMsg(p).orientation });
      const head = poseAt(frame.channel('head')!, 0);
      const transforms = [transform('world', 'head', head), ...(optical ? [transform('head', 'depth_camera', optical)] : [])];
      bodyIds.forEach((id, i) => transforms.push(transform('world', id, poseAt(frame.bodyPoses, i * POSE_FLOATS))));
      for (const event of frame.eventWords ? decodeEvents(frame.events, frame.eventWords) : []) {
        const json = eventJson(event, colliders);
        if (event.type === EventType.TagDeclared) tagRoles.set(Number(json.tag), String(json.role));
        if (event.type === EventType.TagPoses) {
          for (const t of json.tags as { tag: number; present: boolean; pose: number[] }[]) if (t.present) transforms.push(transform('world', `tag:${tagRoles.get(t.tag) ?? t.tag}`, poseAt(t.pose, 0)));
          continue;
        }
        const { name, ...data } = json;
        await publish('/events', ns, { timestamp, tick: frame.tick, name, data });
      }
      await publish('/tf', ns, { transforms });
      await publish('/head', ns, { timestamp, frame_id: 'world', pose: poseMsg(head) });
      await publishInputs(frame, ns, timestamp, channels, publish);
      const image = frame.depthImage;
      if (depth && image) {
        const data = Buffer.from(image.buffer, image.byteOffset, image.byteLength).toString('base64');
        await publish('/depth/image', ns, { timestamp, frame_id: 'depth_camera', width: depth.width, height: depth.height, encoding: '16UC1', step: depth.width * 2, data });
        if (!calibrated) {
          calibrated = true;
          const { width, height, fx, fy, cx, cy } = depth;
          await publish('/depth/calibration', ns, { timestamp, frame_id: 'depth_camera', width, height, distortion_model: 'plumb_bob', D: [0, 0, 0, 0, 0], K: [fx, 0, cx, 0, fy, cy, 0, 0, 1], R: [1, 0, 0, 0, 1, 0, 0, 0, 1], P: [fx, 0, cx, 0, 0, fy, cy, 0, 0, 0, 1, 0] });
        }
      }
      if (frame.tick % 900 === 0) progress?.(frame.tick);
    }
    await writer.end();
  } finally {
    closeSync(fd);
  }
  return counts;
}

/** Tracked hands' joints and connected controllers. */
async function publishInputs(frame: FrameView, ns: bigint, timestamp: object, channels: Map<string, number>, publish: (topic: string, time: bigint, message: unknown) => Promise<void>): Promise<void> {
  for (const side of ['left', 'right']) {
    const hand = frame.channel(`hand-${side}`);
    if (hand && channels.has(`/hand/${side}`) && hand[26 * HAND_JOINT_FLOATS] === 1) {
      await publish(`/hand/${side}`, ns, { timestamp, frame_id: 'world', poses: Array.from({ length: 26 }, (_, j) => poseMsg(poseAt(hand, j * HAND_JOINT_FLOATS))) });
    }
    const c = frame.channel(`controller-${side}`);
    if (c && channels.has(`/controller/${side}`) && c[0] === 1) {
      await publish(`/controller/${side}`, ns, {
        timestamp,
        frame_id: 'world',
        grip: poseMsg(poseAt(c, 1)),
        target_ray: poseMsg(poseAt(c, 8)),
        buttons: Object.fromEntries(XR_STANDARD_BUTTONS.map((b, i) => [b, c[15 + i]])),
        axes: [c[21], c[22], c[23], c[24]],
      });
    }
  }
}
