// Mistake: one stroke from the first pinch on; releases are ignored.
import { drawing } from './drawing.mjs';
export const { setup, frame } = drawing({ breaks: false });
