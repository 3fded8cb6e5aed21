// Five pokes at the app's button, wherever it put it (closed loop on tag('button')); each should chime there.
// Distractor: before the third poke the user looks up, straight ahead, and pokes without looking at the
// button. A sound placed where the user looks (in front of the head) rather than at the button is then
// 30 cm off; while the user looks at the button the two are close enough to pass for each other.
export default function* (a) {
  const hand = a.hand('dominant');
  yield a.wait(0.5);
  yield a.head.lookAt(a.tag('button'));
  for (let i = 0; i < 5; i++) {
    if (i === 2) yield a.head.turn(0, 0);
    yield hand.poke(a.tag('button'), { depth: 0.015 });
    if (i === 2) yield a.head.lookAt(a.tag('button'));
    yield a.wait(0.3);
  }
  yield hand.rest();
}
