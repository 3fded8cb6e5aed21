/**
 * Event records that carry JSON (an added surface's spec, an app's error or event): a few leading u32
 * words, then the UTF-8 byte length, then the bytes packed little-endian into words. They are rare
 * (not every tick), so encoding cost does not matter; readers decode them with {@link readJsonPayload}.
 */
import type { Frame } from './frame.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The most bytes of JSON one record can carry: a record holds at most 65,535 words, its lead and length words included. */
export const MAX_JSON_RECORD_BYTES = (0xffff - 8) * 4;

/**
 * Appends a record of `type`: the `lead` words, then `value` as JSON. A value whose JSON is longer than
 * {@link MAX_JSON_RECORD_BYTES} throws a RangeError before anything is written.
 */
export function writeJsonRecord(frame: Frame, type: number, lead: readonly number[], value: unknown): void {
  const bytes = encoder.encode(JSON.stringify(value));
  if (bytes.length > MAX_JSON_RECORD_BYTES) {
    throw new RangeError(`an event record holds at most ${MAX_JSON_RECORD_BYTES} bytes of JSON; this one is ${bytes.length}`);
  }
  frame.beginRecord(type);
  for (const word of lead) frame.word(word);
  frame.word(bytes.length);
  for (let i = 0; i < bytes.length; i += 4) frame.word(bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
  frame.endRecord();
}

/** The JSON value of a record's payload whose byte length is at word `at` (after the lead words). */
export function readJsonPayload<T>(payload: readonly number[], at: number): T {
  const bytes = new Uint8Array(payload[at]);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (payload[at + 1 + (i >> 2)] >>> ((i & 3) * 8)) & 0xff;
  return JSON.parse(decoder.decode(bytes)) as T;
}
