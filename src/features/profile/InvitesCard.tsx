import { useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InviteStateResponse } from '../../../contract/retention.ts';
import { api } from '../../api';
import { formatTon } from '../../lib/format';
import { openExternalLink } from '../../lib/telegram';
import { TonIcon } from '../../lib/ui/TonIcon';
import { copyText } from '../wallet/clipboard';

/** GET /invites → the player's invite link, invitees and what they have earned. */
const invitesAtom = atomWithQuery(() => ({
  queryKey: ['invites'],
  queryFn: () => api.request<InviteStateResponse>('/invites'),
}));

/**
 * Invite friends: the player's Mini App link (startapp=ref_<id>), shared through Telegram's share dialog
 * (t.me/share/url, opened with the Telegram link API) or copied; the friends who joined and the share of
 * their house edge credited so far.
 */
export function InvitesCard() {
  const { t } = useTranslation();
  const query = useAtomValue(invitesAtom);
  const [copied, setCopied] = useState(false);
  const data = query.data;
  if (query.isError) {
    return (
      <p className="profile__section invites__error" data-testid="invites-error">
        {t('retention.invites.loadError')}
      </p>
    );
  }
  if (!data) return null;

  const share = () => {
    const url = new URL('https://t.me/share/url');
    url.searchParams.set('url', data.link);
    url.searchParams.set('text', t('retention.invites.shareText'));
    openExternalLink(url.toString());
  };
  const copy = async () => {
    if (await copyText(data.link)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };

  return (
    <section className="profile__section invites" aria-labelledby="invites-title" data-testid="invites">
      <h2 id="invites-title" className="section-title">
        {t('retention.invites.title')}
      </h2>
      <p className="invites__text">
        {t('retention.invites.text', { percent: (Math.round(data.share * 10_000) / 100).toLocaleString() })}
      </p>
      <div className="invites__stats">
        <div>
          <span className="profile__label">{t('retention.invites.invitees')}</span>
          <strong data-testid="invites-count">{data.invitees}</strong>
        </div>
        <div>
          <span className="profile__label">{t('retention.invites.earned')}</span>
          <strong className="invites__earned" data-testid="invites-earned">
            <TonIcon size={16} />
            {formatTon(data.earned)}
          </strong>
        </div>
      </div>
      <label className="profile__label" htmlFor="invite-link">
        {t('retention.invites.link')}
      </label>
      <input
        id="invite-link"
        className="invites__link"
        readOnly
        value={data.link}
        onFocus={(event) => event.currentTarget.select()}
        data-testid="invite-link"
      />
      <div className="invites__actions">
        <button type="button" className="button" onClick={share} data-testid="invite-share">
          {t('retention.invites.share')}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => void copy()}
          data-testid="invite-copy"
        >
          {copied ? t('retention.invites.copied') : t('retention.invites.copy')}
        </button>
      </div>
    </section>
  );
}
