/**
 * The audio events' payloads (`EventType.AudioStart`, `AudioStop`, `AudioUpdate`): JSON records, written by
 * the app host for in-process apps and for pages alike, and read by validators and exports. Audio events are
 * rare (a sound starts, moves or stops), so JSON's cost does not matter.
 */
import { EventType } from './events.js';
import type { Frame } from './frame.js';
import { readJsonPayload, writeJsonRecord } from './json-record.js';

/** A world position `[x, y, z]`, or null for a sound that is not spatialised (heard at the listener). */
export type AudioPosition = [number, number, number] | null;

/** A voice started: its number in the session, the sound's name, where, how loud, whether it loops. */
export interface AudioStartRecord {
  voice: number;
  sound: string;
  position: AudioPosition;
  gain: number;
  loop: boolean;
}

/** A playing voice changed: only the fields that changed are present. */
export interface AudioUpdateRecord {
  voice: number;
  position?: AudioPosition;
  gain?: number;
}

/** A voice stopped. */
export interface AudioStopRecord {
  voice: number;
}

export function writeAudioStart(frame: Frame, record: AudioStartRecord): void {
  writeJsonRecord(frame, EventType.AudioStart, [], record);
}

export function writeAudioUpdate(frame: Frame, record: AudioUpdateRecord): void {
  writeJsonRecord(frame, EventType.AudioUpdate, [], record);
}

export function writeAudioStop(frame: Frame, record: AudioStopRecord): void {
  writeJsonRecord(frame, EventType.AudioStop, [], record);
}

/** Whether a record type is one of the audio events. */
export function isAudioEvent(type: number): boolean {
  return type === EventType.AudioStart || type === EventType.AudioStop || type === EventType.AudioUpdate;
}

/** The payload of an audio event record (its words after the header). */
export function readAudioRecord<T extends AudioStartRecord | AudioUpdateRecord | AudioStopRecord>(payload: readonly number[]): T {
  return readJsonPayload<T>(payload, 0);
}
