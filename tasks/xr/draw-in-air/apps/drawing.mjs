// The air-drawing app and its variations: which hand point is the pen, whether a release ends a stroke, and
// whose release does.
import { xr } from 'xrsim';

export function drawing({ pen = 'pinch', breaks = true, endedBy = 'drawer' } = {}) {
  const penOf = (source) => (pen === 'pinch' ? xr.pinchPoint(source) : xr.joint(source, 'wrist'));
  return {
    setup(ctx) {
      ctx.state.drawing = null; // the source drawing
      ctx.state.stroke = [];
      ctx.state.strokes = [];
      ctx.state.at = null;
      ctx.tag('pen', 'pen', () => (ctx.state.drawing ? ctx.state.at : null));
    },
    frame(frame, ctx) {
      const s = ctx.state;
      for (const event of frame.events) {
        if (event.type === 'selectstart' && !s.drawing && event.inputSource.hand) {
          s.drawing = event.inputSource;
          s.stroke = [];
        } else if (event.type === 'selectend' && s.drawing && (endedBy === 'any' || s.drawing === event.inputSource) && breaks) {
          s.strokes.push(s.stroke);
          ctx.emit('stroke-end', { points: s.stroke.length });
          s.drawing = null;
        }
      }
      if (!s.drawing) return;
      const p = penOf(s.drawing);
      if (!p) return;
      s.at = p;
      s.stroke.push(p);
    },
  };
}
