/**
 * A relay that replays a recorded browser app into a second session: the scoring pass of
 * `runBrowserApp` (scored-run.ts).
 *
 * The first pass ran the page open loop, batch after batch: the page's outputs reached that session late.
 * This relay runs in a fresh session with the same spec and applies the page's output of tick N in tick N
 * (what phase 2's closed loop will do), while serving the page's requests (hit-test sources, anchors) at
 * the ticks the first pass served them, so that the page's inputs stay what they were. It encodes every
 * tick's input again and checks it against the recorded one: any difference (an actor that followed a tag
 * the page published, now seen earlier) is a divergence, and the replay does not stand for the page.
 */
import type { AppContext, XrFrameLike } from '../app/types.js';
import type { TickInput, TickOutput } from './protocol.js';
import { BrowserRelay } from './relay.js';

/** What the first pass recorded: the inputs the page got, its outputs, and when each output was applied. */
export interface RecordedPage {
  inputs: TickInput[];
  outputs: TickOutput[];
  appliedAt: ReadonlyMap<number, number>;
}

/** The first tick whose input differs from the recorded one, and the protocol field that differs. */
export interface ReplayDivergence {
  tick: number;
  field: string;
}

export class ReplayRelay extends BrowserRelay {
  private readonly inputByTick = new Map<number, TickInput>();
  private readonly outputByTick = new Map<number, TickOutput>();
  /** Page outputs whose requests the first pass served, by the tick it served them. */
  private readonly servedAt = new Map<number, TickOutput[]>();
  /** The first divergence, or null while the replay matches the recording. */
  divergence: ReplayDivergence | null = null;
  /** Ticks whose input matched the recording. */
  matched = 0;

  constructor(dt: number, recorded: RecordedPage) {
    super(dt);
    for (const input of recorded.inputs) this.inputByTick.set(input.k, input);
    for (const output of recorded.outputs) {
      this.outputByTick.set(output.k, output);
      const tick = recorded.appliedAt.get(output.k);
      if (tick === undefined || output.requests.length === 0) continue;
      if (!this.servedAt.has(tick)) this.servedAt.set(tick, []);
      this.servedAt.get(tick)!.push(output);
    }
  }

  protected override receive(xr: XrFrameLike): void {
    for (const output of this.servedAt.get(xr.tick) ?? []) this.deferred.push(...output.requests);
  }

  protected override deliver(input: TickInput, ctx: AppContext): void {
    const recorded = this.inputByTick.get(input.k);
    if (this.divergence) return;
    const field = recorded ? differingField(input, recorded) : 'tick';
    if (field !== null) {
      this.divergence = { tick: input.k, field };
      return;
    }
    this.matched++;
    const output = this.outputByTick.get(input.k);
    if (output) this.applyState(output, ctx);
  }
}

/** The first field of two tick inputs that differs, or null when they are identical. */
function differingField(a: TickInput, b: TickInput): string | null {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    if (JSON.stringify(a[key as keyof TickInput]) !== JSON.stringify(b[key as keyof TickInput])) return key;
  }
  return null;
}
