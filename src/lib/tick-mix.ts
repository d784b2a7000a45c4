/**
 * A spin's ticks as the audio thread plays them (see tick-player.worklet.ts): the tick's samples started at
 * given sample frames, mixed block by block into the output. Plain code with no audio API, so it is tested
 * as it runs.
 */

/** One play's ticks: start frames, ascending, and the first one not yet over. */
export interface TickPlay {
  starts: Float64Array;
  next: number;
}

/**
 * Adds `sound` started at each of the play's starts into `out`, whose first sample is frame `from`: every
 * part of a tick that falls in [from, from + out.length), ticks that overlap summed. Moves `next` past the
 * ticks that are over by the end of the block; returns whether any tick is still to sound.
 */
export function mixTicks(out: Float32Array, from: number, sound: Float32Array, play: TickPlay): boolean {
  const to = from + out.length;
  const { starts } = play;
  for (let i = play.next; i < starts.length; i++) {
    const start = Math.round(starts[i]!);
    if (start >= to) break;
    const soundFrom = Math.max(from - start, 0);
    const soundTo = Math.min(to - start, sound.length);
    for (let s = soundFrom, o = start + soundFrom - from; s < soundTo; s++, o++) out[o] = out[o]! + sound[s]!;
  }
  // the ticks over by the end of this block are not looked at again
  while (play.next < starts.length && Math.round(starts[play.next]!) + sound.length <= to) play.next += 1;
  return play.next < starts.length;
}
