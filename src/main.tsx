import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles.css';
import './lib/ui/ui.css';
import { App } from './app/App';
import { bootstrap } from './app/bootstrap';
import { i18nReady } from './i18n';
import { prefetchFirstScreen } from './state/prefetch';
import { startLiveSocket } from './state/live';

const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));

const launch = bootstrap();
prefetchFirstScreen(launch);
// the app's one socket (feed, balance, deposits, battles) from the start; it signs in once a session exists
void launch.then(() => startLiveSocket());
// the texts of the language in use arrive as a small chunk of their own; render once they are in place
void i18nReady
  .catch((error: unknown) => console.error('Loading the interface language failed', error))
  .then(() =>
    createRoot(container).render(
      <StrictMode>
        <App launch={launch} />
      </StrictMode>,
    ),
  );
