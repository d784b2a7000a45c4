import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_TOKEN, startServer, type TestServer } from './harness.ts';
import { waitFor } from '../stand-ins/http.ts';
import { startTelegram, type TelegramStandIn } from '../stand-ins/telegram.ts';

// Without an https PUBLIC_URL (development) the bot long-polls getUpdates instead of setting a webhook.

let telegram: TelegramStandIn;
let server: TestServer;

beforeAll(async () => {
  telegram = await startTelegram(BOT_TOKEN);
  server = await startServer({
    env: { TELEGRAM_BOT: 'on', TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_WORK_MS: '100' },
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  await telegram.close();
});

it('takes updates by long polling and answers /start with a link to the deep-linked screen', async () => {
  await waitFor(() => telegram.callsOf('getUpdates').length > 0, 'the first getUpdates', 15_000);
  expect(telegram.callsOf('setWebhook')).toHaveLength(0);
  expect(telegram.callsOf('getUpdates')[0]!.params.allowed_updates).toEqual([
    'message',
    'my_chat_member',
    'business_connection',
    'business_message',
  ]);
  const id = 750_001;
  telegram.pushUpdate({
    update_id: 5001,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id, type: 'private', first_name: 'Anna' },
      from: { id, is_bot: false, first_name: 'Anna', language_code: 'ru' },
      text: '/start case_starter',
      entities: [{ type: 'bot_command', offset: 0, length: 6 }],
    },
  });
  const sent = await waitFor(
    () => telegram.callsOf('sendMessage').find((c) => c.params.chat_id === id),
    'the greeting',
    15_000,
  );
  expect(sent.params.text).toMatch(/^Добро пожаловать/);
  // not https: a plain link (Telegram opens web_app buttons only on https)
  const keyboard = sent.params.reply_markup as { inline_keyboard: { text: string; url?: string }[][] };
  expect(keyboard.inline_keyboard[0]![0]!.text).toBe('Открыть');
  expect(keyboard.inline_keyboard[0]![0]!.url).toMatch(/^http:\/\/localhost:\d+\/case\/starter$/);
  // the update is confirmed by the next poll's offset and handled once
  await waitFor(
    () => telegram.callsOf('getUpdates').some((c) => Number(c.params.offset) === 5002),
    'the offset moved past the update',
    15_000,
  );
  expect(telegram.callsOf('sendMessage').filter((c) => c.params.chat_id === id)).toHaveLength(1);
}, 60_000);
