import type { FastifyBaseLogger } from 'fastify';

/** A background job of this instance: runs now, then every `everyMs` or when kicked, until stopped. */
export interface JobLoop {
  /** run again soon (new work arrived) */
  kick(): void;
  /** aborts the run under way (its calls get the abort signal) and waits for it to end */
  stop(): Promise<void>;
}

export function startLoop(
  name: string,
  everyMs: number,
  work: (signal: AbortSignal) => Promise<unknown>,
  log?: FastifyBaseLogger,
): JobLoop {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  let kicked = false;
  const run = (async () => {
    while (!abort.signal.aborted) {
      kicked = false;
      try {
        await work(abort.signal);
      } catch (err) {
        if (!abort.signal.aborted)
          log?.error({ err, job: name }, 'background job failed; it runs again later');
      }
      if (abort.signal.aborted) break;
      if (kicked) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, everyMs);
      });
      wake = null;
    }
  })();
  return {
    kick() {
      kicked = true;
      if (timer) clearTimeout(timer);
      wake?.();
    },
    async stop() {
      abort.abort();
      if (timer) clearTimeout(timer);
      wake?.();
      await run;
    },
  };
}
