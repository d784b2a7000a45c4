/**
 * The tick player on the audio thread (an AudioWorklet): it holds the tick's samples and plays each spin's
 * ticks at the audio-clock times the page posts once as the spin starts. The page's main thread only posts
 * those times: no buffer of the whole spin is made, filled and copied there as the motion starts (a 5 s
 * spin's track was ~20 ms of a slow phone's main thread, right in its first frames).
 *
 * Messages from the page:
 *  - `{ type: 'sound', samples }`: the tick, mono, at the context's sample rate;
 *  - `{ type: 'play', id, starts }`: ticks at these audio-clock times (seconds, ascending);
 *  - `{ type: 'stop', id }`: the play's ticks still to come are not heard.
 */
import { mixTicks, type TickPlay } from './tick-mix.ts';

// the AudioWorkletGlobalScope's names (the DOM library has no types for them)
declare const sampleRate: number;
declare const currentFrame: number;
declare function registerProcessor(name: string, processor: unknown): void;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}

type TickPlayerMessage =
  | { type: 'sound'; samples: Float32Array }
  | { type: 'play'; id: number; starts: readonly number[] }
  | { type: 'stop'; id: number };

class TickPlayer extends AudioWorkletProcessor {
  private sound: Float32Array = new Float32Array(0);
  private plays = new Map<number, TickPlay>();

  constructor() {
    super();
    this.port.onmessage = (event: MessageEvent<TickPlayerMessage>) => {
      const message = event.data;
      if (message.type === 'sound') this.sound = message.samples;
      else if (message.type === 'play')
        this.plays.set(message.id, {
          starts: Float64Array.from(message.starts, (seconds) => seconds * sampleRate),
          next: 0,
        });
      else this.plays.delete(message.id);
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const out = outputs[0]?.[0];
    if (out) {
      for (const [id, play] of this.plays) {
        if (!mixTicks(out, currentFrame, this.sound, play)) this.plays.delete(id);
      }
    }
    // kept alive while the page holds the node
    return true;
  }
}

registerProcessor('tick-player', TickPlayer);
