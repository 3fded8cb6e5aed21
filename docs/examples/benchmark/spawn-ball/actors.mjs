// The user pinches twice with the dominant hand, in two places, letting go in between.
export default function* (a) {
  const hand = a.hand('dominant');
  yield a.wait(0.3);
  yield hand.reach(a.at(0, 0.3, 0.12), { with: 'pinch-point', duration: 0.8 });
  yield hand.pinch();
  yield a.wait(0.3);
  yield hand.release();
  yield hand.reach(a.at(a.side('dominant') * 0.08, 0.34, 0.08), { with: 'pinch-point', duration: 0.6 });
  yield hand.pinch();
  yield a.wait(0.3);
  yield hand.release();
  yield a.wait(0.4);
  yield hand.rest();
}
