/**
 * The page's end of the host's tick channel (`src/browser/tick-socket.ts`): a WebSocket to the loopback
 * URL the host put in the shim's configuration, opened when the shim installs, before any page script.
 * Each message from the host is a `TickInput[]` (JSON); the answer is `{ "o": TickOutput[] }`, or
 * `{ "e": message }` when the handle threw. The host still reaches the same handle over DevTools when
 * this channel is not connected (a page whose CSP forbids it, a browser on another machine).
 *
 * The socket and the functions it uses are captured here, so page scripts that run later can neither
 * reach the socket nor change what it sends.
 */
import type { BridgeState, TickInput, TickOutput } from '../protocol.js';

/** Opens the channel; returns where it stands now (`PageStatus.bridge`). */
export function connectBridge(win: Window & typeof globalThis, url: string, tick: (batch: TickInput[]) => Promise<TickOutput[]>): () => BridgeState {
  // Only the top-level page: frames inside it run their own shim but are not the app the host drives; nor
  // the empty document a tab starts with (the page replaces it at once, and the host accepts one page).
  if (win.top !== win || !/^https?:$/.test(win.location.protocol) || typeof win.WebSocket !== 'function') return () => 'none';
  const { parse, stringify } = JSON;
  const send = win.WebSocket.prototype.send;
  let socket: WebSocket;
  try {
    socket = new win.WebSocket(url);
  } catch {
    return () => 'closed'; // refused (a Content-Security-Policy): the host drives the page over DevTools
  }
  let state: BridgeState = 'connecting';
  socket.onopen = () => (state = 'open');
  socket.onclose = () => (state = 'closed');
  // The host may send the next batches before an answer (a pipelined session); the chain answers in order.
  let queue: Promise<void> = Promise.resolve();
  socket.onmessage = (message: MessageEvent) => {
    const text = message.data;
    queue = queue.then(async () => {
      let answer: string;
      try {
        answer = stringify({ o: await tick(parse(text as string) as TickInput[]) });
      } catch (error) {
        answer = stringify({ e: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      }
      send.call(socket, answer);
    });
  };
  return () => state;
}
