import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { forgetStoredPasswords } from './api/credentials.js';
import { installErrorReporting } from './api/error-reporting.js';
import { App } from './app/App.js';
import { AppProviders } from './app/AppProviders.js';

// Older consoles kept the admin password in storage; none stays there (issue 13).
forgetStoredPasswords();
installErrorReporting(window);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <App />
    </AppProviders>
  </StrictMode>,
);
