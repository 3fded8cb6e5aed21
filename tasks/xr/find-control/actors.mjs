// The layout changes with the seed, so no fixed script can know where the settings button is: an agent
// finds it (from the app's tags and the user's view), looks at it if it is off to the side, and presses it.
// Distractor: first the finger hovers 1 cm in front of the close button and draws back. A hover is not a
// press: an app that counts a finger inside a volume in front of a button presses close.
export default function* (a) {
  yield a.wait(0.4);
  yield a.hand('dominant').poke(a.tag('close-button'), { depth: -0.01 });
  yield a.agent('press the settings button', { maxSteps: 6 });
  yield a.hand('dominant').rest();
}
