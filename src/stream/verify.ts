/**
 * `verify`: re-run the session a stream's header describes and compare every frame's hash with the stored
 * one, and every recorded depth image with the re-run's. On the first difference, decode the stored frame
 * and name the channel (and entry) that differs.
 */
import { StreamDamageError } from '../errors.js';
import { decodeEvents } from '../frame/events.js';
import type { Frame, FrameView } from '../frame/frame.js';
import { POSE_FLOATS, type ChannelDescriptor } from '../frame/layout.js';
import { Session, type RunHooks } from '../session/session.js';
import { POSITION_QUANTUM, ROTATION_STEPS } from '../../kernels/quantise.js';
import { modelFromHeader } from './header.js';
import { StreamReader } from './reader.js';
import { checkedAgent, recordedAgent, resolveAgent } from '../session/agents.js';
import { AgentDivergenceError, AgentUnavailableError } from '../actors/agent-protocol.js';

/** Where a re-run first differs from the stream. */
export interface Divergence {
  tick: number;
  /** Channel name, `model` when the model itself differs, `agent` when an agent's answer does. */
  channel: string;
  detail: string;
}

/** The outcome of {@link verifyStream}. */
export interface VerifyReport {
  file: string;
  identical: boolean;
  /** Frames in the stream. */
  frames: number;
  /** Frames compared before stopping. */
  compared: number;
  modelHash: { stream: string; rerun: string };
  sessionHash: { stream: string | null; rerun: string | null };
  firstDivergence: Divergence | null;
}

class StopRun extends Error {}

/** Options of {@link verifyStream}. */
export interface VerifyOptions {
  /**
   * Ask this agent again (`reference` or a command line) at each recorded agent decision, and report an answer
   * that differs from the recorded one as a divergence (channel `agent`). Default: the recorded answers are
   * given back, and the agent is not asked.
   */
  agent?: string;
  /** Where an agent command's requests go (default: next to the stream, FILE.agent/). */
  agentDir?: string;
}

/**
 * Re-runs the stream's session from its header and compares frame hashes. `hooks.beforeStep` can perturb the
 * re-run (tests use it to prove divergence is caught). Throws `XrsimInputError` for a foreign or truncated
 * file and `StreamDamageError` if a chunk needed for the comparison is damaged.
 */
export async function verifyStream(path: string, hooks: Pick<RunHooks, 'beforeStep'> = {}, options: VerifyOptions = {}): Promise<VerifyReport> {
  const reader = StreamReader.open(path);
  try {
    // A damaged footer loses the recorded session hash: what would be compared is no longer all there.
    if (reader.indexSource === 'scan (footer damaged)') throw new StreamDamageError('the footer is damaged (its CRC32 or layout does not hold); `xrsim inspect` shows the chunks still readable', path, -1);
    const { header } = reader;
    const model = modelFromHeader(header);
    const report: VerifyReport = {
      file: path,
      identical: false,
      frames: reader.frames,
      compared: 0,
      modelHash: { stream: header.modelHash, rerun: model.hash },
      sessionHash: { stream: reader.sessionHash, rerun: null },
      firstDivergence: null,
    };
    if (model.hash !== header.modelHash) {
      report.firstDivergence = {
        tick: 0,
        channel: 'model',
        detail: `the rebuilt model hash ${model.hash.slice(0, 16)}… differs from the stream's ${header.modelHash.slice(0, 16)}…: the stream was written by kernel version ${header.kernelVersion}, or its sources were edited`,
      };
      return report;
    }
    const perturbationSeed = (header.spec as { perturbationSeed?: number }).perturbationSeed;
    const recorded = recordedAgent(reader);
    const agent = options.agent ? checkedAgent(resolveAgent(options.agent, { dir: options.agentDir ?? `${path.replace(/\.xrs$/, '')}.agent` }), recorded) : recorded;
    const session = await Session.create(model, { seed: header.seed, perturbationSeed, dominantHand: header.dominantHand, agent });
    const hasDepth = header.channels.some((c) => c.kind === 'depth');
    const onFrame = (frame: FrameView, running: Session) => {
      if (frame.tick >= reader.frames) {
        report.firstDivergence = { tick: frame.tick, channel: 'time', detail: `the re-run has more frames than the stream's ${reader.frames}` };
        throw new StopRun();
      }
      const [hi, lo] = reader.hashAt(frame.tick);
      const live = running.state.frameHash;
      report.compared++;
      if (hi !== live[0] || lo !== live[1]) {
        report.firstDivergence = describeDifference(reader.frameAt(frame.tick), frame, header.channels, header.encoding.mode === 'quantised');
        throw new StopRun();
      }
      // A frame's hash covers what fixes its depth image, not the pixels (frame/hash.ts): compare them.
      const stored = hasDepth ? reader.frameAt(frame.tick).depthImage : null;
      const found = stored ? depthDifference(stored, frame.depthImage) : null;
      if (found) {
        report.firstDivergence = { tick: frame.tick, channel: 'depth', detail: found };
        throw new StopRun();
      }
    };
    try {
      const result = await session.run({ ...hooks, onFrame });
      report.sessionHash.rerun = result.hash;
    } catch (err) {
      session.dispose();
      // The re-run asked for an agent decision the recording does not hold, or the agent answered otherwise.
      if (err instanceof AgentUnavailableError) {
        report.firstDivergence = { tick: err instanceof AgentDivergenceError ? err.tick : session.tick, channel: 'agent', detail: err.message };
        return report;
      }
      if (!(err instanceof StopRun)) throw err;
      return report;
    }
    if (report.compared < reader.frames) {
      report.firstDivergence = { tick: report.compared, channel: 'time', detail: `the re-run ended after ${report.compared} frames; the stream has ${reader.frames}` };
    } else {
      report.identical = true;
    }
    return report;
  } finally {
    reader.close();
  }
}

/** Names the first channel (and entry and component) in which two frames differ. */
function describeDifference(stored: Frame, live: FrameView, channels: readonly ChannelDescriptor[], quantised: boolean): Divergence {
  const tick = live.tick;
  for (const channel of channels) {
    if (channel.kind === 'time') {
      if (stored.tick !== live.tick || stored.time !== live.time) {
        return { tick, channel: 'time', detail: `stored tick ${stored.tick} at ${stored.time} s, re-run tick ${live.tick} at ${live.time} s` };
      }
    } else if (channel.kind === 'poses' && channel.name === 'bodies') {
      const found = firstPoseDifference(stored.bodyPoses, live.bodyPoses, channel.ids ?? [], quantised);
      if (found) return { tick, channel: channel.name, detail: found };
    } else if (channel.offset !== undefined && channel.bytes !== undefined) {
      // Hands, head, controllers, contacts: name the channel and the first differing float.
      const a = stored.channel(channel.name);
      const b = live.channel(channel.name);
      const at = a && b ? a.findIndex((v, k) => (quantised ? Math.abs(v - b[k]) > POSITION_QUANTUM : !Object.is(v, b[k]))) : -1;
      if (at >= 0) return { tick, channel: channel.name, detail: `float ${at}: stored ${a![at]}, re-run ${b![at]}` };
    } else if (channel.kind === 'depth') {
      const found = depthDifference(stored.depthImage, live.depthImage);
      if (found) return { tick, channel: 'depth', detail: found };
    } else if (channel.kind === 'events') {
      const a = decodeEvents(stored.events, stored.eventWords);
      const b = decodeEvents(live.events, live.eventWords);
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        return { tick, channel: 'events', detail: `stored ${a.length} event(s) ${summarise(a)}, re-run ${b.length} event(s) ${summarise(b)}` };
      }
    }
  }
  return {
    tick,
    channel: quantised ? 'unknown' : 'frame',
    detail: quantised
      ? 'the frame hashes differ by less than the quantisation step; record losslessly to locate the channel'
      : 'the frame hashes differ but no channel does: the stream may have been written by a different kernel',
  };
}

const COMPONENTS = ['position.x', 'position.y', 'position.z', 'rotation.x', 'rotation.y', 'rotation.z', 'rotation.w'];

function firstPoseDifference(stored: Float32Array, live: Float32Array, ids: readonly string[], quantised: boolean): string | null {
  for (let i = 0; i < stored.length; i++) {
    const component = i % POSE_FLOATS;
    // A quantised stream holds values rounded to the quantum; within it, the values agree.
    const differs = quantised
      ? Math.abs(stored[i] - live[i]) > (component < 3 ? POSITION_QUANTUM : 1 / ROTATION_STEPS)
      : stored[i] !== live[i];
    if (differs) {
      const entry = ids[Math.floor(i / POSE_FLOATS)] ?? `#${Math.floor(i / POSE_FLOATS)}`;
      return `${entry} ${COMPONENTS[component]}: stored ${stored[i]}, re-run ${live[i]}`;
    }
  }
  return null;
}

function depthDifference(stored: Uint16Array | null, live: Uint16Array | null): string | null {
  if ((stored === null) !== (live === null)) return `stored ${stored ? 'has' : 'has no'} depth image, re-run ${live ? 'has' : 'has no'}`;
  if (!stored || !live) return null;
  for (let i = 0; i < stored.length; i++) {
    if (stored[i] !== live[i]) return `pixel ${i}: stored ${stored[i]} mm, re-run ${live[i]} mm`;
  }
  return null;
}

function summarise(events: ReturnType<typeof decodeEvents>): string {
  return `[${events.slice(0, 4).map((e) => `${e.name}(${e.payload.join(',')})`).join(' ')}${events.length > 4 ? ' …' : ''}]`;
}
