/**
 * `ctx.audio`: the sounds an in-process app plays. A sound is a name (`chime`); playing it makes a voice,
 * placed in the world (or not spatialised: heard at the listener, in the user's head), with a gain, on the
 * simulation clock: a `duration` ends it that many simulated seconds later, else it plays until stopped.
 * What voices do is recorded in the frame of the tick it happens in (`AudioStart`, `AudioUpdate`,
 * `AudioStop`: `frame/audio-events.ts`), in voice order, at most one update a voice a frame, so validators
 * read sounds from the stream as they read tags.
 *
 * Wrong arguments throw a TypeError into the app (an app error, as for `ctx.tag`). Voices and the audio
 * object follow the context's pattern (`context.ts`): methods are own properties made in an object literal,
 * getters live on frozen, shared prototypes. A session that plays nothing pays two comparisons a tick.
 */
import type { Frame } from '../frame/frame.js';
import { writeAudioStart, writeAudioStop, writeAudioUpdate, type AudioPosition } from '../frame/audio-events.js';
import type { Vec3 } from '../geometry/types.js';
import type { AppAudio, AudioPlayOptions, AudioVoice } from './types.js';

/** The most voices an app may have playing at once (a leak stops here, with an app error). */
export const MAX_VOICES = 1024;
/** The most characters of a sound's name. */
export const MAX_SOUND_NAME_CHARS = 256;

const PLAY_OPTIONS = ['position', 'gain', 'loop', 'duration'] as const;

/** What the audio needs of its host: the simulated time of the tick being run. */
export interface AudioClock {
  readonly time: number;
}

/** One voice's state, shared by its handle and the mixer. */
interface VoiceState {
  readonly id: number;
  readonly sound: string;
  readonly loop: boolean;
  position: AudioPosition;
  gain: number;
  /** Simulated time it ends by itself (Infinity: only when stopped). */
  readonly end: number;
  playing: boolean;
  /** What the next flush records for it. */
  startPending: boolean;
  movedPending: boolean;
  gainPending: boolean;
  stopPending: boolean;
  touched: boolean;
}

type AudioMethods = Pick<AppAudio, 'play' | 'stopAll'>;
type VoiceMethods = Pick<AudioVoice, 'stop' | 'setPosition' | 'setGain'>;

/** `ctx.audio`: its methods are own properties, set in the constructor. */
export interface SessionAppAudio extends AudioMethods {}
export class SessionAppAudio implements AppAudio {
  readonly #playing: VoiceState[] = [];
  /** Voices with something to record this tick, in the order first touched. */
  readonly #touched: VoiceState[] = [];
  /** Playing voices with a duration: while 0, no tick looks for voices to end. */
  #timed = 0;
  #nextId = 1;

  constructor(clock: AudioClock) {
    const stop = (state: VoiceState) => this.#stop(state);
    const touch = (state: VoiceState) => this.#touch(state);
    Object.assign(this, {
      play: (sound, options) => {
        const o = checkPlayOptions(sound, options);
        if (this.#playing.length >= MAX_VOICES) throw new RangeError(`ctx.audio.play: an app may have at most ${MAX_VOICES} voices playing at once; stop some before playing more`);
        const state: VoiceState = {
          id: this.#nextId++,
          sound,
          loop: o.loop ?? false,
          position: o.position ? [o.position[0], o.position[1], o.position[2]] : null,
          gain: o.gain ?? 1,
          end: o.duration === undefined ? Infinity : clock.time + o.duration,
          playing: true,
          startPending: true,
          movedPending: false,
          gainPending: false,
          stopPending: false,
          touched: false,
        };
        this.#playing.push(state);
        if (state.end !== Infinity) this.#timed++;
        touch(state);
        return new SessionAudioVoice(state, stop, touch);
      },
      stopAll: () => {
        for (let i = this.#playing.length - 1; i >= 0; i--) stop(this.#playing[i]);
      },
    } satisfies AudioMethods);
  }

  /** Voices playing now. */
  get playing(): number {
    return this.#playing.length;
  }

  /** Ends the voices whose duration is over by `time` (before the app's frame, so it sees them stopped). */
  expire(time: number): void {
    if (this.#timed === 0) return;
    for (let i = this.#playing.length - 1; i >= 0; i--) {
      const state = this.#playing[i];
      if (state.end <= time + 1e-9) this.#stop(state);
    }
  }

  /** Records this tick's starts, updates and stops in `frame`, in voice order. */
  flush(frame: Frame): void {
    const touched = this.#touched;
    if (touched.length === 0) return;
    touched.sort((a, b) => a.id - b.id);
    for (const v of touched) {
      if (v.startPending) writeAudioStart(frame, { voice: v.id, sound: v.sound, position: v.position, gain: v.gain, loop: v.loop });
      else if (v.movedPending || v.gainPending) {
        writeAudioUpdate(frame, { voice: v.id, ...(v.movedPending ? { position: v.position } : {}), ...(v.gainPending ? { gain: v.gain } : {}) });
      }
      if (v.stopPending) writeAudioStop(frame, { voice: v.id });
      v.startPending = v.movedPending = v.gainPending = v.stopPending = v.touched = false;
    }
    touched.length = 0;
  }

  #touch(state: VoiceState): void {
    if (state.touched) return;
    state.touched = true;
    this.#touched.push(state);
  }

  #stop(state: VoiceState): void {
    if (!state.playing) return;
    state.playing = false;
    this.#playing.splice(this.#playing.indexOf(state), 1);
    if (state.end !== Infinity) this.#timed--;
    state.stopPending = true;
    this.#touch(state);
  }
}
Object.freeze(SessionAppAudio.prototype);

/** A voice an app played: its methods are own properties, set in the constructor. */
export interface SessionAudioVoice extends VoiceMethods {}
export class SessionAudioVoice implements AudioVoice {
  readonly id: number;
  readonly sound: string;
  readonly #state: VoiceState;

  constructor(state: VoiceState, stop: (state: VoiceState) => void, touch: (state: VoiceState) => void) {
    this.id = state.id;
    this.sound = state.sound;
    this.#state = state;
    Object.assign(this, {
      stop: () => stop(state),
      setPosition: (position) => {
        const p = checkPosition(position, 'voice.setPosition(position)');
        if (!state.playing) return;
        state.position = p;
        state.movedPending = true;
        touch(state);
      },
      setGain: (gain) => {
        const g = checkGain(gain, 'voice.setGain(gain)');
        if (!state.playing) return;
        state.gain = g;
        state.gainPending = true;
        touch(state);
      },
    } satisfies VoiceMethods);
  }

  /** Whether it still plays (false once stopped, or once its duration is over). */
  get playing(): boolean {
    return this.#state.playing;
  }
}
Object.freeze(SessionAudioVoice.prototype);

/** `play`'s arguments, checked: a TypeError names what was wrong. */
function checkPlayOptions(sound: unknown, options: unknown): AudioPlayOptions {
  const call = 'ctx.audio.play(sound, options)';
  if (typeof sound !== 'string' || sound === '' || sound.length > MAX_SOUND_NAME_CHARS) {
    throw new TypeError(`${call}: sound must be a name, a non-empty string of at most ${MAX_SOUND_NAME_CHARS} characters, got ${describe(sound)}`);
  }
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`${call}: options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (!(PLAY_OPTIONS as readonly string[]).includes(key)) throw new TypeError(`${call}: unknown option "${key}" (options: ${PLAY_OPTIONS.join(', ')})`);
  }
  // Each option read once: a getter cannot answer one thing to the check and another to the voice.
  const { position, gain, loop, duration } = options as AudioPlayOptions;
  const checked: AudioPlayOptions = {};
  if (position !== undefined) checked.position = checkPosition(position, call);
  if (gain !== undefined) checked.gain = checkGain(gain, call);
  if (loop !== undefined) {
    if (typeof loop !== 'boolean') throw new TypeError(`${call}: loop must be true or false, got ${describe(loop)}`);
    checked.loop = loop;
  }
  if (duration !== undefined) {
    if (!(typeof duration === 'number' && Number.isFinite(duration) && duration > 0)) throw new TypeError(`${call}: duration must be a number of seconds above 0, got ${describe(duration)}`);
    checked.duration = duration;
  }
  return checked;
}

/** A position: null, or three numbers finite in float32 (as tags, since validators read them as floats). */
function checkPosition(position: unknown, call: string): AudioPosition {
  if (position === null) return null;
  if (Array.isArray(position) && position.length === 3 && position.every((v) => typeof v === 'number' && Number.isFinite(Math.fround(v)))) {
    return [position[0], position[1], position[2]] as Vec3;
  }
  throw new TypeError(`${call}: position must be null (not spatialised) or [x, y, z] of finite numbers, got ${describe(position)}`);
}

function checkGain(gain: unknown, call: string): number {
  if (!(typeof gain === 'number' && Number.isFinite(gain) && gain >= 0)) throw new TypeError(`${call}: gain must be a finite number of at least 0, got ${describe(gain)}`);
  return gain;
}

/** A short, safe description of a value for an error message. */
function describe(value: unknown): string {
  try {
    const text = typeof value === 'string' || (typeof value === 'object' && value !== null) ? JSON.stringify(value) : String(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
