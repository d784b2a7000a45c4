import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cspDirectives, TON_CONNECT_BRIDGES } from '../../server/security.ts';

// The CSP's TON Connect sources follow the installed SDK: every bridge of its built-in wallets list is
// allowed, so an SDK update that brings a wallet with a new bridge fails here, not in a player's connection.

/** The bridge origins of the installed @tonconnect/sdk's built-in wallets list (its `type: 'sse'` entries). */
function sdkBridgeOrigins(): string[] {
  // the SDK the app runs: the app depends on ui-react, which depends on ui, which depends on the SDK
  let entry = createRequire(import.meta.url).resolve('@tonconnect/ui-react');
  for (const next of ['@tonconnect/ui', '@tonconnect/sdk']) entry = createRequire(entry).resolve(next);
  const source = readFileSync(entry, 'utf8');
  const urls = [...source.matchAll(/type:\s*'sse',\s*url:\s*'([^']+)'/g)].map((m) => m[1]!);
  return [...new Set(urls.map((url) => new URL(url).origin))].sort();
}

describe('Content-Security-Policy', () => {
  it('allows every bridge of the installed TON Connect SDK', () => {
    const bridges = sdkBridgeOrigins();
    expect(bridges.length).toBeGreaterThan(10); // the list was found and read
    expect(bridges).toContain('https://bridge.tonapi.io');
    expect([...TON_CONNECT_BRIDGES]).toEqual(expect.arrayContaining(bridges));
    expect(cspDirectives({ publicUrl: null, port: 8080 })['connect-src']).toEqual(
      expect.arrayContaining(bridges),
    );
  });

  it('allows no inline or evaluated script, and the sockets of the public origin', () => {
    const directives = cspDirectives({ publicUrl: 'https://cases.example', port: 8080 });
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(Object.values(directives).flat()).not.toContain("'unsafe-eval'");
    expect(directives['script-src-attr']).toEqual([
      "'unsafe-hashes'",
      "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='", // the empty handler, nothing else
    ]);
    expect(directives['connect-src']).toContain('wss://cases.example');
    expect(cspDirectives({ publicUrl: null, port: 9000 })['connect-src']).toContain('ws://localhost:9000');
  });
});
