// Pinch the cube off the stand, lift it, throw it toward the basket.
export default function* (a) {
  const hand = a.hand('dominant');
  yield a.wait(0.3);
  yield a.head.lookAt(a.tag('cube'));
  yield hand.grab(a.tag('cube'), { duration: 0.9 });
  yield hand.reach(a.at(0, 1.25, 0.3), { with: 'pinch-point', duration: 0.7 });
  yield a.head.lookAt(a.at(0, 0, -0.6));
  yield hand.throw([0, 0.6, -2.0]);
  yield a.wait(0.3);
  yield hand.rest();
}
