import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, pack } from '../../server/realtime/bus.ts';
import { newBetId } from '../../server/games/proofs.ts';

const message = (n: number, bytes: number) => {
  const head = JSON.stringify({ i: 'instance', c: 'drops', p: { n, pad: '' }, n });
  return JSON.stringify({ i: 'instance', c: 'drops', p: { n, pad: 'x'.repeat(bytes - head.length) }, n });
};
const unpack = (texts: string[]) =>
  texts.flatMap((text) => {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed : [parsed];
  });

describe('pack: bus messages to NOTIFY payloads', () => {
  it('sends a lone message as it is, and nothing for nothing', () => {
    const one = message(1, 300);
    expect(pack([one])).toEqual([one]);
    expect(pack([])).toEqual([]);
  });

  it('packs many into few payloads, each within the limit, in order', () => {
    const messages = Array.from({ length: 500 }, (_, n) => message(n, 350));
    const packs = pack(messages);
    expect(packs.length).toBeLessThanOrEqual(Math.ceil((500 * 351) / (MAX_MESSAGE_BYTES - 2)) + 1);
    for (const text of packs) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(unpack(packs)).toEqual(messages.map((m) => JSON.parse(m) as unknown));
  });

  it('counts bytes, not characters, and keeps a message of the largest size alone', () => {
    const wide = Array.from({ length: 40 }, (_, n) => JSON.stringify({ n, p: '🎁'.repeat(100) }));
    const packs = pack(wide);
    for (const text of packs) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(unpack(packs)).toEqual(wide.map((m) => JSON.parse(m) as unknown));
    const largest = message(0, MAX_MESSAGE_BYTES);
    expect(Buffer.byteLength(largest)).toBe(MAX_MESSAGE_BYTES);
    const small = message(1, 100);
    expect(pack([small, largest, small])).toEqual([small, largest, small]);
  });
});

describe('newBetId', () => {
  it('gives 12 URL-safe characters, no two alike across several refills of its random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newBetId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
