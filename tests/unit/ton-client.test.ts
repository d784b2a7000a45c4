import { Address, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { commentPayload } from '../../src/lib/ton-comment';
import { buttonAddress, profileAddress, shortenAddress } from '../../src/lib/ton';

// The client's TON helpers: the text-comment payload cell and the two shortened address forms.
// (Amounts: tests/unit/money.test.ts.)

describe('commentPayload: a text-comment cell as a base64 BOC', () => {
  for (const text of ['gc-12345', 'Привет, TON! 🎁', '', 'x'.repeat(300)]) {
    it(`round-trips ${JSON.stringify(text.length > 20 ? `${text.slice(0, 10)}… (${text.length})` : text)}`, () => {
      const boc = commentPayload(text);
      expect(boc).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      const slice = Cell.fromBase64(boc).beginParse();
      expect(slice.loadUint(32)).toBe(0);
      expect(slice.loadStringTail()).toBe(text);
    });
  }

  it('is the same cell @ton/core builds for a comment', () => {
    const cell = Cell.fromBase64(commentPayload('deposit'));
    expect(cell.bits.length).toBe(32 + 8 * 'deposit'.length);
    expect(cell.refs).toHaveLength(0);
  });
});

describe('address shortening', () => {
  const friendly = Address.parseRaw(`0:${'5a'.repeat(32)}`).toString({ bounceable: false });

  it('the button shows the first 4, an ellipsis, the last 4', () => {
    expect(friendly).toHaveLength(48);
    expect(buttonAddress(friendly)).toBe(`${friendly.slice(0, 4)}…${friendly.slice(-4)}`);
    expect(buttonAddress('UQBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWgYv')).toBe('UQBa…WgYv');
  });

  it("the profile shows the first 6, '...', the last 5", () => {
    expect(profileAddress(friendly)).toBe(`${friendly.slice(0, 6)}...${friendly.slice(-5)}`);
    expect(profileAddress('UQBaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWgYv')).toBe('UQBaWl...aWgYv');
  });

  it('leaves short strings whole', () => {
    expect(shortenAddress('abcdefgh', 4, 4, '…')).toBe('abcdefgh');
    expect(shortenAddress('abcdefghi', 4, 4, '…')).toBe('abcd…fghi');
    expect(profileAddress('')).toBe('');
  });
});
