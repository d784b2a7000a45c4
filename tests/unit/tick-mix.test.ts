import { describe, expect, it } from 'vitest';
import { mixTicks, type TickPlay } from '../../src/lib/tick-mix.ts';

/** Plays `starts` block by block (128 frames, as the audio thread asks) over `frames`, as one output. */
function render(sound: Float32Array, starts: number[], frames: number, from = 0) {
  const play: TickPlay = { starts: Float64Array.from(starts), next: 0 };
  const out = new Float32Array(frames);
  const blocks: boolean[] = [];
  for (let at = 0; at < frames; at += 128) {
    const block = new Float32Array(Math.min(128, frames - at));
    blocks.push(mixTicks(block, from + at, sound, play));
    out.set(block, at);
  }
  return { out, play, blocks };
}

const sound = Float32Array.from({ length: 300 }, (_, i) => (i + 1) / 1000);

describe('mixTicks', () => {
  it('puts each tick’s samples at its start frame, across block edges', () => {
    const { out } = render(sound, [100, 1000], 1500);
    expect(out[99]).toBe(0);
    expect(out[100]).toBeCloseTo(sound[0]!);
    // the first tick runs from frame 100 over the 128-frame edge to 399
    expect(out[127]).toBeCloseTo(sound[27]!);
    expect(out[128]).toBeCloseTo(sound[28]!);
    expect(out[399]).toBeCloseTo(sound[299]!);
    expect(out[400]).toBe(0);
    expect(out[1000]).toBeCloseTo(sound[0]!);
    expect(out[1299]).toBeCloseTo(sound[299]!);
    expect(out[1300]).toBe(0);
    // nothing else was written
    const written = out.reduce((n, v) => n + (v !== 0 ? 1 : 0), 0);
    expect(written).toBe(600);
  });

  it('sums ticks that overlap', () => {
    const { out } = render(sound, [0, 100], 512);
    expect(out[50]).toBeCloseTo(sound[50]!);
    expect(out[150]).toBeCloseTo(sound[150]! + sound[50]!);
    expect(out[350]).toBeCloseTo(sound[250]!);
  });

  it('plays the rest of a tick whose start has just passed, and none of one long over', () => {
    // the output starts at frame 1000: the tick at 900 is 100 frames in, the one at 100 is over
    const { out } = render(sound, [100, 900], 256, 1000);
    expect(out[0]).toBeCloseTo(sound[100]!);
    expect(out[199]).toBeCloseTo(sound[299]!);
    expect(out[200]).toBe(0);
  });

  it('moves past ticks that are over and says when the play is done', () => {
    const { play, blocks } = render(sound, [0, 200], 1024);
    expect(play.next).toBe(2);
    // the second tick ends at frame 500: the fourth block (384..511) is the last with one to sound
    expect(blocks.slice(0, 3).every(Boolean)).toBe(true);
    expect(blocks.indexOf(false)).toBe(3);
    expect(blocks.slice(3).every((b) => !b)).toBe(true);
  });

  it('leaves a block before the first tick silent and the play pending', () => {
    const { out, blocks, play } = render(sound, [5000], 256);
    expect(out.every((v) => v === 0)).toBe(true);
    expect(blocks.every(Boolean)).toBe(true);
    expect(play.next).toBe(0);
  });
});
