import { useTranslation } from 'react-i18next';

/** The race (a static demonstration); filled by its issue. */
export function RacePage() {
  const { t } = useTranslation();
  return (
    <section className="screen" data-testid="race-page">
      <h1 className="screen__title">{t('race.title')}</h1>
    </section>
  );
}
