/**
 * Remembered "always allow" decisions, kept in the settings (`alwaysAllow`). A rule
 * holds for one server's tool with one fingerprint: when the server's configuration or
 * the tool's description or schema changes, so does the fingerprint, and Cairn asks again.
 *
 * Saving is asynchronous (the settings lock is waited for without blocking the turn); a
 * rule holds in this process from the moment it is given, before the file is written.
 */
import type { AlwaysAllowRule } from './schema'
import type { ToolDescriptor } from '../../core/ports'
import type { PermissionRules, SettingsStore } from '../../core/service-ports'

const key = (server: string, tool: string): string => JSON.stringify([server, tool])

export class SettingsPermissionRules implements PermissionRules {
  /** rules given here and not yet saved, by server and tool */
  private readonly unsaved = new Map<string, AlwaysAllowRule>()
  private saving: Promise<void> = Promise.resolve()

  constructor(
    private readonly settings: Pick<SettingsStore, 'get' | 'update'>,
    private readonly now: () => number = Date.now,
    private readonly onError: (message: string) => void = () => {},
  ) {}

  isAlwaysAllowed(tool: ToolDescriptor): boolean {
    const pending = this.unsaved.get(key(tool.server, tool.tool))
    if (pending) return pending.fingerprint === tool.fingerprint
    return this.settings
      .get()
      .alwaysAllow.some(
        (r) =>
          r.server === tool.server && r.tool === tool.tool && r.fingerprint === tool.fingerprint,
      )
  }

  /** Adds the rule, replacing any older one for the same server and tool. */
  rememberAlwaysAllow(tool: ToolDescriptor): void {
    const rule: AlwaysAllowRule = {
      server: tool.server,
      tool: tool.tool,
      fingerprint: tool.fingerprint,
      createdAt: this.now(),
    }
    const k = key(rule.server, rule.tool)
    this.unsaved.set(k, rule)
    const save = async (): Promise<void> => {
      await this.settings.update((s) => {
        s.alwaysAllow = s.alwaysAllow.filter(
          (r) => !(r.server === rule.server && r.tool === rule.tool),
        )
        s.alwaysAllow.push(rule)
      })
    }
    this.saving = this.saving
      .then(save)
      .catch((e: unknown) =>
        this.onError(`The "always allow" rule for ${rule.tool} was not saved: ${String(e)}`),
      )
      .finally(() => {
        if (this.unsaved.get(k) === rule) this.unsaved.delete(k)
      })
  }

  /** Resolves once every rule given so far has been saved (or failed to save). */
  flushed(): Promise<void> {
    return this.saving
  }
}
