/**
 * The page's sources as voices the host records (`TickOutput.audio`): at the end of each tick, a source
 * that began by then starts a voice (numbered in the order the sources began), a voice whose place or
 * gain changed is updated, and one that ended is stopped.
 *
 * Where a voice is: the source is followed through the connections it made to the destination (the first
 * path, in the order connected). The first PannerNode on it places the sound; none means it is not
 * spatialised (null: heard at the listener). The position recorded is where the user hears it: the
 * panner's position relative to the context's AudioListener (position, forward, up), put at the same place
 * relative to the user's head (the tick's viewer pose). For a page whose listener follows its camera, as
 * three.js's `AudioListener` does, that is the panner's scene position in world coordinates; a page that
 * never moves its listener is heard as if the listener were the head. The gain is the product of the
 * GainNodes on the path (0 when the source reaches no destination).
 *
 * A sound's name: the `name` of the three.js `Audio`/`PositionalAudio` playing it, else `oscillator:<type>`,
 * `buffer:<8 hex digits of its samples>`, or the node's kind.
 */
import { quatFromMatrixAxes } from '../../geometry/math.js';
import type { AudioRecord } from '../protocol.js';
import { composePose, IDENTITY_POSE, invertPose, type Pose } from './math.js';
import type { SourceState, WebAudioObserver } from './web-audio.js';

type Win = Window & typeof globalThis;
type Position = [number, number, number] | null;

/** A voice as last reported (voice 0: a source that never played, its stop before its start). */
interface Reported {
  voice: number;
  position: Position;
  gain: number;
  stopped: boolean;
}

/** A voice moves (an update is sent) when its place changes by more than this, metres. */
const MOVE_EPSILON = 0.001;
const GAIN_EPSILON = 1e-6;
/** Samples of a buffer that name it. */
const NAMING_SAMPLES = 4096;

export class AudioVoices {
  private readonly reported = new WeakMap<SourceState, Reported>();
  private readonly bufferNames = new WeakMap<AudioBuffer, string>();
  private nextVoice = 1;

  constructor(
    private readonly audio: WebAudioObserver,
    private readonly win: Win,
    /** The user's head in the world this tick (null before the first tick). */
    private readonly head: () => Pose | null,
    /** The name the page gave the object playing a source (a three.js Audio's `name`), or null. */
    private readonly nameOf: (source: AudioNode) => string | null,
  ) {}

  /** What the voices did this tick, in voice order; null when nothing. */
  collect(): AudioRecord[] | null {
    const sources = this.audio.sources;
    if (sources.length === 0) return null;
    const records: AudioRecord[] = [];
    for (const source of sources) {
      let reported = this.reported.get(source);
      const ended = this.audio.hasEnded(source);
      if (!reported) {
        if (!this.audio.hasStarted(source)) continue;
        const silent = this.audio.endTime(source) <= source.startAt;
        const { position, gain } = silent ? { position: null, gain: 0 } : this.place(source);
        reported = { voice: silent ? 0 : this.nextVoice++, position, gain, stopped: silent };
        this.reported.set(source, reported);
        if (silent) continue;
        const node = source.node as AudioBufferSourceNode;
        records.push({ type: 'start', voice: reported.voice, sound: this.soundName(node), position, gain, loop: node.loop === true });
      } else if (!reported.stopped && !ended) {
        const { position, gain } = this.place(source);
        const moved = !samePlace(position, reported.position);
        const louder = Math.abs(gain - reported.gain) > GAIN_EPSILON;
        if (moved || louder) {
          records.push({ type: 'update', voice: reported.voice, ...(moved ? { position } : {}), ...(louder ? { gain } : {}) });
          if (moved) reported.position = position;
          if (louder) reported.gain = gain;
        }
      }
      if (ended && !reported.stopped) {
        records.push({ type: 'stop', voice: reported.voice });
        reported.stopped = true;
      }
    }
    // Done with: stopped and told so (`ended` dispatched).
    let kept = 0;
    for (const source of sources) if (!(this.reported.get(source)?.stopped && source.ended)) sources[kept++] = source;
    sources.length = kept;
    return records.length > 0 ? records : null;
  }

  /** Where a source is heard and how loud, from the path it takes to the destination. */
  private place(source: SourceState): { position: Position; gain: number } {
    const path = this.pathToDestination(source.node);
    if (!path) return { position: null, gain: 0 };
    let gain = 1;
    let panner: PannerNode | null = null;
    for (const node of path) {
      if (node instanceof this.win.GainNode) gain *= this.audio.paramValue(node.gain);
      else if (!panner && node instanceof this.win.PannerNode) panner = node;
    }
    return { position: panner ? this.heardAt(panner, source.context.listener) : null, gain };
  }

  /** The first path from `node` to a destination, through the connections in the order made; null if none. */
  private pathToDestination(node: AudioNode): AudioNode[] | null {
    const visited = new Set<AudioNode>();
    const path: AudioNode[] = [];
    const walk = (n: AudioNode): boolean => {
      if (n instanceof this.win.AudioDestinationNode) return true;
      if (visited.has(n)) return false;
      visited.add(n);
      path.push(n);
      for (const next of this.audio.outputs(n)) if (walk(next)) return true;
      path.pop();
      return false;
    };
    return walk(node) ? path : null;
  }

  /** A panner's position relative to the listener, placed relative to the user's head: world coordinates. */
  private heardAt(panner: PannerNode, listener: AudioListener): [number, number, number] {
    const v = (param: AudioParam) => this.audio.paramValue(param);
    const forward = unit([v(listener.forwardX), v(listener.forwardY), v(listener.forwardZ)]);
    const right = unit(cross(forward, [v(listener.upX), v(listener.upY), v(listener.upZ)]));
    const rotation = forward && right ? quatFromMatrixAxes(right, cross(right, forward)!, [-forward[0], -forward[1], -forward[2]]) : [0, 0, 0, 1];
    const listenerPose = [v(listener.positionX), v(listener.positionY), v(listener.positionZ), ...rotation];
    const relative = composePose(invertPose(listenerPose), [v(panner.positionX), v(panner.positionY), v(panner.positionZ), 0, 0, 0, 1]);
    const world = composePose(this.head() ?? IDENTITY_POSE, relative);
    return [world[0], world[1], world[2]];
  }

  private soundName(node: AudioScheduledSourceNode): string {
    const given = this.nameOf(node);
    if (given) return given;
    if (node instanceof this.win.OscillatorNode) return `oscillator:${node.type}`;
    if (node instanceof this.win.AudioBufferSourceNode) return node.buffer ? this.bufferName(node.buffer) : 'buffer:empty';
    if (node instanceof this.win.ConstantSourceNode) return 'constant';
    return node.constructor.name;
  }

  /** `buffer:` and an FNV-1a hash of the buffer's length, rate and first samples: the same sound, the same name. */
  private bufferName(buffer: AudioBuffer): string {
    let name = this.bufferNames.get(buffer);
    if (name) return name;
    const samples = buffer.getChannelData(0);
    const bits = new Uint32Array(samples.buffer, samples.byteOffset, Math.min(samples.length, NAMING_SAMPLES));
    let hash = 0x811c9dc5;
    const mix = (word: number) => {
      for (let shift = 0; shift < 32; shift += 8) hash = Math.imul(hash ^ ((word >>> shift) & 0xff), 0x01000193);
    };
    mix(buffer.length);
    mix(buffer.sampleRate);
    for (let i = 0; i < bits.length; i++) mix(bits[i]);
    name = `buffer:${(hash >>> 0).toString(16).padStart(8, '0')}`;
    this.bufferNames.set(buffer, name);
    return name;
  }
}

function samePlace(a: Position, b: Position): boolean {
  if (!a || !b) return a === b;
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) <= MOVE_EPSILON;
}

function cross(a: number[] | null, b: number[] | null): [number, number, number] | null {
  if (!a || !b) return null;
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** `a` at unit length, or null when it has none (a degenerate listener orientation). */
function unit(a: [number, number, number] | null): [number, number, number] | null {
  const n = a ? Math.hypot(a[0], a[1], a[2]) : 0;
  return a && n > 1e-9 ? [a[0] / n, a[1] / n, a[2] / n] : null;
}
