/**
 * Remembered "always allow" decisions, kept in the settings (`alwaysAllow`). A rule
 * holds for one server's tool with one fingerprint: when the server's configuration or
 * the tool's description or schema changes, so does the fingerprint, and Cairn asks again.
 */
import type { PermissionRuleStore, ToolDescriptor } from '../../core/ports'
import type { SettingsStore } from './settings-store'

export class SettingsPermissionRules implements PermissionRuleStore {
  constructor(
    private readonly settings: Pick<SettingsStore, 'get' | 'update'>,
    private readonly now: () => number = Date.now,
  ) {}

  isAlwaysAllowed(tool: ToolDescriptor): boolean {
    return this.settings
      .get()
      .alwaysAllow.some(
        (r) =>
          r.server === tool.server && r.tool === tool.tool && r.fingerprint === tool.fingerprint,
      )
  }

  /** Adds the rule, replacing any older one for the same server and tool. */
  rememberAlwaysAllow(tool: ToolDescriptor): void {
    const createdAt = this.now()
    this.settings.update((s) => {
      s.alwaysAllow = s.alwaysAllow.filter(
        (r) => !(r.server === tool.server && r.tool === tool.tool),
      )
      s.alwaysAllow.push({
        server: tool.server,
        tool: tool.tool,
        fingerprint: tool.fingerprint,
        createdAt,
      })
    })
  }
}
