import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { LiveProvider } from '../api/live-context.js';
import { LoadingApp } from './LoadingApp.js';
import { LoginPage } from './LoginPage.js';
import { createConsoleRouter } from './routes.js';
import { ServerErrorPage } from './ServerErrorPage.js';
import { useStartup } from './use-startup.js';

/** Startup (spec 000 §4 "Login"): saved credentials are tried on the server info call first. */
export function App() {
  const startup = useStartup();
  switch (startup.phase) {
    case 'loading':
      return <LoadingApp />;
    case 'login':
      return <LoginPage />;
    case 'error':
      return <ServerErrorPage onRetry={startup.retry} />;
    case 'ready':
      return <LoggedInApp />;
  }
}

function LoggedInApp() {
  const [router] = useState(createConsoleRouter);
  return (
    <LiveProvider>
      <RouterProvider router={router} />
    </LiveProvider>
  );
}
