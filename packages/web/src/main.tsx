import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The console's shell, login and live store arrive with their issue; until then the page says so.
function App() {
  return <p>Loading app...</p>;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
