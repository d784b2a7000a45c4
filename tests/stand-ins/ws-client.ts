import { createRequire } from 'node:module';

// Node 20 has no global WebSocket yet; `ws` (installed with @fastify/websocket) implements the same
// standard interface, which the DOM typings describe. It ships no types of its own, hence the require.
const requireCjs = createRequire(import.meta.url);
const WS = requireCjs('ws') as typeof WebSocket;

/** A test's WebSocket client: collects JSON messages and the close code. */
export interface TestSocket {
  messages: Record<string, unknown>[];
  /** resolves with the close code once the socket closes */
  closed: Promise<number>;
  isClosed(): boolean;
  send(message: unknown): void;
  /** the first message (already received or arriving within timeoutMs) of the given type */
  next(type: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): void;
}

export function openSocket(url: string): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WS(url);
    const messages: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    let closedFlag = false;
    const closed = new Promise<number>((done) => {
      ws.addEventListener('close', (ev) => {
        closedFlag = true;
        done(ev.code);
        for (const w of waiters.splice(0)) w();
      });
    });
    ws.addEventListener('message', (ev) => {
      const data = ev.data as unknown;
      const text = typeof data === 'string' ? data : String(data);
      messages.push(JSON.parse(text) as Record<string, unknown>);
      for (const w of waiters.splice(0)) w();
    });
    ws.addEventListener('error', () => reject(new Error(`WebSocket ${url} failed`)));
    ws.addEventListener('open', () =>
      resolve({
        messages,
        closed,
        isClosed: () => closedFlag,
        send: (message) => ws.send(JSON.stringify(message)),
        close: () => ws.close(),
        next(type, timeoutMs = 5000) {
          return new Promise((found, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no ${type} message within ${timeoutMs} ms`)),
              timeoutMs,
            );
            const check = () => {
              const m = messages.find((x) => x.type === type);
              if (m) {
                clearTimeout(timer);
                found(m);
              } else if (closedFlag) {
                clearTimeout(timer);
                fail(new Error(`socket closed before a ${type} message`));
              } else waiters.push(check);
            };
            check();
          });
        },
      }),
    );
  });
}
