import { useTranslation } from 'react-i18next';

/** The battle (a static demonstration); filled by its issue. */
export function BattlePage() {
  const { t } = useTranslation();
  return (
    <section className="screen" data-testid="battle-page">
      <h1 className="screen__title">{t('battle.title')}</h1>
    </section>
  );
}
