// The code the example candidates share (docs/BENCHMARKS.md): a spawner as a generator might write it,
// parameterised by its mistakes. Each file in ../candidates/ is one candidate.
import { xr } from 'xrsim';

export function spawner({ spawnPoint = (source) => xr.pinchPoint(source), spawnsOnce = false } = {}) {
  // spawnPoint: where balls after the first are spawned and held; spawnsOnce: only the first pinch spawns.
  return {
    setup(ctx) {
      ctx.state.held = null;
      ctx.state.heldAt = null;
      ctx.state.ball = null;
      ctx.state.spawned = 0;
      ctx.tag('ball', 'ball', () => (ctx.state.held ? ctx.state.heldAt : ctx.state.ball && !ctx.state.ball.removed ? ctx.state.ball.position() : null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      for (const event of frame.events) {
        if (event.type === 'selectstart' && !s.held && event.inputSource.hand && !(spawnsOnce && s.spawned > 0)) {
          s.ball?.remove();
          s.ball = null;
          s.held = event.inputSource;
          // The point this ball is held at: the pinch point for the first ball, `spawnPoint` after it.
          s.pointOf = s.spawned === 0 ? (source) => xr.pinchPoint(source) : spawnPoint;
          s.heldAt = s.pointOf(s.held);
          s.spawned++;
          ctx.emit('ball-spawned', { hand: s.held.handedness });
        } else if (event.type === 'selectend' && s.held === event.inputSource) {
          s.ball = ctx.addBody(`ball-${frame.tick}`, { shape: { type: 'sphere', radius: 0.015 }, position: s.heldAt, mass: 0.05 });
          s.held = null;
        }
      }
      if (s.held) s.heldAt = s.pointOf(s.held) ?? s.heldAt;
    },
  };
}
