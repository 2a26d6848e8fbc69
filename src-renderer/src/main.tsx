// Fast Refresh's preamble as a module, not an inline script: the CSP allows only 'self' scripts.
import '@vitejs/plugin-react/preamble'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { choosePlatform } from './platform'
import { AppProviders, createAppEnv } from './state/context'
import { sessionFromHash } from './state/address'
import './styles.css'

// The session on screen lives in the address (#/session/<id>), so a reload comes back to it.
const env = createAppEnv(choosePlatform(), {
  onSession: (id) => {
    const hash = id ? `#/session/${id}` : ''
    if (location.hash !== hash)
      history.replaceState(null, '', `${location.pathname}${location.search}${hash}`)
  },
})
env.live.getState().open(sessionFromHash(location.hash))
window.addEventListener('hashchange', () =>
  env.live.getState().open(sessionFromHash(location.hash)),
)

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <AppProviders env={env}>
        <App />
      </AppProviders>
    </StrictMode>,
  )
}
