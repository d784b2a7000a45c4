import { Address, Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { commentPayload } from '../../src/lib/ton-comment';
import { buttonAddress, nanoToTonText, profileAddress, shortenAddress, tonToNano } from '../../src/lib/ton';

// The client's TON helpers: exact nanoTON from the typed amount, the text-comment payload cell, and the
// two shortened address forms.

describe('tonToNano: floor(amount × 1e9) as a string, without float error', () => {
  it('converts whole and decimal amounts', () => {
    expect(tonToNano('1')).toBe('1000000000');
    expect(tonToNano('2.5')).toBe('2500000000');
    expect(tonToNano('0.01')).toBe('10000000');
    expect(tonToNano('1.234567891')).toBe('1234567891');
    expect(tonToNano('.5')).toBe('500000000');
    expect(tonToNano('3.')).toBe('3000000000');
    expect(tonToNano('007.100')).toBe('7100000000');
    expect(tonToNano('0')).toBe('0');
  });

  it('reads what float arithmetic gives, digit by digit (0.1 + 0.2 style inputs)', () => {
    expect(0.1 + 0.2).toBe(0.30000000000000004);
    expect(tonToNano(0.1 + 0.2)).toBe('300000000');
    expect(tonToNano('0.30000000000000004')).toBe('300000000');
    // a naive Math.floor(x * 1e9) is off by one here
    expect(Math.floor(8.2 * 1e9)).toBe(8199999999);
    expect(tonToNano(8.2)).toBe('8200000000');
    expect(Math.floor(1.005 * 1e9)).toBe(1004999999);
    expect(tonToNano('1.005')).toBe('1005000000');
    expect(tonToNano(0.29)).toBe('290000000');
  });

  it('floors digits past the ninth decimal', () => {
    expect(tonToNano('1.9999999999')).toBe('1999999999');
    expect(tonToNano('0.0000000019')).toBe('1');
  });

  it('handles large amounts exactly', () => {
    expect(tonToNano('1000000')).toBe('1000000000000000');
    expect(tonToNano(1e6)).toBe('1000000000000000');
    expect(tonToNano('123456789.123456789')).toBe('123456789123456789');
    expect(tonToNano('99999999999.999999999')).toBe('99999999999999999999');
  });

  it('handles tiny amounts: 1e-9 is one nanoTON, 1e-10 floors to 0', () => {
    expect(tonToNano(1e-9)).toBe('1');
    expect(tonToNano('1e-9')).toBe('1');
    expect(tonToNano('0.000000001')).toBe('1');
    expect(tonToNano(1e-10)).toBe('0');
    expect(tonToNano('0.0000000001')).toBe('0');
    expect(tonToNano(2.5e-9)).toBe('2');
  });

  it('accepts exponent forms (what String(number) gives)', () => {
    expect(tonToNano('1e3')).toBe('1000000000000');
    expect(tonToNano('1.5E+2')).toBe('150000000000');
    expect(tonToNano(1e21)).toBe('1' + '0'.repeat(30));
  });

  it('rejects what is not a non-negative decimal', () => {
    for (const bad of ['', ' ', '-1', 'abc', '1,5', '1.2.3', 'e5', '.', NaN, Infinity, -0.5]) {
      expect(tonToNano(bad as string | number), String(bad)).toBeNull();
    }
  });

  it('turns nanoTON back into TON text', () => {
    expect(nanoToTonText('1234567891')).toBe('1.234567891');
    expect(nanoToTonText(1500000000n)).toBe('1.5');
    expect(nanoToTonText('0')).toBe('0');
    expect(nanoToTonText('1')).toBe('0.000000001');
  });
});

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
