import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

/** The problems loadConfig reports for an environment (none: an empty list). */
function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

const RAW_ADDRESS = '0:' + 'ab'.repeat(32);

describe('configuration', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.demoBalanceNano).toBe(100_000_000_000n);
    expect(config.racePrizesNano).toEqual([10n, 5n, 3n, 2n, 1n, 1n].map((t) => t * 1_000_000_000n));
    expect(config.debugScenes).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.databaseUrl).toBeNull();
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ PORT: '', DEMO_BALANCE_TON: '  ', DEBUG_SCENES: '' }).port).toBe(8080);
  });

  it('reads whole numbers within their range, and refuses anything else', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(loadConfig({ TON_PAGE_LIMIT: '1000' }).tonPageLimit).toBe(1000);
    expect(loadConfig({ RATE_LIMIT_API_PER_ADDRESS: '0' }).rateLimits.apiPerAddress).toBe(0);
    for (const bad of ['abc', '-1', '65536', '80.5', '1e3', '0x50', '8 080']) {
      expect(problems({ PORT: bad }), bad).toEqual([
        `PORT must be a whole number from 0 to 65535, got ${JSON.stringify(bad)}`,
      ]);
    }
    expect(problems({ TON_PAGE_LIMIT: '0' })).toEqual([
      'TON_PAGE_LIMIT must be a whole number from 1 to 1000, got "0"',
    ]);
    expect(problems({ RATE_LIMIT_MONEY_PER_PLAYER: '-5' })[0]).toMatch(
      /^RATE_LIMIT_MONEY_PER_PLAYER must be a whole number 0 or more/,
    );
    expect(problems({ DB_POOL_MAX: '0' })[0]).toMatch(/^DB_POOL_MAX must be a whole number from 1 to 1000/);
  });

  it('keeps durations within what a timer can wait, with their unit in the message', () => {
    expect(loadConfig({ BATTLE_ROUND_MS: '0' }).battleRoundMs).toBe(0);
    expect(loadConfig({ GAMES_SWEEP_MS: '100' }).gamesSweepMs).toBe(100);
    expect(problems({ GAMES_SWEEP_MS: '10' })).toEqual([
      'GAMES_SWEEP_MS must be a whole number from 100 to 2147483647 (milliseconds), got "10"',
    ]);
    // a longer Node timer fires at once: 2^31 ms is refused rather than turned into "immediately"
    expect(problems({ SHUTDOWN_TIMEOUT_MS: String(2 ** 31) })[0]).toMatch(
      /^SHUTDOWN_TIMEOUT_MS .*milliseconds/,
    );
    expect(problems({ REQUEST_TIMEOUT_MS: '0' })[0]).toMatch(
      /^REQUEST_TIMEOUT_MS must be a whole number from 1/,
    );
    expect(problems({ RACE_PERIOD_SECONDS: '0' })[0]).toMatch(/^RACE_PERIOD_SECONDS .*\(seconds\)/);
    // the headers' limit never exceeds the whole request's
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '9000' }).headersTimeoutMs).toBe(
      5000,
    );
  });

  it('reads shares and chances as decimals in (0, 1]', () => {
    expect(loadConfig({ RTP: '0.95' }).rtp).toBe(0.95);
    expect(loadConfig({ RTP: '1' }).rtp).toBe(1);
    expect(loadConfig({ UPGRADE_BASE_CHANCE: '.5' }).upgradeBaseChance).toBe(0.5);
    for (const bad of ['0', '1.2', '90%', '0.1234567', 'abc', '-0.5', '0,9']) {
      expect(problems({ RTP: bad })[0], bad).toMatch(/^RTP must be a decimal number above 0 and at most 1/);
    }
  });

  it('reads booleans in their usual spellings and refuses others', () => {
    for (const on of ['1', 'true', 'TRUE', 'yes', 'on'])
      expect(loadConfig({ DEBUG_SCENES: on }).debugScenes).toBe(true);
    for (const off of ['0', 'false', 'No', 'off'])
      expect(loadConfig({ DEBUG_SCENES: off }).debugScenes).toBe(false);
    expect(problems({ DEBUG_SCENES: 'enabled' })).toEqual([
      'DEBUG_SCENES must be a boolean: 1, true, yes, on or 0, false, no, off, got "enabled"',
    ]);
  });

  it('reads URLs, without a trailing slash, and refuses other schemes and plain text', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cases.example/' }).publicUrl).toBe('https://cases.example');
    expect(loadConfig({ TONCENTER_URL: 'https://testnet.toncenter.com/api/v3/' }).toncenterUrl).toBe(
      'https://testnet.toncenter.com/api/v3',
    );
    expect(loadConfig({ TWA_RETURN_URL: 'https://t.me/cases_bot/app' }).twaReturnUrl).toBe(
      'https://t.me/cases_bot/app',
    );
    for (const bad of ['cases.example', 'ftp://cases.example', 'https://', 'not a url']) {
      expect(problems({ PUBLIC_URL: bad })[0], bad).toMatch(
        /^PUBLIC_URL must be an absolute http or https URL/,
      );
    }
    expect(problems({ CRYPTOPAY_URL: 'javascript:alert(1)' })[0]).toMatch(/^CRYPTOPAY_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db:5432/cases' }).databaseUrl).toBe(
      'postgres://app@db:5432/cases',
    );
    // a connection string may hold a password: the message names the variable, never the value
    const [dbProblem] = problems({ DATABASE_URL: 'mysql://root:hunter2@db/cases' });
    expect(dbProblem).toMatch(/^DATABASE_URL must be a Postgres connection string/);
    expect(dbProblem).not.toContain('hunter2');
  });

  it('reads TON addresses in both forms', () => {
    expect(loadConfig({ TON_DEPOSIT_ADDRESS: RAW_ADDRESS }).tonDepositAddress).toBe(RAW_ADDRESS);
    expect(problems({ TON_DEPOSIT_ADDRESS: 'EQ-not-an-address' })[0]).toMatch(
      /^TON_DEPOSIT_ADDRESS must be a TON address/,
    );
  });

  it('reads TON amounts exactly, to the nanoTON, without floats', () => {
    expect(loadConfig({ DEMO_BALANCE_TON: '3.97' }).demoBalanceNano).toBe(3_970_000_000n);
    expect(loadConfig({ DEMO_BALANCE_TON: '0.000000001' }).demoBalanceNano).toBe(1n);
    expect(loadConfig({ DEMO_BALANCE_TON: '0' }).demoBalanceNano).toBe(0n);
    expect(loadConfig({ DEMO_BALANCE_TON: '1000000' }).demoBalanceNano).toBe(1_000_000_000_000_000n);
    // a float would make 0.1 + 0.2 of these; the parser keeps the digits
    expect(loadConfig({ DEMO_BALANCE_TON: '12345678.123456789' }).demoBalanceNano).toBe(
      12_345_678_123_456_789n,
    );
    for (const bad of ['0.0000000001', '-1', '3,97', '1e3', 'ten', '3.97 TON']) {
      expect(problems({ DEMO_BALANCE_TON: bad }), bad).toEqual([
        `DEMO_BALANCE_TON must be an amount of TON: a non-negative decimal with up to 9 decimal places (e.g. 3.97), got ${JSON.stringify(bad)}`,
      ]);
    }
  });

  it('reads lists of TON amounts', () => {
    expect(loadConfig({ RACE_PRIZES_TON: '2.5, 1.25,0.5' }).racePrizesNano).toEqual([
      2_500_000_000n,
      1_250_000_000n,
      500_000_000n,
    ]);
    for (const bad of ['10,,5', '10;5', '10,-1', '1,2,x', Array(101).fill('1').join(',')]) {
      expect(problems({ RACE_PRIZES_TON: bad })[0], bad).toMatch(
        /^RACE_PRIZES_TON must be 1 to 100 TON amounts separated by commas/,
      );
    }
  });

  it('reads word choices, proxies and secrets', () => {
    expect(loadConfig({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(problems({ LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ]);
    expect(problems({ CRYPTOPAY_ASSET: 'usdt' })[0]).toMatch(/^CRYPTOPAY_ASSET must be TON/);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(problems({ TRUST_PROXY: 'proxy.example' })[0]).toMatch(/^TRUST_PROXY/);
    // secrets: their length is checked, their value never printed
    const [adminProblem] = problems({ ADMIN_KEY: 'short-key' });
    expect(adminProblem).toBe('ADMIN_KEY must be at least 16 characters long (it has 9)');
    expect(problems({ JWT_SECRET: 'too-short' })[0]).toMatch(/^JWT_SECRET must be at least 32 characters/);
    const [tokenProblem] = problems({ BOT_TOKEN: 'not-a-token-secret' });
    expect(tokenProblem).toMatch(/^BOT_TOKEN must be a Telegram bot token/);
    expect(tokenProblem).not.toContain('not-a-token-secret');
    expect(loadConfig({ BOT_TOKEN: '1234567890:AAH-a_bcdefghijklmnopqrstuvwxyz012' }).botToken).toBe(
      '1234567890:AAH-a_bcdefghijklmnopqrstuvwxyz012',
    );
  });

  it('lists every problem at once, in one error', () => {
    const list = problems({ PORT: 'x', DEMO_BALANCE_TON: '3.9999999999', DEBUG_SCENES: '2', RTP: '2' });
    expect(list.map((p) => p.split(' ')[0])).toEqual(['PORT', 'RTP', 'DEMO_BALANCE_TON', 'DEBUG_SCENES']);
    expect(() => loadConfig({ PORT: 'x', RTP: '2' })).toThrow(/cannot start: 2 settings are not valid/);
  });

  it('refuses to start the server on bad settings: a non-zero exit and a message, no stack trace', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-config-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          PORT: '0',
          DEMO_BALANCE_TON: '3.9700000001',
          RACE_PRIZES_TON: '10,five',
          TOKEN_TTL_SECONDS: '1h',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe(''); // it never got as far as the log
      expect(run.stderr).toContain('The server cannot start: 3 settings are not valid');
      expect(run.stderr).toContain('TOKEN_TTL_SECONDS must be a whole number 60 or more (seconds), got "1h"');
      expect(run.stderr).toContain('DEMO_BALANCE_TON must be an amount of TON');
      expect(run.stderr).toContain('RACE_PRIZES_TON must be 1 to 100 TON amounts');
      expect(run.stderr).not.toMatch(/\n\s+at |BigInt|SyntaxError|RangeError/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
