#!/usr/bin/env node
/**
 * A design judge over a session's video: does the view flash? Content that flashes more than three times in
 * any second can trigger seizures (WCAG 2.x, success criterion 2.3.1 "Three Flashes or Below Threshold"), and
 * no formula over tags can see it: it is in the pixels the app draws.
 *
 * The video is decoded with ffmpeg to 32×24 grey frames at 30 fps. A flash is a pair of opposing changes of
 * the view's mean relative luminance of at least 10 % of full scale each (WCAG's general flash threshold,
 * on the whole view rather than a 10° region). Rating: the most flashes in any one second: none 5, one 4,
 * two 3, three 2, more than three (WCAG's limit) 1.
 *
 * Protocol (docs/TASKS.md, "Design score"): the request is JSON on stdin (also in $XRSIM_DESIGN_REQUEST):
 * { task, app, video, view, formula, answer }. The answer is one JSON line on stdout:
 * { "ratings": [{ "id": "flashing", "title", "rating", "reason" }] }.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const request = JSON.parse(readFileSync(process.env.XRSIM_DESIGN_REQUEST ?? 0, 'utf8'));
const FPS = 30;
const W = 32;
const H = 24;
const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', request.video, '-vf', `fps=${FPS},scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { maxBuffer: 1 << 28 });
const frames = Math.floor(raw.length / (W * H));
const luminance = [];
for (let f = 0; f < frames; f++) {
  let sum = 0;
  for (let i = f * W * H; i < (f + 1) * W * H; i++) sum += raw[i];
  luminance.push(sum / (W * H) / 255);
}
// Turning points of the luminance that swing at least 10 % between them: each opposing pair is a flash.
const swings = [];
let anchor = luminance[0] ?? 0;
let direction = 0;
for (let f = 1; f < luminance.length; f++) {
  const change = luminance[f] - anchor;
  if (Math.abs(change) >= 0.1 && Math.sign(change) !== direction) {
    swings.push(f);
    direction = Math.sign(change);
    anchor = luminance[f];
  } else if (direction !== 0 && Math.sign(change) === direction) anchor = luminance[f]; // still going the same way
}
let most = 0;
let at = 0;
for (let start = 0; start < swings.length; start++) {
  let end = start;
  while (end + 1 < swings.length && swings[end + 1] - swings[start] < FPS) end++;
  const flashes = Math.floor((end - start + 1) / 2);
  if (flashes > most) [most, at] = [flashes, swings[start] / FPS];
}
const rating = most === 0 ? 5 : most >= 4 ? 1 : 5 - most;
const reason = most === 0 ? `no flash in ${(frames / FPS).toFixed(1)} s of video` : `${most} flash${most > 1 ? 'es' : ''} within one second from ${at.toFixed(2)} s (WCAG 2.3.1 allows three)`;
process.stdout.write(`${JSON.stringify({ ratings: [{ id: 'flashing', title: 'No flashing (photosensitive safety)', rating, reason }] })}\n`);
