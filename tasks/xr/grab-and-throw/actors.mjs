// Pinch the cube off the stand, lift it, throw it toward the basket.
// Distractor: while the dominant hand lifts the cube, the other hand comes up and pinches briefly. The cube
// belongs to the hand that holds it: an app that takes any hand's release as the throw drops it.
export default function* (a) {
  const hand = a.hand('dominant');
  const other = a.hand('other');
  yield a.wait(0.3);
  yield a.head.lookAt(a.tag('cube'));
  yield hand.grab(a.tag('cube'), { duration: 0.9 });
  yield [
    hand.reach(a.at(0, 1.25, 0.3), { with: 'pinch-point', duration: 0.7 }),
    a.sequence(other.reach(a.at(a.side('other') * 0.25, 1.1, 0.15), { with: 'pinch-point', duration: 0.4 }), other.pinch(), other.release(), other.rest()),
  ];
  yield a.head.lookAt(a.at(0, 0, -0.6));
  yield hand.throw([0, 0.6, -2.0]);
  yield a.wait(0.3);
  yield hand.rest();
}
