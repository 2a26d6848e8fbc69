/**
 * What the rows of the MCP section do: switch a server on or off (in the page, after the
 * user confirmed its command line, unless the desktop app asks in its own dialog), trust its
 * hints, restart, remove. One server is busy at a time; each keeps its own last error.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { McpCommandLine } from '../../../../src-preload/contract/dto'
import type { RouteInput } from '../../../../src-preload/contract/routes'
import { usePlatform } from '../../state/context'
import { mcpKey, setServers, type McpList } from '../../state/mcp-servers'
import { call } from '../../state/queries'
import type { McpRowActions } from './McpServerRow'

export interface McpServerActions {
  actions: McpRowActions
  /** the server being worked on */
  busy: string | null
  /** each server's last error, by name */
  errors: Record<string, string>
  /** the command line the user is asked to confirm before a server starts */
  consent: { name: string; line: McpCommandLine } | null
  consentError: string | null
  confirm(): void
  cancelConsent(): void
}

export function useMcpServerActions(): McpServerActions {
  const { bridge, platform } = usePlatform()
  const client = useQueryClient()
  const [busy, setBusy] = useState<string | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [consent, setConsent] = useState<McpServerActions['consent']>(null)
  const [consentError, setConsentError] = useState<string | null>(null)

  const act = async (name: string, work: () => Promise<void>): Promise<boolean> => {
    setBusy(name)
    setErrors(({ [name]: _, ...rest }) => rest)
    try {
      await work()
      return true
    } catch (e) {
      setErrors((all) => ({ ...all, [name]: (e as Error).message }))
      return false
    } finally {
      setBusy(null)
    }
  }
  const update = (input: RouteInput<'mcp.update'>): Promise<void> =>
    call(bridge, 'mcp.update', input).then((r) => setServers(client, r.servers))

  const actions: McpRowActions = {
    setEnabled: (s, on) => {
      // the desktop app asks in its own dialog; the page asks here and proves it to the host
      if (on && s.commandLine && platform.kind !== 'desktop') {
        setConsentError(null)
        setConsent({ name: s.name, line: s.commandLine })
        return
      }
      void act(s.name, () => update({ name: s.name, enabled: on }))
    },
    setTrust: (s, on) => void act(s.name, () => update({ name: s.name, trustAnnotations: on })),
    restart: (s) =>
      void act(s.name, async () => {
        const r = await call(bridge, 'mcp.restart', { name: s.name })
        const old = client.getQueryData<McpList>(mcpKey)
        if (old)
          setServers(
            client,
            old.servers.map((x) => (x.name === s.name ? r.server : x)),
          )
      }),
    remove: (s) =>
      void act(s.name, () =>
        call(bridge, 'mcp.remove', { name: s.name }).then((r) => setServers(client, r.servers)),
      ),
  }
  const confirm = (): void => {
    if (!consent) return
    const { name, line } = consent
    setBusy(name)
    update({ name, enabled: true, confirmedFingerprint: line.fingerprint })
      .then(() => setConsent(null))
      .catch((e: unknown) => setConsentError((e as Error).message))
      .finally(() => setBusy(null))
  }
  return {
    actions,
    busy,
    errors,
    consent,
    consentError,
    confirm,
    cancelConsent: () => setConsent(null),
  }
}
