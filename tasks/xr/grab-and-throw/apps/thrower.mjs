// The grab-and-throw app and its variations: how the carried cube follows, what velocity it leaves with, and
// which hand's release lets go of it.
import { xr } from 'xrsim';

const HALF = 0.03;
const GRAB_RADIUS = 0.07;

export function thrower({ keepsVelocity = true, smoothing = 1, releasedBy = 'holder' } = {}) {
  return {
    setup(ctx) {
      ctx.state.cube = null; // dynamic body when free
      ctx.state.held = null; // { source, offset, at }
      ctx.state.history = [];
      ctx.tag('cube', 'cube', () => (ctx.state.held ? ctx.state.held.at : ctx.state.cube?.position() ?? null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (!s.cube && !s.held && !s.thrown) {
        const head = frame.viewerPose.transform;
        const front = xr.flatForward(head);
        // The stand sits 0.35 m ahead of where the user starts; its top is 1 m up.
        s.cube = ctx.addBody('cube', { shape: { type: 'box', size: [2 * HALF, 2 * HALF, 2 * HALF] }, position: xr.add([head.position.x, 1.0 + HALF, head.position.z], xr.scale(front, 0.35)), mass: 0.1, friction: 0.8 });
      }
      for (const event of frame.events) {
        const p = xr.pinchPoint(event.inputSource);
        if (event.type === 'selectstart' && !s.held && s.cube && p && xr.distance(p, s.cube.position()) < GRAB_RADIUS) {
          const at = s.cube.position();
          s.cube.remove();
          s.cube = null;
          s.held = { source: event.inputSource, offset: xr.sub(at, p), at };
          s.history = [];
          ctx.emit('grabbed');
        } else if (event.type === 'selectend' && s.held && (releasedBy === 'any' || s.held.source === event.inputSource)) {
          const h = s.history;
          const velocity = keepsVelocity && h.length >= 2 ? xr.scale(xr.sub(h[h.length - 1].p, h[0].p), 1 / (h[h.length - 1].t - h[0].t)) : [0, 0, 0];
          s.cube = ctx.addBody('cube', { shape: { type: 'box', size: [2 * HALF, 2 * HALF, 2 * HALF] }, position: s.held.at, velocity, mass: 0.1, friction: 0.8 });
          s.held = null;
          s.thrown = true;
          ctx.emit('released');
        }
      }
      if (s.held) {
        const p = xr.pinchPoint(s.held.source);
        if (p) s.held.at = xr.lerp(s.held.at, xr.add(p, s.held.offset), smoothing);
        s.history.push({ p: p ?? s.held.at, t: frame.time });
        if (s.history.length > 4) s.history.shift();
      }
    },
  };
}
