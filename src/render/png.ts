/**
 * A minimal PNG encoder and decoder for the images xrsim writes: 8-bit RGB views and 16-bit greyscale
 * depth (millimetres, as depth PNGs usually are). Filter type 0, one IDAT chunk, `node:zlib` for deflate
 * and CRC32. The decoder reads exactly what the encoder writes (for tests and tools), nothing more.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import type { OutputKind } from '../output-file.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The text chunk every PNG xrsim writes carries (keyword `Software`), so that a later run may replace it. */
const SOFTWARE_TEXT = Buffer.from('Software\0xrsim', 'latin1');

/** Bytes of the signature and the IHDR chunk, which always comes first. */
const IHDR_END = 8 + 8 + 13 + 4;

/** A PNG xrsim wrote, as an output that may replace an existing file (src/output-file.ts). */
export const PNG_OUTPUT: OutputKind = {
  what: 'a PNG written by xrsim',
  isOwn: (head) => head.subarray(0, 8).equals(SIGNATURE) && head.subarray(IHDR_END, IHDR_END + 64).includes(Buffer.concat([Buffer.from('tEXt', 'latin1'), SOFTWARE_TEXT])),
};

/** An image: `rgb` (3 bytes per pixel) or `gray16` (one u16 per pixel). */
export type PngImage = { width: number; height: number } & ({ kind: 'rgb'; pixels: Uint8Array } | { kind: 'gray16'; pixels: Uint16Array });

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes an image as PNG bytes. */
export function encodePng(image: PngImage): Buffer {
  const { width, height } = image;
  const bytesPerPixel = image.kind === 'rgb' ? 3 : 2;
  const stride = width * bytesPerPixel + 1;
  const raw = Buffer.alloc(stride * height);
  for (let row = 0; row < height; row++) {
    const o = row * stride;
    raw[o] = 0; // filter: none
    if (image.kind === 'rgb') {
      raw.set(image.pixels.subarray(row * width * 3, (row + 1) * width * 3), o + 1);
    } else {
      for (let col = 0; col < width; col++) raw.writeUInt16BE(image.pixels[row * width + col], o + 1 + col * 2);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = image.kind === 'rgb' ? 8 : 16; // bit depth
  header[9] = image.kind === 'rgb' ? 2 : 0; // colour type: truecolour or greyscale
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('tEXt', SOFTWARE_TEXT), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** `png` (any PNG, such as a browser's screenshot) with xrsim's text chunk after its header. */
export function markPng(png: Buffer): Buffer {
  if (!png.subarray(0, 8).equals(SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG file');
  return Buffer.concat([png.subarray(0, IHDR_END), chunk('tEXt', SOFTWARE_TEXT), png.subarray(IHDR_END)]);
}

/** Decodes a PNG written by {@link encodePng}. Throws on anything else. */
export function decodePng(bytes: Buffer): PngImage {
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let offset = 8;
  let width = 0, height = 0, depth = 0, colour = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      depth = body[8];
      colour = body[9];
    } else if (type === 'IDAT') {
      data.push(body);
    }
    offset += 12 + length;
  }
  const rgb = depth === 8 && colour === 2;
  if (!rgb && !(depth === 16 && colour === 0)) throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${colour}`);
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * (rgb ? 3 : 2) + 1;
  if (rgb) {
    const pixels = new Uint8Array(width * height * 3);
    for (let row = 0; row < height; row++) {
      if (raw[row * stride] !== 0) throw new Error('unsupported PNG filter');
      pixels.set(raw.subarray(row * stride + 1, (row + 1) * stride), row * width * 3);
    }
    return { kind: 'rgb', width, height, pixels };
  }
  const pixels = new Uint16Array(width * height);
  for (let row = 0; row < height; row++) {
    if (raw[row * stride] !== 0) throw new Error('unsupported PNG filter');
    for (let col = 0; col < width; col++) pixels[row * width + col] = raw.readUInt16BE(row * stride + 1 + col * 2);
  }
  return { kind: 'gray16', width, height, pixels };
}
