import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { watchPreloadErrors } from './app/load-error.ts';

watchPreloadErrors();

const el = document.getElementById('root');
if (!el) throw new Error('index.html has no #root element');
createRoot(el).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
