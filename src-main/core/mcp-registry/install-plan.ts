/**
 * From a registry's `server.json` to what Cairn would run: each package as the command line
 * of a known package runner (npm through `npx`, PyPI through `uvx`, OCI images through
 * `docker run`), each remote as its address, with the values it needs (environment
 * variables, headers, arguments without a fixed value). Anything else is refused with the
 * reason: a runner Cairn does not know, a kind of package it cannot run, a package that is
 * not spoken to over stdio. Nothing here runs anything: the configuration it builds is added
 * switched off, for the user to review like any other server.
 */
import type {
  RegistryInput,
  RegistryInstallOption,
  RegistryPublisher,
  RegistryServerSummary,
  RegistryServerView,
} from '../../../src-preload/contract/mcp-registry'
import type { McpServerConfigDto } from '../../../src-preload/contract/dto'
import { ExpectedError } from '../errors'
import {
  packageSchema,
  remoteSchema,
  type KeyValueInput,
  type RegistryArgument,
  type RegistryPackage,
  type RegistryRemote,
  type ServerAnswer,
} from './server-json'

/** the runner of each kind of package Cairn installs, and the only one it accepts */
const RUNNERS: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker' }

/** `io.github.alice/weather` → who that namespace stands for */
export function publisherOf(s: ServerAnswer['server']): RegistryPublisher {
  const namespace = s.name.split('/')[0] ?? s.name
  const parts = namespace.split('.')
  const verifiedAs =
    parts[0] === 'io' && parts[1] === 'github' && parts.length >= 3
      ? `GitHub account ${parts.slice(2).join('.')}`
      : `the domain ${[...parts].reverse().join('.')}`
  return {
    namespace,
    verifiedAs,
    repository: s.repository?.url ?? null,
    website: s.websiteUrl ?? null,
  }
}

/** a name Cairn's settings accept, from the registry's (`io.github.alice/weather` → `weather`) */
export function suggestedName(registryName: string): string {
  const last = registryName.split('/').pop() ?? registryName
  const clean = last
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
  const name = clean || 'server'
  return name.toLowerCase() === 'cairn' ? 'cairn-server' : name
}

function inputOf(kind: RegistryInput['kind'], id: string, i: KeyValueInput): RegistryInput {
  return {
    id,
    kind,
    name: i.name,
    description: i.description ?? '',
    required: i.isRequired === true,
    secret: i.isSecret === true,
    default: i.value ?? i.default ?? '',
    choices: i.choices ?? [],
  }
}

/** One argument: its words on the command line, or an input when the user must give its value. */
interface ArgPart {
  words: (value: string) => string[]
  input: RegistryInput | null
  fixed: string | null
}

function argumentPart(a: RegistryArgument, id: string): ArgPart {
  const fixed = a.value ?? null
  const words = (v: string): string[] =>
    a.type === 'named'
      ? v === ''
        ? fixed === null
          ? []
          : [a.name]
        : [a.name, v]
      : v === ''
        ? []
        : [v]
  if (fixed !== null) return { words, input: null, fixed }
  const name = a.type === 'named' ? a.name : (a.valueHint ?? `argument ${id.slice(4)}`)
  return { words, input: inputOf('argument', id, { ...a, name }), fixed: null }
}

function argumentParts(p: RegistryPackage): { runtime: ArgPart[]; pkg: ArgPart[] } {
  let n = 0
  const parts = (list: RegistryArgument[] | undefined): ArgPart[] =>
    (list ?? []).map((a) => argumentPart(a, `arg:${n++}`))
  return { runtime: parts(p.runtimeArguments), pkg: parts(p.packageArguments) }
}

/** the package as its runner names it: `name@1.2.0`, `name==1.2.0`, `image:1.2.0` */
function packageRef(p: RegistryPackage): string {
  const v = p.version && p.version !== 'latest' ? p.version : null
  if (!v) return p.identifier
  if (p.registryType === 'npm') return `${p.identifier}@${v}`
  if (p.registryType === 'pypi') return `${p.identifier}==${v}`
  // an OCI identifier may carry its tag already
  const lastPart = p.identifier.split('/').pop() ?? ''
  return lastPart.includes(':') || lastPart.includes('@') ? p.identifier : `${p.identifier}:${v}`
}

/** why this package cannot be installed, or null */
function packageRefusal(p: RegistryPackage): string | null {
  const runner = RUNNERS[p.registryType]
  if (!runner)
    return `Cairn does not install ${p.registryType} packages from a registry (it runs npm, PyPI and OCI packages).`
  if (p.runtimeHint !== undefined && p.runtimeHint !== runner)
    return `The registry asks to run it with "${p.runtimeHint}", which is not the package runner Cairn uses for ${p.registryType} packages (${runner}).`
  if (p.transport.type !== 'stdio')
    return `It runs as an HTTP server of its own (${p.transport.type}); Cairn installs packages that speak over stdio.`
  if (p.identifier.startsWith('-') || /\s/.test(p.identifier))
    return `"${p.identifier}" is not a package name.`
  return null
}

/** The command line of a package with `values` filled in (`values[id]`, else the default). */
export function packageCommand(
  p: RegistryPackage,
  values: Record<string, string>,
): { command: string; args: string[] } {
  const runner = RUNNERS[p.registryType] ?? ''
  const { runtime, pkg } = argumentParts(p)
  const fill = (parts: ArgPart[]): string[] =>
    parts.flatMap((a) => a.words(a.fixed ?? values[a.input!.id] ?? a.input!.default))
  const before = fill(runtime)
  const after = fill(pkg)
  const ref = packageRef(p)
  if (runner === 'npx')
    return {
      command: 'npx',
      args: [...(before.includes('-y') ? before : ['-y', ...before]), ref, ...after],
    }
  if (runner === 'uvx') return { command: 'uvx', args: [...before, ref, ...after] }
  // docker: the container gets the variables Cairn sets for it by name, never by value here
  const envFlags = (p.environmentVariables ?? []).flatMap((e) => ['-e', e.name])
  return {
    command: 'docker',
    args: ['run', '-i', '--rm', ...envFlags, ...before, ref, ...after],
  }
}

function packageOption(p: RegistryPackage, index: number): RegistryInstallOption {
  const refused = packageRefusal(p)
  const { runtime, pkg } = argumentParts(p)
  const inputs = [
    ...(p.environmentVariables ?? []).map((e) => inputOf('env', `env:${e.name}`, e)),
    ...[...runtime, ...pkg].flatMap((a) => (a.input ? [a.input] : [])),
  ]
  const line = refused ? null : packageCommand(p, {})
  return {
    id: `package:${index}`,
    kind: 'package',
    type: p.registryType,
    target: p.identifier,
    version: p.version ?? null,
    command: line?.command ?? null,
    args: line?.args ?? [],
    url: null,
    inputs,
    refused,
  }
}

function remoteOption(r: RegistryRemote, index: number): RegistryInstallOption {
  let refused: string | null = null
  if (!/^https?:\/\//i.test(r.url) || !URL.canParse(r.url))
    refused = `"${r.url}" is not an http or https address.`
  else if (r.url.includes('{'))
    refused =
      'Its address has parts to fill in, which Cairn cannot do yet: add it with the form instead.'
  return {
    id: `remote:${index}`,
    kind: 'remote',
    type: r.type,
    target: r.url,
    version: null,
    command: null,
    args: [],
    url: r.url,
    inputs: (r.headers ?? []).map((h) => inputOf('header', `header:${h.name}`, h)),
    refused,
  }
}

function invalidOption(kind: 'package' | 'remote', index: number): RegistryInstallOption {
  return {
    id: `${kind}:${index}`,
    kind,
    type: 'unknown',
    target: '',
    version: null,
    command: null,
    args: [],
    url: null,
    inputs: [],
    refused: `The registry describes this ${kind} in a form Cairn does not read.`,
  }
}

/** Every way to run the server, each checked on its own. */
export function installOptions(s: ServerAnswer['server']): RegistryInstallOption[] {
  const packages = s.packages.map((raw, i) => {
    const p = packageSchema.safeParse(raw)
    return p.success ? packageOption(p.data, i) : invalidOption('package', i)
  })
  const remotes = s.remotes.map((raw, i) => {
    const r = remoteSchema.safeParse(raw)
    return r.success ? remoteOption(r.data, i) : invalidOption('remote', i)
  })
  return [...packages, ...remotes]
}

export function summaryOf(a: ServerAnswer): RegistryServerSummary {
  const s = a.server
  const kinds = [
    ...new Set([
      ...s.packages.map((p) => {
        const r = packageSchema.safeParse(p)
        return r.success ? r.data.registryType : 'unknown'
      }),
      ...(s.remotes.length > 0 ? ['remote'] : []),
    ]),
  ]
  return {
    name: s.name,
    title: s.title ?? null,
    description: s.description,
    version: s.version,
    publisher: publisherOf(s),
    status: a._meta?.['io.modelcontextprotocol.registry/official']?.status ?? null,
    kinds,
  }
}

export function viewOf(a: ServerAnswer, configured: (name: string) => boolean): RegistryServerView {
  const name = suggestedName(a.server.name)
  return {
    ...summaryOf(a),
    publishedAt: a._meta?.['io.modelcontextprotocol.registry/official']?.publishedAt ?? null,
    options: installOptions(a.server),
    suggestedName: name,
    exists: configured(name),
  }
}

/** A value that is required and not given (nor has a default), by its input. */
export function missingInputs(
  option: RegistryInstallOption,
  values: Record<string, string>,
): RegistryInput[] {
  return option.inputs.filter((i) => i.required && !(values[i.id] ?? i.default))
}

/**
 * The server's entry for the settings (switched off), from the option the user chose and
 * the values they gave. Throws `InstallRefused` for an option Cairn will not install or a
 * required value that is missing.
 */
export function configFor(
  s: ServerAnswer['server'],
  optionId: string,
  values: Record<string, string>,
): McpServerConfigDto {
  const option = installOptions(s).find((o) => o.id === optionId)
  if (!option) throw new InstallRefused(`${s.name} has no way to run called "${optionId}".`)
  if (option.refused) throw new InstallRefused(option.refused)
  const missing = missingInputs(option, values)
  if (missing.length > 0)
    throw new InstallRefused(
      `${s.name} needs ${missing.map((m) => m.name).join(', ')}: give ${missing.length === 1 ? 'it a value' : 'them values'}.`,
      missing,
    )
  const given = (i: RegistryInput): string => values[i.id] ?? i.default
  const keyed = (kind: RegistryInput['kind']): Record<string, string> =>
    Object.fromEntries(
      option.inputs
        .filter((i) => i.kind === kind && given(i) !== '')
        .map((i) => [i.name, given(i)]),
    )
  if (option.kind === 'remote') {
    const headers = keyed('header')
    return { disabled: true, url: option.url!, ...(Object.keys(headers).length ? { headers } : {}) }
  }
  const index = Number(optionId.slice('package:'.length))
  const line = packageCommand(packageSchema.parse(s.packages[index]), values)
  const env = keyed('env')
  return { disabled: true, ...line, ...(Object.keys(env).length ? { env } : {}) }
}

/**
 * An option Cairn will not install, or values it lacks: `bad_request`, with each missing
 * value's input id under `values.<id>` in the details' fields.
 */
export class InstallRefused extends ExpectedError<'bad_request'> {
  constructor(
    message: string,
    readonly missing: RegistryInput[] = [],
  ) {
    super('bad_request', message, {
      details: {
        fields: Object.fromEntries(missing.map((m) => [`values.${m.id}`, 'a value is needed'])),
      },
    })
    this.name = 'InstallRefused'
  }
}
