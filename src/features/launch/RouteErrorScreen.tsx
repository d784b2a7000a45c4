import { useTranslation } from 'react-i18next';
import { GiftMark } from './GiftMark';
import './launch.css';

/** A screen failed to render or its code failed to load (e.g. after a deploy). */
export function RouteErrorScreen() {
  const { t } = useTranslation();
  return (
    <div className="launch" role="alert">
      <div className="launch__logo">
        <GiftMark />
      </div>
      <h1 className="launch__title">{t('app.routeError.title')}</h1>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('app.routeError.reload')}
      </button>
    </div>
  );
}
