/** What each permission policy is called in the assistants screen, and what it lets run. */
import type { PermissionPolicy } from '../../../../src-preload/contract/dto'

export const POLICY_LABELS: Record<PermissionPolicy, string> = {
  ask: 'Ask before every tool call',
  'read-only': 'Read-only calls run, the rest ask',
  'allow-all': 'Allow all',
  'deny-all': 'Deny all',
}

export const POLICY_EFFECTS: Record<PermissionPolicy, string> = {
  ask: 'every tool call asks you first',
  'read-only': 'tools that say they only read run without asking',
  'allow-all': 'every tool call runs without asking, commands included',
  'deny-all': 'no tool runs',
}
