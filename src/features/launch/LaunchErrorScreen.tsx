import { useTranslation } from 'react-i18next';
import { GiftMark } from './GiftMark';
import './launch.css';

/** No launch data: the app was probably opened outside the messenger (spec §8). */
export function LaunchErrorScreen() {
  const { t } = useTranslation();
  return (
    <div className="launch" role="alert" data-testid="launch-error">
      <div className="launch__logo">
        <GiftMark />
      </div>
      <h1 className="launch__title">{t('app.launchError.title')}</h1>
      <p className="launch__text">{t('app.launchError.text')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('app.launchError.retry')}
      </button>
    </div>
  );
}
