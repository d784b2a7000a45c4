import { expect, test, type Page } from '@playwright/test';

// The race, battle and bonus wheel screens in both languages: the race's real countdown and sheets, a battle
// created from the lobby and played against house bots, the bonus wheel's texts and prize table (its paid spin
// is in tests/e2e/retention.spec.ts, on a server of its own: the demo player's one daily spin is not shared).

type Language = 'en' | 'ru';

const TEXTS = {
  en: {
    bonus: { spin: 'Spin', prizes: 'Prizes' },
    race: {
      startsIn: 'Race will start in 2h 32m',
      how: 'How to earn points',
      prizes: 'View prizes',
      points: '8120 pts',
      worth: 'Case worth 1000 coins',
      participate: 'Participate',
      instruction: 'Subscribe to our channel',
      howSheet: 'Open cases: 1 point for every 0.1 TON spent',
      prizesSheet: '1st place: 100 TON',
    },
    battle: { round: 'Round 1', inventory: 'Inventory' },
  },
  ru: {
    bonus: { spin: 'Крутить', prizes: 'Призы' },
    race: {
      startsIn: 'Гонка начнётся через 2ч 32м',
      how: 'Как заработать очки',
      prizes: 'Посмотреть призы',
      points: '8120 очк.',
      worth: 'Кейс стоимостью 1000 монет',
      participate: 'Участвовать',
      instruction: 'Подпишитесь на наш канал',
      howSheet: 'Открывайте кейсы: 1 очко за каждые потраченные 0.1 TON',
      prizesSheet: '1-е место: 100 TON',
    },
    battle: { round: 'Раунд 1', inventory: 'Инвентарь' },
  },
} as const;

const LETTERS = ['G', 'I', 'F', 'T', 'O', 'M', 'U', 'S'];

function inLanguage(page: Page, language: Language) {
  return page.addInitScript((lng) => localStorage.setItem('lang', lng), language);
}

for (const language of ['en', 'ru'] as const) {
  const texts = TEXTS[language];

  test(`race shows a real countdown and its sheets in ${language}`, async ({ page }) => {
    await inLanguage(page, language);
    await page.goto('/race');
    await expect(page.getByTestId('race-page')).toBeVisible();
    const timer = page.getByTestId('race-timer');
    await expect(timer).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
    // the countdown runs: its text changes within a few seconds
    const first = await timer.textContent();
    await expect(timer).not.toHaveText(first ?? '', { timeout: 5_000 });
    await expect(page.getByTestId('race-how')).toHaveText(texts.race.how);
    await expect(page.getByTestId('race-prizes')).toHaveText(texts.race.prizes);
    await page.getByTestId('race-how').click();
    await expect(page.getByTestId('race-how-sheet')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('race-how-sheet')).toHaveCount(0);
    await page.getByTestId('race-prizes').click();
    await expect(page.getByTestId('race-prizes-sheet')).toBeVisible();
  });

  test(`battle lobby creates a battle that bots fill and play, in ${language}`, async ({ page }) => {
    await inLanguage(page, language);
    await page.goto('/battle');
    await expect(page.getByTestId('battle-page')).toBeVisible();
    await page.getByTestId('battle-create-toggle').click();
    const pick = page.locator('[data-testid^="battle-pick-"]').first();
    await pick.click();
    await expect(page.getByTestId('battle-picked').locator('li')).toHaveCount(1);
    await page.getByTestId('battle-format-1v1').click();
    await page.getByTestId('battle-create-submit').click();
    await expect(page).toHaveURL(/\/battle\/[^/]+$/);
    await expect(page.getByTestId('battle-room')).toBeVisible();
    await page.getByTestId('battle-bots').click();
    // both seats land on the server's item for the round: each seat shows one drop
    for (const seat of [0, 1]) {
      await expect(page.getByTestId(`battle-drops-${seat}`).locator('li')).toHaveCount(1, {
        timeout: 45_000,
      });
    }
  });

  test(`bonus wheel shows its texts and prize table in ${language}`, async ({ page }) => {
    await inLanguage(page, language);
    for (const path of ['/wheel', '/bonus']) {
      await page.goto(path);
      await expect(page.getByTestId('bonus-page')).toBeVisible();
    }
    const letters = page.getByTestId('bonus-letters').locator('li');
    await expect(letters).toHaveText(LETTERS);
    for (const [i, letter] of (await letters.all()).entries()) {
      if (i < 3) await expect(letter).toHaveAttribute('data-active', 'true');
      else await expect(letter).not.toHaveAttribute('data-active', /.*/);
    }
    await expect(page.getByRole('heading', { name: texts.bonus.prizes })).toBeVisible();
    // the server's prize table: one entry a segment, each with its chance
    await expect(page.getByTestId('bonus-prizes').locator('li')).toHaveCount(12);
    await expect(page.getByTestId('bonus-prizes').locator('li').first()).toContainText('%');

    const wheel = page.getByTestId('bonus-wheel');
    await expect(wheel.locator('canvas')).toBeVisible();
    // before the first spin the button says "Spin" ("Spin again" comes after one)
    await expect(page.getByTestId('bonus-spin')).toHaveText(texts.bonus.spin);
  });
}

test('the profile language buttons switch the static screens between languages', async ({ page }) => {
  await page.goto('/profile');
  await page.getByTestId('lang-en').click();
  await page.getByTestId('tab-race').click();
  await expect(page.getByTestId('race-how')).toHaveText(TEXTS.en.race.how);

  await page.getByTestId('tab-profile').click();
  await page.getByTestId('lang-ru').click();
  await page.getByTestId('tab-wheel').click();
  await expect(page.getByTestId('bonus-spin')).toHaveText(TEXTS.ru.bonus.spin);
  // and the choice survives a reload (it is kept under 'lang')
  await page.reload();
  await expect(page.getByTestId('bonus-spin')).toHaveText(TEXTS.ru.bonus.spin);
  await page.goto('/race');
  await expect(page.getByTestId('race-how')).toHaveText(TEXTS.ru.race.how);
});
