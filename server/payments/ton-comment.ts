import { beginCell, Cell } from '@ton/core';

/**
 * TON text comments. A comment travels as a message body cell: 32 zero bits (op = 0, "text comment"),
 * then the UTF-8 text, continued in reference cells when longer than one cell holds ("string tail").
 * Wallets and TON Connect take the body as a base64 bag of cells (BOC).
 */

/** The body cell of a text comment. */
export function commentCell(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

/** The base64 BOC of a text comment body: what a TON Connect message's `payload` carries. */
export function commentPayload(text: string): string {
  return commentCell(text).toBoc().toString('base64');
}

/** The text of a base64 BOC message body when it is a text comment (op 0); null for anything else. */
export function parseCommentPayload(boc: string): string | null {
  let cell: Cell;
  try {
    const cells = Cell.fromBoc(Buffer.from(boc, 'base64'));
    if (cells.length !== 1) return null;
    cell = cells[0]!;
  } catch {
    return null;
  }
  try {
    const slice = cell.beginParse();
    if (slice.remainingBits < 32 || slice.loadUint(32) !== 0) return null;
    return slice.loadStringTail();
  } catch {
    return null;
  }
}
