import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatTon } from '../../lib/format';
import { TonIcon } from '../../lib/ui/TonIcon';
import { casesAtom } from '../../state/queries';

/** A case and its items; the opening controls and roulette come with the case-opening issue. */
export function CasePage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { data: cases, isPending } = useAtomValue(casesAtom);
  const found = cases?.find((c) => c.id === id);

  if (!found && !isPending) {
    return (
      <section className="screen" data-testid="case-not-found">
        <h1 className="screen__title">{t('case.notFound')}</h1>
        <Link to="/" className="button button--ghost">
          {t('case.toCases')}
        </Link>
      </section>
    );
  }

  return (
    <section className="screen" data-testid="case-page">
      <h1 className="screen__title">{found?.name ?? t('case.title')}</h1>
      {found && (
        <span className="case-card__price case-page__price">
          <TonIcon size={14} />
          {formatTon(found.price, 2)}
        </span>
      )}
      {!found || found.items.length === 0 ? (
        <p>{t('case.itemsLoading')}</p>
      ) : (
        <ul>
          {found.items.map((entry) => (
            <li key={entry.id}>{entry.item.name}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
