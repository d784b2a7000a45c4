import { useTranslation } from 'react-i18next';

/** The upgrade game; filled by the upgrade issue. */
export function UpgradePage() {
  const { t } = useTranslation();
  return (
    <section className="screen" data-testid="upgrade-page">
      <h1 className="screen__title">{t('upgrade.title')}</h1>
    </section>
  );
}
