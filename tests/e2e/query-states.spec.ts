import { expect, test, type Locator, type Page } from '@playwright/test';

// Every screen's server query has its own loading, empty, error and offline state (one component draws
// them): a failing API shows an error with Retry, never the empty state, and Retry brings the data back;
// with the connection gone the screen says so, and the data returns with it. The API's failures are made by
// the test's own routing (the real server keeps answering behind it); offline is the browser's own switch.

interface Screen {
  name: string;
  path: string;
  /** the API call the screen's query makes */
  api: (url: URL) => boolean;
  /** the test id prefix of the screen's query states */
  states: string;
  /** what shows once the data is there (a list, or the screen's own empty state) */
  ready: (page: Page) => Locator;
  lang: 'ru' | 'en';
}

const SCREENS: Screen[] = [
  {
    name: 'case list',
    path: '/',
    api: (url) => url.pathname === '/api/cases',
    states: 'cases',
    ready: (page) => page.getByTestId('case-card').first(),
    lang: 'ru',
  },
  {
    name: 'inventory',
    path: '/inventory',
    api: (url) => url.pathname === '/api/inventory',
    states: 'inventory',
    ready: (page) => page.getByTestId('inventory-grid').or(page.getByTestId('inventory-empty')),
    lang: 'en',
  },
  {
    name: 'history',
    path: '/fairness',
    api: (url) => url.pathname === '/api/fairness/history',
    states: 'history',
    ready: (page) => page.getByTestId('history-list').or(page.getByTestId('history-empty')),
    lang: 'ru',
  },
  {
    name: 'profile',
    path: '/profile',
    api: (url) => url.pathname === '/api/users/profile',
    states: 'profile',
    ready: (page) => page.getByTestId('level-card'),
    lang: 'en',
  },
];

const TEXTS = {
  en: { error: 'Something went wrong on our side. Try again.', retry: 'Retry', offline: 'No connection' },
  ru: {
    error: 'Что-то пошло не так на нашей стороне. Попробуйте ещё раз.',
    retry: 'Повторить',
    offline: 'Нет соединения',
  },
} as const;

/** Makes the screen's API call answer 500 until the returned switch is turned off. */
async function failApi(page: Page, screen: Screen): Promise<{ stop(): void }> {
  let failing = true;
  await page.route(
    (url) => screen.api(url),
    (route) =>
      failing
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({
              statusCode: 500,
              error: 'Internal Server Error',
              code: 'INTERNAL',
              message: 'Internal Server Error',
            }),
          })
        : route.continue(),
  );
  return {
    stop() {
      failing = false;
    },
  };
}

async function openFailing(page: Page, screen: Screen) {
  await page.addInitScript((lang) => localStorage.setItem('lang', lang), screen.lang);
  const api = await failApi(page, screen);
  await page.goto(screen.path);
  const error = page.getByTestId(`${screen.states}-error`);
  // (the client tries a 5xx three times before it gives up)
  await expect(error).toBeVisible({ timeout: 20_000 });
  return { api, error };
}

for (const screen of SCREENS) {
  test(`${screen.name}: a failing API shows an error with Retry, and Retry brings the data back`, async ({
    page,
  }) => {
    const { api, error } = await openFailing(page, screen);
    const texts = TEXTS[screen.lang];
    await expect(error).toContainText(texts.error);
    await expect(page.getByTestId(`${screen.states}-empty`)).toHaveCount(0);
    await expect(page.getByTestId(`${screen.states}-loading`)).toHaveCount(0);
    const retry = page.getByTestId(`${screen.states}-retry`);
    await expect(retry).toHaveText(texts.retry);

    api.stop();
    await retry.click();
    await expect(screen.ready(page)).toBeVisible();
    await expect(error).toHaveCount(0);
  });

  test(`${screen.name}: offline says so, and the data comes back with the connection`, async ({
    page,
    context,
  }) => {
    const { api, error } = await openFailing(page, screen);
    api.stop();
    await context.setOffline(true);
    const offline = page.getByTestId(`${screen.states}-offline`);
    try {
      await expect(offline).toBeVisible();
      await expect(offline).toContainText(TEXTS[screen.lang].offline);
      await expect(error).toHaveCount(0);
      // Retry without a connection keeps saying so
      await page.getByTestId(`${screen.states}-retry`).click();
      await expect(offline).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
    await expect(screen.ready(page)).toBeVisible();
    await expect(offline).toHaveCount(0);
  });
}

test('a rate-limited list says when to try again (Retry-After)', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  let limited = true;
  await page.route(
    (url) => url.pathname === '/api/cases',
    (route) =>
      limited
        ? route.fulfill({
            status: 429,
            headers: { 'retry-after': '7' },
            contentType: 'application/json',
            body: JSON.stringify({
              statusCode: 429,
              error: 'Too Many Requests',
              code: 'RATE_LIMITED',
              message: 'Rate limit exceeded',
            }),
          })
        : route.continue(),
  );
  await page.goto('/');
  const error = page.getByTestId('cases-error');
  await expect(error).toContainText('Too many requests. Try again in 7 s.');
  limited = false;
  await page.getByTestId('cases-retry').click();
  await expect(page.getByTestId('case-card').first()).toBeVisible();
});
