import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cryptoPaySignature, verifyCryptoPaySignature } from '../../server/payments/cryptopay.ts';

// A fixed vector, computed outside this code base with coreutils and OpenSSL:
//   KEY=$(printf '%s' "$TOKEN" | sha256sum | cut -d' ' -f1)
//   printf '%s' "$BODY" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KEY
const TOKEN = '10374:AAdYwxXhzQxJ8eQ7tRxV2cQvZz4dQeXfS1a';
const BODY =
  '{"update_id":4021,"update_type":"invoice_paid","request_date":"2026-11-22T12:00:00.000Z",' +
  '"payload":{"invoice_id":528,"status":"paid","asset":"TON","amount":"1.5",' +
  '"payload":"7d1e4b9a-0c3f-4a55-9d7e-2f7a1c0b6e11"}}';
const SECRET_KEY = 'f4052ca66fc9213a509f96c740d003a606b6ed4101f55fc4ee4f53dab223b815';
const SIGNATURE = '68ae57376c654298f912e20471ef01d8372dd2dc2f5f8b319d9d41e70677c799';

/** The documented algorithm again, on WebCrypto: HMAC-SHA-256(body) keyed with SHA-256(token), hex. */
async function webCryptoSignature(token: string, body: string): Promise<string> {
  const enc = new TextEncoder();
  const keyBytes = await webcrypto.subtle.digest('SHA-256', enc.encode(token));
  expect(Buffer.from(keyBytes).toString('hex')).toBe(SECRET_KEY);
  const key = await webcrypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return Buffer.from(await webcrypto.subtle.sign('HMAC', key, enc.encode(body))).toString('hex');
}

describe('Crypto Pay webhook signature', () => {
  it('matches the known vector and an independent WebCrypto computation', async () => {
    expect(cryptoPaySignature(TOKEN, BODY)).toBe(SIGNATURE);
    expect(cryptoPaySignature(TOKEN, Buffer.from(BODY))).toBe(SIGNATURE);
    expect(await webCryptoSignature(TOKEN, BODY)).toBe(SIGNATURE);
  });

  it('accepts the right header (any hex case) and nothing else', () => {
    expect(verifyCryptoPaySignature(TOKEN, BODY, SIGNATURE)).toBe(true);
    expect(verifyCryptoPaySignature(TOKEN, Buffer.from(BODY), SIGNATURE.toUpperCase())).toBe(true);
    const flipped = (SIGNATURE[0] === '6' ? '7' : '6') + SIGNATURE.slice(1);
    for (const header of [
      undefined,
      '',
      flipped,
      SIGNATURE.slice(2),
      SIGNATURE + '00',
      'zz'.repeat(32),
      [SIGNATURE],
    ]) {
      expect(verifyCryptoPaySignature(TOKEN, BODY, header)).toBe(false);
    }
    // the body is signed byte for byte: re-serialised JSON with the same meaning does not verify
    expect(verifyCryptoPaySignature(TOKEN, JSON.stringify(JSON.parse(BODY), null, 1), SIGNATURE)).toBe(false);
    expect(verifyCryptoPaySignature(TOKEN, BODY.replace('1.5', '15'), SIGNATURE)).toBe(false);
    // keyed with SHA-256 of the token, not the token itself
    expect(verifyCryptoPaySignature('another:token', BODY, SIGNATURE)).toBe(false);
  });
});
