import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/styles.css';
import './lib/ui/ui.css';
import { App } from './app/App';
import { bootstrap } from './app/bootstrap';

const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));

createRoot(container).render(
  <StrictMode>
    <App launch={bootstrap()} />
  </StrictMode>,
);
