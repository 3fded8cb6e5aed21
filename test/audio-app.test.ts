/**
 * `ctx.audio` in process: what voices do is recorded in the frame of the tick it happens in (starts with
 * their place, gain and loop; at most one update a voice a frame; stops by `stop()`, `stopAll()` or a
 * duration on the simulation clock), and a wrong argument is an app error naming the call.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEvents, EventType, runSession, StreamReader, type SessionSpec } from '../src/index.js';
import { readJsonPayload } from '../src/frame/json-record.js';
import { eventJson, eventText } from '../src/export/event-json.js';
import { ROOT, tempDir } from './helpers/cli.js';

const fixture = (name: string) => join(ROOT, 'test/fixtures/apps', name);

/** Runs an in-process fixture app on a short session; returns its result and its recorded events by tick. */
async function runRecorded(app: string, extra: Partial<SessionSpec> = {}) {
  const path = join(tempDir(), `${app}.xrs`);
  const result = await runSession({ task: 'xr/chime-button', app: fixture(app), seed: 1, duration: 0.2, record: { path }, ...extra });
  const events: { tick: number; name: string; data: Record<string, unknown> }[] = [];
  const reader = StreamReader.open(path);
  for (const frame of reader.framesInOrder()) {
    for (const e of decodeEvents(frame.events, frame.eventWords)) {
      if (e.type >= EventType.AppError && e.type !== EventType.TagDeclared && e.type !== EventType.TagPoses && e.type !== EventType.InputEvent) {
        events.push({ tick: frame.tick, name: e.name, data: readJsonPayload(e.payload, 0) });
      }
    }
  }
  reader.close();
  return { result, events };
}

describe('ctx.audio records what voices do', () => {
  it('starts, one update a voice a frame, stops by stop(), stopAll() and a duration, in the tick they happen', async () => {
    const { result, events } = await runRecorded('audio-voices.mjs');
    expect(result.appErrors).toBe(0);
    expect(events).toEqual([
      { tick: 1, name: 'audio-start', data: { voice: 1, sound: 'tick', position: [0, 1, -0.5], gain: 1, loop: false } },
      { tick: 1, name: 'audio-start', data: { voice: 2, sound: 'hum', position: null, gain: 0.5, loop: true } },
      { tick: 2, name: 'audio-update', data: { voice: 2, position: [0.5, 1.5, -1], gain: 0.25 } },
      { tick: 3, name: 'audio-start', data: { voice: 3, sound: 'blip', position: null, gain: 1, loop: false } },
      { tick: 3, name: 'audio-stop', data: { voice: 3 } },
      // Started at 1/90 s for 0.1 s: over at 10/90 s, tick 10, before the app's frame runs.
      { tick: 10, name: 'audio-stop', data: { voice: 1 } },
      { tick: 12, name: 'app-event', data: { name: 'seen', data: { short: false, hum: true, playing: 1, ids: [1, 2] } } },
      { tick: 13, name: 'audio-stop', data: { voice: 2 } },
    ]);
  });

  it('exports name them and say them in a line', () => {
    const start = { type: EventType.AudioStart, name: 'audio-start', payload: [] as number[] };
    const words = (value: object) => {
      const bytes = new TextEncoder().encode(JSON.stringify(value));
      return [bytes.length, ...Array.from({ length: Math.ceil(bytes.length / 4) }, (_, i) => bytes[4 * i] | (bytes[4 * i + 1] << 8) | (bytes[4 * i + 2] << 16) | ((bytes[4 * i + 3] ?? 0) << 24))];
    };
    start.payload = words({ voice: 1, sound: 'tick', position: [0, 1, -0.5], gain: 1, loop: false });
    const json = eventJson(start, []);
    expect(json).toEqual({ name: 'audio-start', voice: 1, sound: 'tick', position: [0, 1, -0.5], gain: 1, loop: false });
    expect(eventText(json)).toBe('sound "tick" started (voice 1) at [0.000, 1.000, -0.500], gain 1');
    const update = eventJson({ type: EventType.AudioUpdate, name: 'audio-update', payload: words({ voice: 2, position: null }) }, []);
    expect(eventText(update)).toBe('voice 2 no longer spatialised');
    expect(eventText(eventJson({ type: EventType.AudioStop, name: 'audio-stop', payload: words({ voice: 2 }) }, []))).toBe('voice 2 stopped');
  });

  it('two runs record the same frames', async () => {
    const a = await runSession({ task: 'xr/chime-button', app: fixture('audio-voices.mjs'), seed: 1, duration: 0.2 });
    const b = await runSession({ task: 'xr/chime-button', app: fixture('audio-voices.mjs'), seed: 1, duration: 0.2 });
    expect(b.hash).toBe(a.hash);
  });

  it('a wrong argument throws into the app: an app error naming the call and what it expected, and the session goes on', async () => {
    const { result, events } = await runRecorded('audio-misuse.mjs');
    expect(result.status).not.toBe('errored');
    const errors = events.filter((e) => e.name === 'app-error');
    expect(errors.map((e) => e.tick)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(errors.map((e) => e.data.message)).toEqual([
      'ctx.audio.play(sound, options): sound must be a name, a non-empty string of at most 256 characters, got undefined',
      'ctx.audio.play(sound, options): position must be null (not spatialised) or [x, y, z] of finite numbers, got [0,1]',
      'ctx.audio.play(sound, options): position must be null (not spatialised) or [x, y, z] of finite numbers, got [0,null,1]',
      'ctx.audio.play(sound, options): gain must be a finite number of at least 0, got -1',
      'ctx.audio.play(sound, options): unknown option "volume" (options: position, gain, loop, duration)',
      'ctx.audio.play(sound, options): duration must be a number of seconds above 0, got 0',
      'ctx.audio.play(sound, options): loop must be true or false, got "yes"',
      'ctx.audio.play(sound, options): options must be an object, got 5',
      'voice.setPosition(position): position must be null (not spatialised) or [x, y, z] of finite numbers, got "here"',
      'voice.setGain(gain): gain must be a finite number of at least 0, got Infinity',
    ]);
    expect(errors.every((e) => e.data.phase === 'frame')).toBe(true);
    // Only the two calls whose play() was right started a voice.
    expect(events.filter((e) => e.name === 'audio-start').map((e) => e.tick)).toEqual([9, 10]);
    expect(events.find((e) => e.name === 'app-event')?.data).toEqual({ name: 'still-running', data: { playing: 2 } });
  });
});
