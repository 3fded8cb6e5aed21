/**
 * Checks what a page returned before the host uses it: the page is untrusted code, so its answer must
 * have the protocol's shape (one output per tick, in order, JSON values of bounded size).
 */
import type { AudioRecord, LayerImage, PageError, TagExtentRecord, TickOutput } from './protocol.js';

/** Most tags, events, errors or requests one tick may carry. */
const MAX_ITEMS = 10_000;
const MAX_STRING = 64 * 1024;

export class BadPageOutputError extends Error {
  constructor(message: string) {
    super(`the page returned a malformed tick output: ${message}`);
    this.name = 'BadPageOutputError';
  }
}

export function checkOutputs(value: unknown, ticks: number[]): TickOutput[] {
  if (!Array.isArray(value) || value.length !== ticks.length) throw new BadPageOutputError(`expected ${ticks.length} outputs`);
  return value.map((output, i) => checkOutput(output, ticks[i]));
}

function checkOutput(value: unknown, tick: number): TickOutput {
  const o = value as Partial<TickOutput>;
  if (!o || typeof o !== 'object' || o.k !== tick) throw new BadPageOutputError(`output for tick ${tick} missing or out of order`);
  const list = <T>(name: string, v: unknown, item: (x: unknown) => x is T): T[] => {
    if (!Array.isArray(v) || v.length > MAX_ITEMS || !v.every(item)) throw new BadPageOutputError(`tick ${tick}: bad ${name}`);
    return v;
  };
  const str = (x: unknown): x is string => typeof x === 'string' && x.length <= MAX_STRING;
  const pose = (x: unknown) => x === null || (Array.isArray(x) && x.length === 7 && x.every((n) => typeof n === 'number'));
  const tags = list('tags', o.tags, (t): t is [string, number[] | null] => Array.isArray(t) && t.length === 2 && str(t[0]) && pose(t[1]));
  const events = list('events', o.events, (e): e is [string, unknown] => Array.isArray(e) && e.length === 2 && str(e[0]) && JSON.stringify(e[1] ?? null).length <= MAX_STRING);
  const errors = list('errors', o.errors, (e): e is PageError => !!e && typeof e === 'object' && str((e as PageError).message) && str((e as PageError).stack) && ['exception', 'rejection', 'console', 'network'].includes((e as PageError).kind));
  const requests = list('requests', o.requests, (r): r is TickOutput['requests'][number] => !!r && typeof r === 'object' && typeof (r as { id: unknown }).id === 'number');
  if (!['none', 'requested', 'running', 'ended'].includes(o.session as string)) throw new BadPageOutputError(`tick ${tick}: bad session state`);
  const layer = o.layer === undefined ? undefined : checkLayer(o.layer, tick);
  const audio = o.audio === undefined ? undefined : list('audio', o.audio, isAudioRecord);
  const positive = (n: unknown) => typeof n === 'number' && n > 0 && Number.isFinite(n);
  const extents = o.extents === undefined ? undefined : list('extents', o.extents, (e): e is TagExtentRecord => Array.isArray(e) && e.length === 4 && str(e[0]) && (e[1] === null || (Array.isArray(e[1]) && e[1].length === 3 && e[1].every(positive))) && (e[2] === null || positive(e[2])) && (e[3] === null || (str(e[3]) && e[3].length <= 256)));
  if (o.left !== undefined && !str(o.left)) throw new BadPageOutputError(`tick ${tick}: bad left`);
  return { k: tick, tags, events, errors, requests, session: o.session!, ...(layer ? { layer } : {}), ...(audio ? { audio } : {}), ...(extents ? { extents } : {}), ...(o.left !== undefined ? { left: o.left } : {}) };
}

/** The longest sound name a page may give (as `ctx.audio`'s). */
const MAX_SOUND_NAME = 256;

/** An audio record: a voice number, and a start's name, place, gain and loop, or an update's changes. */
function isAudioRecord(value: unknown): value is AudioRecord {
  const r = value as Partial<Record<string, unknown>>;
  if (!r || typeof r !== 'object' || !Number.isInteger(r.voice) || (r.voice as number) < 1) return false;
  const position = (p: unknown) => p === null || (Array.isArray(p) && p.length === 3 && p.every((n) => typeof n === 'number' && Number.isFinite(Math.fround(n))));
  const gain = (g: unknown) => typeof g === 'number' && Number.isFinite(g) && g >= 0;
  switch (r.type) {
    case 'start':
      return typeof r.sound === 'string' && r.sound !== '' && r.sound.length <= MAX_SOUND_NAME && position(r.position) && gain(r.gain) && typeof r.loop === 'boolean';
    case 'update':
      return (r.position === undefined || position(r.position)) && (r.gain === undefined || gain(r.gain));
    case 'stop':
      return true;
    default:
      return false;
  }
}

/** Largest layer side read back, pixels. */
const MAX_LAYER_SIDE = 4096;

/** A layer image: its size in bounds and its base64 exactly the RGB bytes of that size. */
function checkLayer(value: unknown, tick: number): LayerImage {
  const l = value as Partial<LayerImage>;
  const side = (n: unknown) => Number.isInteger(n) && (n as number) > 0 && (n as number) <= MAX_LAYER_SIDE;
  if (!l || typeof l !== 'object' || !side(l.width) || !side(l.height) || typeof l.rgb !== 'string' || l.rgb.length !== l.width! * l.height! * 4) {
    throw new BadPageOutputError(`tick ${tick}: bad layer image`);
  }
  return { width: l.width!, height: l.height!, rgb: l.rgb };
}
