/**
 * `@` in the message box: typing `@` opens a listbox of the connected servers' resources
 * (filtered by the word typed after it); ↑/↓ move, Enter or Tab attaches, Esc closes. A
 * template asks its variables first. Attached resources show as chips above the box.
 */
import { useMemo, useState, type JSX, type KeyboardEvent } from 'react'
import type { McpResourceTemplate } from '../../../../src-preload/contract/resources-and-prompts'
import type { Attachment } from './AttachmentChips'
import { filterChoices, mentionAt, withoutMention, choiceLabel, type Choice } from './mentions'
import { LISTBOX_ID, optionId, ResourceListbox } from './ResourceListbox'
import { TemplateForm } from './ArgumentForms'
import { useMcpResources } from './use-resources-and-prompts'

export interface ResourcePicker {
  attachments: Attachment[]
  remove(key: string): void
  clear(): void
  /** handles the picker's keys; true when it did */
  onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>): boolean
  /** the caret moved or the text changed (`text`: the box's text now) */
  onCaret(text: string, caret: number): void
  /** the listbox or the template form, when open */
  popup: JSX.Element | null
  /** attributes for the message box while the listbox is open */
  boxProps: Record<string, string | boolean | undefined>
}

export function useResourcePicker(
  text: string,
  setText: (t: string) => void,
  focusBox: () => void,
): ResourcePicker {
  const [caret, setCaret] = useState(0)
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<number | null>(null)
  const [attachments, setAttachments] = useState<Attachment[]>([])
  const [template, setTemplate] = useState<McpResourceTemplate | null>(null)
  const mention = mentionAt(text, Math.min(caret, text.length))
  const open = mention !== null && dismissed !== mention.start && template === null
  const list = useMcpResources(open)
  const query = mention?.query ?? null
  const choices = useMemo(
    () =>
      query !== null && list.data
        ? filterChoices(list.data.resources, list.data.templates, query)
        : [],
    [query, list.data],
  )
  const current = Math.min(active, Math.max(0, choices.length - 1))

  const add = ({ ref, label, detail }: Omit<Attachment, 'key'>): void => {
    const key = `${ref.server}\u0000${ref.uri ?? ref.uriTemplate}\u0000${JSON.stringify(ref.values ?? {})}`
    setAttachments((a) => (a.some((x) => x.key === key) ? a : [...a, { key, ref, label, detail }]))
  }
  const pick = (c: Choice): void => {
    if (mention) setText(withoutMention(text, mention, caret))
    setActive(0)
    if (c.kind === 'template') {
      setTemplate(c.template)
      return
    }
    add(resourceAttachment(c))
    focusBox()
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false
    if (e.key === 'Escape') {
      setDismissed(mention.start)
      return true
    }
    const move = listboxMove(e.key, current, choices.length)
    if (move === 'pick') pick(choices[current]!)
    else if (move !== null) setActive(move)
    return move !== null
  }

  const popup = template ? (
    <TemplateForm
      template={template}
      onCancel={() => {
        setTemplate(null)
        focusBox()
      }}
      onAttach={(values) => {
        setTemplate(null)
        add(templateAttachment(template, values))
        focusBox()
      }}
    />
  ) : open ? (
    <ResourceListbox
      choices={choices}
      active={current}
      loading={list.isLoading}
      problem={list.error ? `Could not list the resources: ${list.error.message}` : null}
      onPick={pick}
    />
  ) : null

  return {
    attachments,
    remove: (key) => setAttachments((a) => a.filter((x) => x.key !== key)),
    clear: () => setAttachments([]),
    onKeyDown,
    onCaret: (now, c) => {
      setCaret(c)
      // Esc closes the picker for this `@`; leaving it (or deleting it) opens the next one
      if (dismissed !== null && mentionAt(now, c)?.start !== dismissed) setDismissed(null)
    },
    popup,
    boxProps: open
      ? {
          'aria-controls': LISTBOX_ID,
          'aria-autocomplete': 'list',
          'aria-activedescendant': choices.length > 0 ? optionId(current) : undefined,
        }
      : {},
  }
}

/** what a key does in the open listbox: the option to move to, pick the current one, or nothing */
function listboxMove(key: string, current: number, count: number): number | 'pick' | null {
  if (count === 0) return null
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    const step = key === 'ArrowDown' ? 1 : -1
    return (current + step + count) % count
  }
  if (key === 'Enter' || key === 'Tab') return 'pick'
  return null
}

function resourceAttachment(c: Extract<Choice, { kind: 'resource' }>): Omit<Attachment, 'key'> {
  const r = c.resource
  return {
    ref: { server: r.server, uri: r.uri, name: r.name },
    label: choiceLabel(c),
    detail: `${r.server} · ${r.uri}`,
  }
}

/** a template with its variables filled in, labelled with their values */
function templateAttachment(
  t: McpResourceTemplate,
  values: Record<string, string>,
): Omit<Attachment, 'key'> {
  const filled = t.variables.map((v) => `${v}=${values[v]}`).join(', ')
  return {
    ref: { server: t.server, uriTemplate: t.uriTemplate, values, name: t.name },
    label: `${t.title ?? t.name} (${filled})`,
    detail: `${t.server} · ${t.uriTemplate}`,
  }
}
