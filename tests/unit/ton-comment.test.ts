import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Address, beginCell, Cell } from '@ton/core';
import { commentCell, commentPayload, parseCommentPayload } from '../../server/payments/ton-comment.ts';
import { backoffDelay, classifyTransaction, normalizeTxHash } from '../../server/payments/ton-watcher.ts';
import type { ToncenterTransaction } from '../../server/payments/toncenter.ts';

describe('TON text comment payload', () => {
  it('is a cell of 32 zero bits then the text, as a base64 BOC, and reads back', () => {
    const boc = commentPayload('gc-abc234xyz');
    const cell = Cell.fromBase64(boc);
    const slice = cell.beginParse();
    expect(slice.loadUint(32)).toBe(0);
    expect(slice.loadStringTail()).toBe('gc-abc234xyz');
    expect(parseCommentPayload(boc)).toBe('gc-abc234xyz');
    // the same bytes @ton/core builds directly
    expect(boc).toBe(
      beginCell().storeUint(0, 32).storeStringTail('gc-abc234xyz').endCell().toBoc().toString('base64'),
    );
    expect(commentCell('gc-abc234xyz').equals(cell)).toBe(true);
  });

  it('round-trips long and non-ASCII comments across continuation cells', () => {
    for (const text of [
      '',
      'a',
      'x'.repeat(123),
      'y'.repeat(124),
      'z'.repeat(1000),
      'Пополнение 💎 баланса',
    ]) {
      expect(parseCommentPayload(commentPayload(text))).toBe(text);
    }
    expect(Cell.fromBase64(commentPayload('z'.repeat(1000))).refs.length).toBe(1);
  });

  it('reads anything that is not a text comment as null', () => {
    const opcode = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(0, 64)
      .endCell()
      .toBoc()
      .toString('base64');
    expect(parseCommentPayload(opcode)).toBeNull();
    expect(parseCommentPayload(beginCell().endCell().toBoc().toString('base64'))).toBeNull();
    expect(parseCommentPayload('not base64 at all!')).toBeNull();
    expect(parseCommentPayload('')).toBeNull();
  });
});

describe('incoming transaction classification', () => {
  const wallet = new Address(0, Buffer.alloc(32, 7));
  const sender = new Address(0, Buffer.alloc(32, 9));
  const hash = randomBytes(32);
  const tx = (
    over: Partial<ToncenterTransaction> = {},
    msg: Record<string, unknown> = {},
  ): ToncenterTransaction => ({
    account: wallet.toRawString().toUpperCase(),
    hash: hash.toString('base64'),
    lt: '47000000000001',
    now: 1_760_000_000,
    description: { aborted: false, compute_ph: { success: true } },
    in_msg: {
      source: sender.toRawString().toUpperCase(),
      destination: wallet.toRawString().toUpperCase(),
      value: '2500000000',
      bounced: false,
      message_content: {
        body: commentPayload('gc-k7m2p9q4rs'),
        decoded: { type: 'text_comment', comment: 'gc-k7m2p9q4rs' },
      },
      ...msg,
    },
    out_msgs: [],
    ...over,
  });

  it('takes a plain incoming transfer with a comment', () => {
    expect(classifyTransaction(tx(), wallet)).toEqual({
      transfer: {
        hashHex: hash.toString('hex'),
        lt: 47000000000001n,
        comment: 'gc-k7m2p9q4rs',
        amountNano: 2_500_000_000n,
        source: sender.toRawString().toUpperCase(),
      },
    });
    // toncenter did not decode the body: the watcher reads the cell itself
    const undecoded = tx({}, { message_content: { body: commentPayload('gc-k7m2p9q4rs'), decoded: null } });
    expect(classifyTransaction(undecoded, wallet)).toMatchObject({ transfer: { comment: 'gc-k7m2p9q4rs' } });
  });

  it('skips bounced, with out-messages, aborted, external, foreign, empty and comment-less ones', () => {
    const skip = (t: ToncenterTransaction) => (classifyTransaction(t, wallet) as { skip?: string }).skip;
    expect(skip(tx({}, { bounced: true }))).toBe('bounced');
    expect(skip(tx({ out_msgs: [{ source: null, destination: null, value: '1' }] }))).toBe(
      'has out-messages',
    );
    expect(skip(tx({ description: { aborted: true } }))).toBe('aborted');
    expect(skip(tx({ in_msg: null }))).toBe('no internal in-message');
    expect(skip(tx({}, { source: null, value: null }))).toBe('no internal in-message');
    expect(skip(tx({}, { destination: sender.toRawString() }))).toBe('not to this address');
    expect(skip(tx({}, { value: '0' }))).toBe('zero value');
    expect(
      skip(
        tx(
          {},
          { message_content: { body: beginCell().endCell().toBoc().toString('base64'), decoded: null } },
        ),
      ),
    ).toBe('no text comment');
  });

  it('normalises transaction hashes to lower-case hex', () => {
    const h = randomBytes(32);
    expect(normalizeTxHash(h.toString('base64'))).toBe(h.toString('hex'));
    expect(normalizeTxHash(h.toString('base64url'))).toBe(h.toString('hex'));
    expect(normalizeTxHash(h.toString('hex').toUpperCase())).toBe(h.toString('hex'));
    expect(normalizeTxHash('abc')).toBeNull();
  });
});

describe('TON watcher backoff', () => {
  it('doubles from the interval, is capped, and lets a longer Retry-After win within the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, 5000, 60_000))).toEqual([
      10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    expect(backoffDelay(1000, 5000, 60_000)).toBe(60_000);
    expect(backoffDelay(1, 5000, 60_000, 30_000)).toBe(30_000);
    expect(backoffDelay(1, 5000, 60_000, 600_000)).toBe(60_000);
    expect(backoffDelay(3, 5000, 60_000, 1000)).toBe(40_000);
    // a cap below the interval never makes polling faster than the interval
    expect(backoffDelay(2, 5000, 1000)).toBe(5000);
  });
});
