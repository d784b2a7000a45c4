import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="screen" data-testid="not-found-page">
      <h1 className="screen__title">{t('notFound.title')}</h1>
      <Link to="/" className="button button--ghost">
        {t('notFound.toCases')}
      </Link>
    </section>
  );
}
