import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { configAtom } from '../../state/queries';
import { DEBUG_SCENES_BUILT_IN, debugScenesEnabled } from './gate';
import { SceneSwitcher } from './SceneSwitcher';
import './debug.css';

/**
 * /debug: the scene switcher for designers. On in development and in builds made with
 * VITE_DEBUG_SCENES=1; in other production builds only when the server's config turns it on.
 */
export function DebugPage() {
  return DEBUG_SCENES_BUILT_IN ? <SceneSwitcher /> : <ServerGate />;
}

function ServerGate() {
  const { t } = useTranslation();
  const config = useAtomValue(configAtom);
  if (debugScenesEnabled(config.data)) return <SceneSwitcher />;
  const checking = config.isPending;
  return (
    <div className="debug debug--off" data-testid="debug-off">
      <p className="debug__off-text">{checking ? t('debug.checking') : t('debug.off')}</p>
      {!checking && (
        <Link to="/" className="debug__back">
          {t('debug.toApp')}
        </Link>
      )}
    </div>
  );
}
