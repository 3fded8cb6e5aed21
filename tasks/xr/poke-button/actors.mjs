// Five pokes at the app's button, wherever it put it (closed loop on tag('button')).
export default function* (a) {
  yield a.wait(0.5);
  yield a.head.lookAt(a.tag('button'));
  for (let i = 0; i < 5; i++) {
    yield a.hand('dominant').poke(a.tag('button'), { depth: 0.015 });
    yield a.wait(0.25);
  }
  yield a.hand('dominant').rest();
}
