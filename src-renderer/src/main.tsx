// Fast Refresh's preamble as a module, not an inline script: the CSP allows only 'self' scripts.
import '@vitejs/plugin-react/preamble'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { QuickAskScreen } from './screens/quick-ask/QuickAskScreen'
import { startLanguage } from './i18n'
import { choosePlatform } from './platform'
import { syncAddress, windowLocation } from './state/address-sync'
import { createAppEnv } from './state/app-env'
import { AppProviders } from './state/context'
import './styles.css'

// What is on screen lives in the address (#/session/<id>, #/settings/<section>), so a
// reload comes back to it; #/quick-ask is the desktop app's Quick ask window, whose chat
// is its own (a new one each time), not in the address.
const quickAsk = location.hash === '#/quick-ask'
const env = createAppEnv(choosePlatform())
if (!quickAsk) syncAddress(env, windowLocation)

// The first paint is in the window's language (its texts load before it).
const root = document.getElementById('root')
if (root) {
  void startLanguage().then(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProviders env={env}>{quickAsk ? <QuickAskScreen /> : <App />}</AppProviders>
      </StrictMode>,
    ),
  )
}
