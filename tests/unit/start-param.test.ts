import { describe, expect, it } from 'vitest';
import { battleShareLink, startParamPath } from '../../src/lib/start-param.ts';
import { startParamPath as botStartParamPath } from '../../server/telegram/bot.ts';

describe('start params', () => {
  it.each([
    ['case_starter', '/case/starter'],
    ['battle_Ab12-x', '/battle/Ab12-x'],
    ['verify_K3yZ_9abcdef', '/verify/K3yZ_9abcdef'],
  ])('%s opens %s, in the app and in the bot alike', (param, path) => {
    expect(startParamPath(param)).toBe(path);
    expect(botStartParamPath(param)).toBe(path);
  });

  it.each(['ref_12345', '', 'case_', 'case_../../x', 'battle_a/b', 'profile', `case_${'x'.repeat(65)}`])(
    '%j opens nothing (invites are read at sign-in)',
    (param) => {
      expect(startParamPath(param)).toBeNull();
      expect(botStartParamPath(param)).toBe('/');
    },
  );

  it('a battle is shared as a startapp link of the Mini App, or its address without one', () => {
    expect(battleShareLink('https://t.me/giftcases_bot/app', 'Ab12', 'https://x.example')).toBe(
      'https://t.me/giftcases_bot/app?startapp=battle_Ab12',
    );
    expect(battleShareLink(null, 'Ab12', 'https://x.example')).toBe('https://x.example/battle/Ab12');
    expect(battleShareLink('tg://resolve', 'Ab12', 'https://x.example')).toBe(
      'https://x.example/battle/Ab12',
    );
  });
});
