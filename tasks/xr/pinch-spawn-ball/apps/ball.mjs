// The pinch-spawn-ball app and its variations: which hand point it uses, which hand's release lets go of the
// ball, and whether walls remove the ball.
import { xr } from 'xrsim';

const RADIUS = 0.03;

export function ballApp({ anchorJoint = 'pinch', despawnOnWall = true, releasedBy = 'holder' } = {}) {
  const handPoint = (source) => (anchorJoint === 'pinch' ? xr.pinchPoint(source) : xr.joint(source, 'wrist'));
  return {
    setup(ctx) {
      ctx.state.held = null; // { source, body }
      ctx.state.ball = null;
      ctx.state.history = [];
      ctx.tag('ball', 'ball', () => (ctx.state.held ? ctx.state.heldAt : ctx.state.ball && !ctx.state.ball.removed ? ctx.state.ball.position() : null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      for (const event of frame.events) {
        if (event.type === 'selectstart' && !s.held && event.inputSource.hand) {
          s.ball?.remove();
          s.ball = null;
          s.held = event.inputSource;
          s.heldAt = handPoint(s.held);
          s.history = [];
          ctx.emit('ball-spawned', { hand: s.held.handedness });
        } else if (event.type === 'selectend' && s.held && (releasedBy === 'any' || s.held === event.inputSource)) {
          // Release with the hand's velocity, from the last few frames.
          const h = s.history;
          const velocity = h.length >= 2 ? xr.scale(xr.sub(h[h.length - 1].p, h[0].p), 1 / (h[h.length - 1].t - h[0].t)) : [0, 0, 0];
          s.ball = ctx.addBody(`ball-${frame.tick}`, { shape: { type: 'sphere', radius: RADIUS }, position: s.heldAt, velocity, mass: 0.05, restitution: 0.6 });
          s.held = null;
          ctx.emit('ball-released', { speed: xr.length(velocity) });
        }
      }
      if (s.held) {
        const p = handPoint(s.held);
        if (p) s.heldAt = p;
        s.history.push({ p: s.heldAt, t: frame.time });
        if (s.history.length > 4) s.history.shift();
      } else if (s.ball && !s.ball.removed && despawnOnWall && s.ball.touching().some((surface) => surface.label === 'wall')) {
        s.ball.remove();
        ctx.emit('ball-despawned', { reason: 'wall' });
      }
    },
  };
}
