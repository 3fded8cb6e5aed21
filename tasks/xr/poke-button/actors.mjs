// Five pokes at the app's button, wherever it put it (closed loop on tag('button')).
// Distractor: first the finger hovers 1 cm in front of the button's face and draws back. A hover is not a
// press: an app that counts the finger's overlap with a volume in front of the button counts six.
export default function* (a) {
  const hand = a.hand('dominant');
  yield a.wait(0.5);
  yield a.head.lookAt(a.tag('button'));
  yield hand.poke(a.tag('button'), { depth: -0.01 });
  yield a.wait(0.25);
  for (let i = 0; i < 5; i++) {
    yield hand.poke(a.tag('button'), { depth: 0.015 });
    yield a.wait(0.25);
  }
  yield hand.rest();
}
