import { defineConfig, devices } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The browser tests drive a real Chromium against the real server (built client, fresh embedded database).
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const port = Number(process.env.E2E_PORT ?? 8765);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'giftcases-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // workers re-evaluate this file; keep one folder for the whole run

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    viewport: { width: 400, height: 800 },
    launchOptions: {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        // WebGL through SwiftShader (software), also in workers on an OffscreenCanvas: the scene runtime's
        // worker path runs for real here (window.__scenes.stats() names the renderer in use)
        '--use-gl=angle',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--ignore-gpu-blocklist',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 400, height: 800 } } },
  ],
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    // compiling and starting the server takes seconds on a quiet machine, over a minute on a busy one
    timeout: 180_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // the debug scene switcher's runtime switch (GET /api/config debugScenes), for tests/e2e/debug.spec.ts
      DEBUG_SCENES: '1',
      // TON deposits are real here (an injected test wallet sends them); CryptoBot stays a demo provider.
      // The receiving wallet is a made-up raw address; toncenter is pointed at a closed local port.
      TON_DEPOSIT_ADDRESS: `0:${'0123456789abcdef'.repeat(4)}`,
      TONCENTER_URL: 'http://127.0.0.1:9/api/v3',
      TON_POLL_INTERVAL_MS: '60000',
      // every test signs in anew, all from one address
      RATE_LIMIT_SIGNIN_PER_ADDRESS: '1000',
      // the demo player's openings earn no rank rewards here (the thresholds stay): the specs count its
      // balance and items; tests/e2e/retention.spec.ts runs the rewards on a server of its own
      RANK_TABLE: '1:none,5:none,15:none,40:none,100:none,250:none',
    },
  },
});
