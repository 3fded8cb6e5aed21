// The pinch point draws; a release ends the stroke.
import { drawing } from './drawing.mjs';
export const { setup, frame } = drawing();
