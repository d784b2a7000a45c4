import './buffer-global';
import { beginCell } from '@ton/core';

/**
 * The payload of a TON transfer with a text comment: a cell of 32 zero bits (the text-comment opcode)
 * followed by the UTF-8 text (continued in child cells when long), as a base64 bag of cells.
 */
export function commentPayload(text: string): string {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell().toBoc().toString('base64');
}
