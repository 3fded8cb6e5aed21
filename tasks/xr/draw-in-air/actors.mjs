// Draw a square, release, then draw a line below it.
// Distractor: while the square is being drawn, the other hand comes up and pinches briefly. Only the drawing
// hand's release ends its stroke: an app that listens to either hand cuts the square short.
export default function* (a) {
  const hand = a.hand('dominant');
  const other = a.hand('other');
  const pen = { with: 'pinch-point', speed: 0.25 };
  yield a.wait(0.3);
  yield hand.reach(a.at(-0.08, 0.45, 0.08), { with: 'pinch-point', duration: 0.8 });
  yield hand.pinch();
  yield [
    hand.trace([[-0.08, 0.45, 0.08], [0.08, 0.45, 0.08], [0.08, 0.3, 0.08], [-0.08, 0.3, 0.08], [-0.08, 0.45, 0.08]], pen),
    a.sequence(other.reach(a.at(a.side('other') * 0.22, 0.3, 0.12), { with: 'pinch-point', duration: 0.5 }), other.pinch(), other.release(), other.rest()),
  ];
  yield hand.release();
  yield hand.reach(a.at(-0.08, 0.24, 0.1), { with: 'pinch-point', duration: 0.5 });
  yield hand.pinch();
  yield hand.trace([[-0.08, 0.24, 0.1], [0.08, 0.24, 0.1]], pen);
  yield hand.release();
  yield hand.rest();
}
