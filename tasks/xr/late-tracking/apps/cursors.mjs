// The fingertip-cursor app and its variations: how it finds the hands.
import { xr } from 'xrsim';

export function cursors({ find = 'every-frame' } = {}) {
  return {
    setup(ctx) {
      ctx.state.tips = { left: null, right: null };
      for (const side of ['left', 'right']) ctx.tag(`cursor-${side}`, `cursor-${side}`, () => ctx.state.tips[side]);
    },
    frame(frame, ctx) {
      const s = ctx.state;
      if (find === 'assume') {
        // Written for a headset whose hands are always there.
        const right = frame.inputSources.find((source) => source.handedness === 'right' && source.profiles.includes('generic-hand'));
        s.tips.right = xr.vec(right.hand.get('index-finger-tip').transform.position);
        const left = frame.inputSources.find((source) => source.handedness === 'left' && source.profiles.includes('generic-hand'));
        s.tips.left = xr.vec(left.hand.get('index-finger-tip').transform.position);
        return;
      }
      if (find === 'by-order') {
        // Written for a headset that always lists the left hand first and the right hand second.
        const hands = frame.inputSources.filter((source) => source.hand);
        s.tips.left = hands[0] ? xr.joint(hands[0], 'index-finger-tip') : null;
        s.tips.right = hands[1] ? xr.joint(hands[1], 'index-finger-tip') : null;
        return;
      }
      if (find === 'once' && !s.sources) s.sources = [...frame.inputSources];
      const sources = find === 'once' ? s.sources : frame.inputSources;
      for (const side of ['left', 'right']) {
        const source = xr.handSource(sources, side);
        s.tips[side] = source ? xr.joint(source, 'index-finger-tip') : null;
      }
    },
  };
}
