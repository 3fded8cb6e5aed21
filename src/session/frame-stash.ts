/**
 * Copies of whole frames, kept while a session steps ahead of its browser page (browser-stepper.ts): each
 * tick's frame is saved after the kernel produced it and restored, exactly, when the page's output for it
 * arrives and the frame commits. Slots are allocated once and reused, batch after batch.
 */
import type { Frame } from '../frame/frame.js';

interface Slot {
  words: Uint32Array;
  events: Uint32Array;
  eventWords: number;
  hasDepth: boolean;
  depthWords: Uint32Array;
  depthStamp: Uint32Array;
}

export class FrameStash {
  private readonly slots: Slot[] = [];
  /** Frames saved since the last {@link clear}. */
  count = 0;

  /** Saves `frame` in the next slot. A depth image is rendered now: the sensor moves on with the next tick. */
  save(frame: Frame): void {
    if (this.count === this.slots.length) {
      this.slots.push({
        words: new Uint32Array(frame.words.length),
        events: new Uint32Array(Math.max(64, frame.eventWords)),
        eventWords: 0,
        hasDepth: false,
        depthWords: new Uint32Array(frame.depthWords.length),
        depthStamp: new Uint32Array(frame.depthStamp.length),
      });
    }
    const slot = this.slots[this.count++];
    slot.words.set(frame.words);
    if (slot.events.length < frame.eventWords) slot.events = new Uint32Array(frame.events.length);
    slot.events.set(frame.events.subarray(0, frame.eventWords));
    slot.eventWords = frame.eventWords;
    slot.hasDepth = frame.hasDepth;
    if (frame.hasDepth) {
      void frame.depthImage; // fills the pixels (the lazy fill reads the sensor's current reading)
      slot.depthWords.set(frame.depthWords);
      slot.depthStamp.set(frame.depthStamp);
    }
  }

  /** Writes slot `index` back into `frame`, as it was when saved. */
  restore(index: number, frame: Frame): void {
    const slot = this.slots[index];
    frame.words.set(slot.words);
    frame.setEvents(slot.events, slot.eventWords);
    frame.hasDepth = slot.hasDepth;
    frame.depthFill = null;
    if (slot.hasDepth) {
      frame.depthWords.set(slot.depthWords);
      frame.depthStamp.set(slot.depthStamp);
    }
  }

  /**
   * Forgets the oldest `count` frames and keeps the `kept` after them, now first (a pipelined session has
   * committed the oldest). The slots are rotated, not reallocated.
   */
  dropOldest(count: number, kept: number): void {
    const slots = this.slots;
    for (let round = 0; round < count; round++) {
      const first = slots[0];
      for (let i = 1; i < slots.length; i++) slots[i - 1] = slots[i];
      slots[slots.length - 1] = first;
    }
    this.count = kept;
  }

  clear(): void {
    this.count = 0;
  }
}
