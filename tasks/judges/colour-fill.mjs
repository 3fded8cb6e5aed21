#!/usr/bin/env node
/**
 * An image-based judge for `visual` milestones: how much of the view an object's colour fills.
 *
 * The criterion names an object or label from the request's colour table and a share of the view:
 *   "task:ball fills at least 2% of the view"     "hand fills at most 30% of the view"
 * or a colour, `#rrggbb`, for what a browser app drew into its XR layer (`view: "layer"`, where the page
 * picks its colours): a pixel counts when it is that colour under any lighting, its RGB a shade (0.25 to
 * 1.6 times) of the colour's with its hue nearly kept:
 *   "#dd2222 fills at least 0.5% of the view"
 * Every image (one per moment) must meet it. The verdict's confidence grows with the margin:
 * 0.5 at the threshold, 1 at twice (or none of) it.
 *
 * Protocol (docs/TASKS.md, "Visual judges"): the request is JSON on stdin (also in the file
 * $XRSIM_JUDGE_REQUEST): { criterion, images: [{ path, tick, width, height, ... }], colours: { name:
 * [[r, g, b], ...] }, background }. The verdict is one JSON line on stdout: { passed, confidence, reason }.
 * A criterion this judge cannot read exits 2 with the reason on stderr (the milestone is then errored).
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

const request = JSON.parse(readFileSync(process.env.XRSIM_JUDGE_REQUEST ?? 0, 'utf8'));
const match = /([#\w:.-]+)\s+fills\s+at\s+(least|most)\s+(\d+(?:\.\d+)?)\s*%/i.exec(request.criterion);
if (!match) fail(`cannot read the criterion ${JSON.stringify(request.criterion)}: expected "<object or label> fills at least|most N% of the view"`);
const [, name, direction, percent] = match;
const hex = /^#([0-9a-f]{6})$/i.exec(name);
const colours = hex ? null : request.colours[name];
if (!hex && !colours) fail(`"${name}" is not in the colour table (known: ${Object.keys(request.colours).join(', ') || 'none: name a colour as #rrggbb'})`);
const threshold = Number(percent) / 100;
const matches = hex ? shadeOf(Number.parseInt(hex[1], 16)) : exactly(colours);

const fractions = request.images.map((image) => fillFraction(decodePng(readFileSync(image.path)), matches));
const meets = (f) => (direction.toLowerCase() === 'least' ? f >= threshold : f <= threshold);
const passed = fractions.length > 0 && fractions.every(meets);
// The image that decides: the worst one against the criterion.
const worst = direction.toLowerCase() === 'least' ? Math.min(...fractions) : Math.max(...fractions);
const margin = threshold > 0 ? Math.abs(worst - threshold) / threshold : worst > 0 ? 1 : 0;
const confidence = Math.round(Math.min(1, 0.5 + margin / 2) * 1000) / 1000;
const shares = fractions.map((f, i) => `${(f * 100).toFixed(2)}% at tick ${request.images[i].tick}`).join(', ');
process.stdout.write(`${JSON.stringify({ passed, confidence, reason: `${name} fills ${shares} of the view; the criterion asks at ${direction} ${percent}%` })}\n`);

function fail(message) {
  process.stderr.write(`colour-fill: ${message}\n`);
  process.exit(2);
}

/** A pixel test: one of the table's exact colours (the simulation's view draws flat colours). */
function exactly(colours) {
  const wanted = new Set(colours.map(([r, g, b]) => (r << 16) | (g << 8) | b));
  return (r, g, b) => wanted.has((r << 16) | (g << 8) | b);
}

/** A pixel test: a shade of `colour` (lit darker or brighter), each channel within 12% of the brightest of the shaded colour. */
function shadeOf(colour) {
  const target = [(colour >> 16) & 0xff, (colour >> 8) & 0xff, colour & 0xff];
  const peak = Math.max(...target, 1);
  return (r, g, b) => {
    const pixel = [r, g, b];
    const k = Math.max(r, g, b) / peak;
    if (k < 0.25 || k > 1.6) return false;
    return pixel.every((c, i) => Math.abs(c - target[i] * k) <= 0.12 * peak * k);
  };
}

/** The share of pixels that `matches`. */
function fillFraction(image, matches) {
  const { width, height, rgb } = image;
  let hits = 0;
  for (let o = 0; o < rgb.length; o += 3) if (matches(rgb[o], rgb[o + 1], rgb[o + 2])) hits++;
  return hits / (width * height);
}

/** An 8-bit RGB or RGBA, non-interlaced PNG (what xrsim writes) as RGB rows. */
function decodePng(bytes) {
  if (bytes.readUInt32BE(0) !== 0x89504e47) fail('an image is not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 3;
  const data = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0) fail('only 8-bit RGB(A) non-interlaced PNGs are read');
      channels = body[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? rows[y * stride + x - channels] : 0;
      const b = y > 0 ? rows[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      rows[y * stride + x] = (line[x] + predictor) & 0xff;
    }
  }
  if (channels === 3) return { width, height, rgb: rows };
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, o = 0; i < rows.length; i += 4, o += 3) rgb.set(rows.subarray(i, i + 3), o);
  return { width, height, rgb };
}
