import { useTranslation } from 'react-i18next';

/** The bonus wheel (/wheel and /bonus); filled by the bonus wheel issue. */
export function BonusWheelPage() {
  const { t } = useTranslation();
  return (
    <section className="screen" data-testid="bonus-page">
      <h1 className="screen__title">{t('bonus.title')}</h1>
    </section>
  );
}
