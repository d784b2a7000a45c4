import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../lib/api-error';
import { formatTon } from '../../lib/format';
import { openExternalLink } from '../../lib/telegram';
import { ArtImage } from '../../lib/ui/ArtImage';
import { TonIcon } from '../../lib/ui/TonIcon';
import { useCatalogueTexts } from '../../state/catalogue-texts';
import { giftDepositInfoAtom, simulateGiftDeposit } from './api';
import { GiftMarkSmall } from './icons';
import { StatusStep } from './StatusStep';

/**
 * The Gifts step: send a collectible Telegram gift to the operator's account and it becomes the matching
 * item in the inventory. It shows the account (with a link to it), how to send, the accepted collections,
 * and waits: the credit arrives over the deposit socket (the sheet then shows the check). In demo mode a
 * collection's "Simulate a gift" makes one arrive from the simulated Telegram.
 */
export function GiftsStep({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const { itemName } = useCatalogueTexts();
  const query = useAtomValue(giftDepositInfoAtom);
  const info = query.data;
  const [simulating, setSimulating] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mark = (
    <span className="deposit-method__mark deposit__status-mark" data-method="gifts">
      <GiftMarkSmall size={30} />
    </span>
  );

  if (!info) {
    return query.isError ? (
      <StatusStep testId="deposit-gifts" visual={mark} title={t('telegram.gifts.loadError')}>
        <button
          type="button"
          className="button button--ghost deposit__wide"
          onClick={() => void query.refetch()}
        >
          {t('telegram.gifts.retry')}
        </button>
      </StatusStep>
    ) : (
      <div className="deposit__gifts" data-testid="deposit-gifts" aria-busy="true">
        <span className="skeleton deposit__method-skeleton" />
      </div>
    );
  }
  if (!info.enabled || !info.account) {
    return (
      <StatusStep
        testId="deposit-gifts"
        visual={mark}
        title={t('deposit.methods.gifts.title')}
        text={t('telegram.gifts.off')}
      >
        <button type="button" className="button button--ghost deposit__wide" onClick={onBack}>
          {t('deposit.back')}
        </button>
      </StatusStep>
    );
  }

  const account = info.account;
  const simulate = async (itemId: string) => {
    setSimulating(itemId);
    setError(null);
    try {
      await simulateGiftDeposit(itemId);
    } catch (err) {
      setSimulating(null);
      setError(apiErrorText(err));
    }
  };

  return (
    <div className="deposit__gifts" data-testid="deposit-gifts" data-demo={info.demo}>
      <p className="sheet__text deposit__lead">{t('telegram.gifts.lead', { account })}</p>
      <p className="deposit__gifts-how">{t('telegram.gifts.how', { account })}</p>
      {!info.demo && (
        <button
          type="button"
          className="button deposit__wide"
          onClick={() => openExternalLink(`https://t.me/${account.replace(/^@/, '')}`)}
          data-testid="deposit-gifts-open"
        >
          {t('telegram.gifts.openAccount', { account })}
        </button>
      )}
      <h3 className="deposit__gifts-title">{t('telegram.gifts.collections')}</h3>
      <ul className="deposit__gifts-list">
        {info.items.map(({ collection, item }) => (
          <li key={collection} className="deposit__gift" data-testid="deposit-gift" data-item-id={item.id}>
            <span className="deposit__gift-art">
              <ArtImage src={item.imageUrl} className="deposit__gift-img" />
            </span>
            <span className="deposit__gift-text">
              <span className="deposit__gift-name">{itemName(item)}</span>
              <span className="deposit__gift-collection">{collection}</span>
            </span>
            <span className="deposit__gift-price">
              <TonIcon size={14} />
              {formatTon(item.price, 1)}
            </span>
            {info.demo && (
              <button
                type="button"
                className="button button--ghost deposit__gift-simulate"
                disabled={simulating !== null}
                title={t('telegram.gifts.simulateHint')}
                onClick={() => void simulate(item.id)}
                data-testid="deposit-gift-simulate"
              >
                {t('telegram.gifts.simulate')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p className="deposit__error" role="alert">
          {error}
        </p>
      )}
      <div className="deposit__gifts-waiting" role="status" data-testid="deposit-gifts-waiting">
        <span className="deposit__loader deposit__loader--small">
          <GiftMarkSmall size={18} />
        </span>
        <span>
          <strong>{t('telegram.gifts.waiting')}</strong>
          <br />
          <span className="deposit__gifts-hint">{t('telegram.gifts.waitingText')}</span>
        </span>
      </div>
      <button type="button" className="button button--ghost deposit__wide" onClick={onBack}>
        {t('deposit.back')}
      </button>
    </div>
  );
}
