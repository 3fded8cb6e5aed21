// The gesture-markers app in process: a marker at the pinch point when a hand's pinch starts (its
// selectstart), and the open hand of the hand that placed the markers clears them (all four fingers
// straight, told from the joints as a gesture recognizer does). The suite's XR Blocks pages do the same with
// XR Blocks' own recognizer.
import { xr } from 'xrsim';

const FINGERS = ['index', 'middle', 'ring', 'pinky'];
/** A finger is straight when its last two segments bend less than this (cosine of about 20°). */
const STRAIGHT = 0.94;

/** True when the hand's four fingers are straight. */
function isOpen(source) {
  for (const finger of FINGERS) {
    const at = (joint) => xr.joint(source, `${finger}-finger-${joint}`);
    const [a, b, c] = [at('phalanx-proximal'), at('phalanx-intermediate'), at('tip')];
    if (!a || !b || !c || xr.dot(xr.normalize(xr.sub(b, a)), xr.normalize(xr.sub(c, b))) < STRAIGHT) return false;
  }
  return true;
}

export function setup(ctx) {
  ctx.state.markers = [];
  ctx.state.owner = null;
  ctx.state.open = new Map(); // handedness → open last frame
  ctx.tag('marker', 'marker', () => ctx.state.markers.at(-1) ?? null);
}

export function frame(frame, ctx) {
  const s = ctx.state;
  for (const event of frame.events) {
    const source = event.inputSource;
    if (event.type !== 'selectstart' || !source.hand || (s.owner && s.owner !== source.handedness)) continue;
    const at = xr.pinchPoint(source);
    if (!at) continue;
    s.markers.push(at);
    s.owner = source.handedness;
    ctx.emit('marker-placed', { hand: source.handedness, count: s.markers.length });
  }
  for (const source of frame.inputSources) {
    if (!source.hand) continue;
    const open = isOpen(source);
    const opened = open && !s.open.get(source.handedness);
    s.open.set(source.handedness, open);
    if (opened && s.markers.length > 0 && source.handedness === s.owner) {
      ctx.emit('markers-cleared', { hand: source.handedness, count: s.markers.length });
      s.markers = [];
      s.owner = null;
    }
  }
}
