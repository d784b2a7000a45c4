import { useTranslation } from 'react-i18next';
import { GiftMark } from './GiftMark';
import './launch.css';

/** Shown until the platform is ready and the session started. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className="launch" role="status" aria-live="polite" data-testid="loading-screen">
      <div className="launch__logo">
        <GiftMark />
      </div>
      <div className="launch__spinner" aria-hidden="true" />
      <p className="launch__text">{t('app.loading')}</p>
    </div>
  );
}
