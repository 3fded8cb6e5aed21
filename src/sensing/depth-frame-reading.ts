/**
 * One depth frame's reading as apps get it: read whole (`whole`) or a pixel at a time (`pixel`), and valid
 * for as long as the app keeps it, even after the sensor has taken later frames.
 *
 * While its frame is the sensor's latest, it asks the sensor, which renders and measures only what is read
 * (an app that samples one pixel a frame costs a few rows, not a whole image). Before the sensor's scene
 * changes, the sensor hands it either the finished image or a copy of the scene the frame saw
 * (`DepthSensor.release`); from then on it answers from that, with its own sensor built on first use. Every
 * value is the one the whole image has at that pixel, however and whenever it is read.
 */
import type { DepthPixelSource } from './depth-information.js';
import type { DepthSensor } from './depth-sensor.js';

/** A depth frame's reading, detachable from its sensor. */
export class DepthFrameReading implements DepthPixelSource {
  private image: Uint16Array | null = null;
  private makeSensor: (() => DepthSensor) | null = null;

  constructor(
    private sensor: DepthSensor,
    readonly frameIndex: number,
  ) {}

  pixel(index: number): number {
    if (this.image) return this.image[index];
    return this.source().readingAt(index);
  }

  whole(): Uint16Array {
    return this.image ?? this.source().reading;
  }

  /** The sensor has moved on, having measured this whole frame: answer from its image (a copy). */
  keepImage(image: Uint16Array): void {
    this.image = image;
    this.makeSensor = null;
  }

  /** The sensor is moving on: answer from a private sensor over a copy of this frame's scene, made on first use. */
  keepScene(makeSensor: () => DepthSensor): void {
    this.makeSensor = makeSensor;
  }

  private source(): DepthSensor {
    if (this.makeSensor) {
      this.sensor = this.makeSensor();
      this.makeSensor = null;
    }
    return this.sensor;
  }
}
