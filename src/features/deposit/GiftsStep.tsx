import { useTranslation } from 'react-i18next';
import { GiftMarkSmall } from './icons';
import { StatusStep } from './StatusStep';

/** Gifts exist in the sheet but do nothing yet (spec §1): the step only says so. */
export function GiftsStep({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <StatusStep
      testId="deposit-gifts"
      visual={
        <span className="deposit-method__mark deposit__status-mark" data-method="gifts">
          <GiftMarkSmall size={30} />
        </span>
      }
      title={t('deposit.methods.gifts.title')}
      text={t('deposit.giftsInfo')}
    >
      <button type="button" className="button button--ghost deposit__wide" onClick={onBack}>
        {t('deposit.back')}
      </button>
    </StatusStep>
  );
}
