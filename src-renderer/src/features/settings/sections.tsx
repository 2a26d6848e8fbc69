/**
 * The settings sections, in the order the settings screen lists them. Each section is its
 * own component (and file); the id is the address: `#/settings/<id>`.
 */
import type { JSX } from 'react'

export interface SettingsSection {
  id: string
  label: string
  Component: () => JSX.Element
}

function Pending(props: { what: string }): JSX.Element {
  return <p className="meta">{props.what}</p>
}

export const sections: SettingsSection[] = [
  { id: 'providers', label: 'Providers', Component: () => <Pending what="Providers" /> },
  { id: 'permissions', label: 'Permissions', Component: () => <Pending what="Permissions" /> },
  { id: 'mcp', label: 'MCP servers', Component: () => <Pending what="MCP servers" /> },
  { id: 'tools', label: 'Tools and workspace', Component: () => <Pending what="Tools" /> },
  { id: 'general', label: 'General', Component: () => <Pending what="General" /> },
]

export function findSection(id: string): SettingsSection {
  return sections.find((s) => s.id === id) ?? sections[0]!
}
