// The place-on-plane app and its variations: which planes it knows, where it puts the cube, and whether a later
// pinch moves it.
import { xr } from 'xrsim';

const HALF = 0.03;

/** Ray against one plane (pose Y = normal), inside its polygon: distance or null. */
function rayPlane(origin, direction, plane) {
  const p = plane.pose;
  const centre = [p[0], p[1], p[2]];
  const t = { position: { x: p[0], y: p[1], z: p[2] }, orientation: { x: p[3], y: p[4], z: p[5], w: p[6] } };
  const n = xr.axis(t, 'y');
  const denominator = xr.dot(n, direction);
  if (denominator > -1e-6) return null;
  const distance = xr.dot(n, xr.sub(centre, origin)) / denominator;
  if (distance < 0) return null;
  const hit = xr.add(origin, xr.scale(direction, distance));
  const rel = xr.sub(hit, centre);
  const u = xr.dot(rel, xr.axis(t, 'x'));
  const v = xr.dot(rel, xr.axis(t, 'z'));
  const poly = plane.polygon;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    if (-(b.z - a.z) * (u - a.x) + (b.x - a.x) * (v - a.z) > 1e-9) return null;
  }
  return { distance, position: hit, normal: n, plane };
}

export function placer({ planes = 'live', at = 'hit', once = true } = {}) {
  return {
    setup(ctx) {
      ctx.state.cube = null;
      ctx.state.known = [];
      ctx.tag('cube', 'cube', () => (ctx.state.cube ? ctx.state.cube.position() : null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (planes === 'startup' && frame.time <= 1) s.known = [...frame.detectedPlanes];
      for (const event of frame.events) {
        if (event.type !== 'selectstart' || (once && s.cube)) continue;
        const ray = event.inputSource.targetRayPose.transform;
        const origin = xr.vec(ray.position);
        const direction = xr.forward(ray);
        let hit;
        if (planes === 'live') {
          hit = ctx.requestHitTest(origin, direction)[0];
        } else {
          hit = s.known.map((plane) => rayPlane(origin, direction, plane)).filter(Boolean).sort((a, b) => a.distance - b.distance)[0];
        }
        if (!hit) continue;
        const position = at === 'hit' ? xr.add(hit.position, [0, HALF, 0]) : origin;
        s.cube?.remove();
        s.cube = ctx.addBody('cube', { shape: { type: 'box', size: [2 * HALF, 2 * HALF, 2 * HALF] }, position, mass: 0.2, restitution: 0.1, friction: 0.8 });
        ctx.emit('placed', { label: hit.plane?.semanticLabel ?? null });
      }
    },
  };
}
