/**
 * Streams made to look valid (issue 36, item 3): every CRC holds, the sizes lie.
 * - a decompression bomb: chunk 0 replaced by a megabyte that inflates to 1 GiB. `inspect` stays under
 *   200 MB (peak RSS, measured in the child) and exits 2 naming the chunk; `verify` and `export` too;
 * - the same bomb recording its gigabyte honestly: refused before inflating (no chunk's frames take that);
 * - the writer ends a chunk early rather than hold more than MAX_CHUNK_EVENT_BYTES of events;
 * - a chunk claiming 2³¹ frames: exit 2 naming it, never a stack;
 * - a damaged footer: `verify` refuses it (exit 2) instead of calling the stream identical;
 * - one flipped bit anywhere: the reader reads the frames or raises a stream error, nothing else.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { StreamDamageError, XrsimInputError } from '../../src/errors.js';
import { Frame } from '../../src/frame/frame.js';
import { MAX_CHUNK_EVENT_BYTES } from '../../src/stream/chunk-bounds.js';
import { StreamReader } from '../../src/stream/reader.js';
import { StreamWriter } from '../../src/stream/writer.js';
import { CHUNK_HEADER_BYTES, FOOTER_ENTRY_BYTES, FOOTER_FIXED_BYTES, TRAILER_BYTES } from '../../src/stream/format.js';
import { CLI, ROOT, tempDir, xrsim, type CliResult } from '../helpers/cli.js';

const GIB = 1024 ** 3;
let dir: string;
let stream: string;

beforeAll(() => {
  dir = tempDir();
  stream = join(dir, 'run.xrs');
  const r = xrsim('run', '--task', 'physics/stack-settle', '--seed', '3', '--duration', '3', '--out', stream, '--json');
  expect(r.code, r.stderr).toBe(0);
});

/** 1 GiB of zeros, deflated a megabyte at a time (the whole never exists in memory). */
function zerosDeflated(bytes: number): Buffer {
  const block = Buffer.alloc(1024 * 1024);
  const pieces: Buffer[] = [];
  // Deflate blocks end on a byte boundary with Z_FULL_FLUSH: concatenated, they are one raw deflate stream.
  for (let done = 0; done < bytes; done += block.length) {
    const last = done + block.length >= bytes;
    pieces.push(deflateRawSync(block, { level: 9, finishFlush: last ? undefined : 3 /* Z_FULL_FLUSH */ }));
  }
  return Buffer.concat(pieces);
}

/**
 * `stream` with chunk 0's header fields set by `edit` and its payload replaced by `payload` (if given), every
 * CRC, offset and the trailer made to agree, as a careful forger would.
 */
function forged(name: string, edit: (head: Buffer) => void, payload?: Buffer): string {
  const bytes = readFileSync(stream);
  const reader = StreamReader.open(stream);
  const offsets = reader.chunks.map((c) => c.offset);
  reader.close();
  const footerAt = bytes.readDoubleLE(bytes.length - TRAILER_BYTES);
  const head = Buffer.from(bytes.subarray(offsets[0], offsets[0] + CHUNK_HEADER_BYTES));
  const stored = payload ?? bytes.subarray(offsets[0] + CHUNK_HEADER_BYTES, offsets[1]);
  head.writeUInt32LE(stored.length, 20);
  edit(head);
  head.writeUInt32LE(crc32(stored, crc32(head.subarray(0, 24))), 24);
  const shift = CHUNK_HEADER_BYTES + stored.length - (offsets[1] - offsets[0]);
  const footer = Buffer.from(bytes.subarray(footerAt, bytes.length - TRAILER_BYTES));
  offsets.forEach((offset, i) => footer.writeDoubleLE(i === 0 ? offset : offset + shift, FOOTER_FIXED_BYTES + i * FOOTER_ENTRY_BYTES));
  const frames0 = head.readUInt32LE(12);
  footer.writeUInt32LE(frames0, FOOTER_FIXED_BYTES + 12);
  footer.writeUInt32LE(crc32(footer.subarray(0, footer.length - 4)), footer.length - 4);
  const trailer = Buffer.from(bytes.subarray(bytes.length - TRAILER_BYTES));
  trailer.writeDoubleLE(footerAt + shift, 0);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([bytes.subarray(0, offsets[0]), head, stored, bytes.subarray(offsets[1], footerAt), footer, trailer]));
  return path;
}

/** Runs the CLI with a preload that reports the process's peak RSS (bytes) on its last stderr line. */
function xrsimMeasured(...args: string[]): CliResult & { peakRss: number } {
  const preload = join(dir, 'peak-rss.cjs');
  writeFileSync(preload, "process.on('exit', () => process.stderr.write(`\\npeak-rss ${process.resourceUsage().maxRSS * 1024}\\n`));\n");
  const child = spawnSync(process.execPath, ['--require', preload, CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  const peak = /peak-rss (\d+)\n$/.exec(child.stderr);
  return { code: child.status ?? -1, stdout: child.stdout, stderr: child.stderr, json: undefined, peakRss: peak ? Number(peak[1]) : Infinity };
}

const noStack = (r: CliResult) => expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /);

describe('a decompression bomb', () => {
  let bomb: string;
  let before: Buffer;
  let payload: Buffer;
  beforeAll(() => {
    payload = zerosDeflated(GIB);
    expect(payload.length).toBeLessThan(2 * 1024 * 1024);
    bomb = forged('bomb.xrs', () => {}, payload);
    before = readFileSync(bomb);
  });

  it('inspect stays under 200 MB and exits 2, naming chunk 0', () => {
    const r = xrsimMeasured('inspect', bomb);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/chunk 0 \(ticks 0–89\) is damaged: it inflates to more than its recorded \d+ bytes/);
    expect(r.peakRss).toBeLessThan(200 * 1024 * 1024);
    noStack(r);
    expect(readFileSync(bomb).equals(before)).toBe(true);
  });

  it('verify and export refuse it the same way (exit 2, the chunk named)', () => {
    for (const args of [['verify', bomb], ['export', bomb, '--format', 'jsonl', '--out', join(dir, 'bomb.jsonl')]]) {
      const r = xrsimMeasured(...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/chunk 0 .*is damaged/);
      expect(r.peakRss).toBeLessThan(200 * 1024 * 1024);
      noStack(r);
    }
  });

  it('the same bomb recording its gigabyte as its raw size is refused before inflating: no 90 frames take that', () => {
    const path = forged('honest-bomb.xrs', (head) => head.writeUInt32LE(GIB, 16), payload);
    const r = xrsimMeasured('inspect', path);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/chunk 0 .*is damaged: its recorded raw size 1073741824 is more than 90 frames can take \(at most \d+ bytes\)/);
    expect(r.peakRss).toBeLessThan(200 * 1024 * 1024);
  });

  it('a chunk recording more raw bytes than its stored bytes can inflate to is refused before inflating', () => {
    const path = forged('two-bytes.xrs', () => {}, deflateRawSync(Buffer.alloc(0)));
    const r = xrsim('inspect', path);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/chunk 0 .*is damaged: its recorded raw size \d+ is more than its \d+ stored bytes can inflate to/);
  });
});

describe('what the writer holds a chunk to', () => {
  /** `count` event records of 256 KB each (the largest a record can be), as one frame's events. */
  const bigEvents = (count: number) => {
    const words = new Uint32Array(count * 0x10000);
    for (let r = 0; r < count; r++) words[r * 0x10000] = (1 << 16) | 0xffff;
    return words;
  };

  it(`ends a chunk early rather than hold more than ${MAX_CHUNK_EVENT_BYTES / 2 ** 20} MiB of events, and reads back every frame`, () => {
    const reader = StreamReader.open(stream);
    const path = join(dir, 'many-events.xrs');
    const writer = new StreamWriter(path, reader.header);
    const frame = new Frame(reader.layout);
    const events = bigEvents(24); // 6 MiB a frame
    const frames = [...reader.framesInOrder()].slice(0, 7);
    for (const stored of frames) {
      frame.words.set(stored.words);
      frame.setEvents(events, events.length);
      writer.append(frame, new Uint32Array(2));
    }
    writer.close(new Uint32Array(2));
    reader.close();
    const back = StreamReader.open(path);
    expect(back.chunks.map((c) => c.frames)).toEqual([2, 2, 2, 1]);
    for (let i = 0; i < back.chunks.length; i++) expect(back.chunk(i).events.length).toBe(back.chunks[i].frames * events.length);
    back.close();
  });

  it('refuses a frame with more events than that on its own (a RangeError, before anything is written)', () => {
    const reader = StreamReader.open(stream);
    const writer = new StreamWriter(join(dir, 'too-many-events.xrs'), reader.header);
    const frame = new Frame(reader.layout);
    const events = bigEvents(65);
    frame.setEvents(events, events.length);
    expect(() => writer.append(frame, new Uint32Array(2))).toThrow(/records 17039360 bytes of events; a stream holds at most 16777216 bytes of events a frame/);
    writer.abort();
    reader.close();
  });
});

describe('size fields that lie', () => {
  it('a chunk claiming 2³¹ frames exits 2 naming the chunk, with no stack', () => {
    const path = forged('huge-frames.xrs', (head) => head.writeUInt32LE(2 ** 31, 12));
    for (const command of ['inspect', 'verify']) {
      const r = xrsim(command, path);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout + r.stderr).toMatch(/chunk 0 .*is damaged: it claims 2147483648 frames; a chunk holds 1 to 90/);
      noStack(r);
    }
  });

  it('a damaged footer: verify refuses the stream (it is not "identical"); inspect reports the scan', () => {
    const path = join(dir, 'footer.xrs');
    const bytes = readFileSync(stream);
    bytes[bytes.length - TRAILER_BYTES - 6] ^= 0x10; // inside the footer's chunk table
    writeFileSync(path, bytes);
    const verified = xrsim('verify', path);
    expect(verified.code).toBe(2);
    expect(verified.stderr).toMatch(/footer\.xrs: the footer is damaged/);
    expect(verified.stdout).not.toMatch(/identical/);
    const inspected = xrsim('inspect', path);
    expect(inspected.code).toBe(2);
    expect(inspected.stdout).toMatch(/index from scan \(footer damaged\)/);
  });
});

describe('one flipped bit anywhere', () => {
  it('reads every frame or raises a stream error, never another exception', () => {
    const original = readFileSync(stream);
    const path = join(dir, 'flipped.xrs');
    const outcomes = { read: 0, refused: 0 };
    // 240 positions spread over the whole file, a different bit at each (no randomness: the same every run).
    for (let k = 0; k < 240; k++) {
      const bytes = Buffer.from(original);
      const at = Math.floor((k * (bytes.length - 1)) / 239);
      bytes[at] ^= 1 << k % 8;
      writeFileSync(path, bytes);
      try {
        const reader = StreamReader.open(path);
        try {
          for (let i = 0; i < reader.chunks.length; i++) reader.chunk(i);
        } finally {
          reader.close();
        }
        outcomes.read++;
      } catch (err) {
        if (!(err instanceof StreamDamageError || err instanceof XrsimInputError)) throw new Error(`bit ${k % 8} of byte ${at}: ${(err as Error).stack}`);
        outcomes.refused++;
      }
    }
    // Nearly every byte is covered by a CRC; a flip in the header's unchecked prefix or the trailer is found too.
    expect(outcomes.refused).toBeGreaterThan(200);
  });
});
