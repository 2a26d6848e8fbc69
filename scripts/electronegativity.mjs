#!/usr/bin/env node
/**
 * Electron security scan: runs @doyensec/electronegativity over the BUILT main and preload
 * bundles (it cannot parse current TypeScript), plus the renderer's index.html for its CSP,
 * and fails on any finding that `electronegativity-allowlist.json` does not explain.
 *
 * Allowlist entries: { "check": "<CHECK_ID>", "file": "<scanned file>", "match"?: "<text the
 * flagged source line contains>", "reason": "why this is safe" }. The file is one of
 * main/index.js, preload/index.js, renderer/index.html, or N/A for whole-app checks.
 *
 * Offline: the check that downloads Electron's release list from GitHub is left out (the
 * Electron version is kept current by dependency updates instead); the tool's attempt to
 * fetch updated translations times out after one second and changes nothing we compare.
 *
 * Usage: npm run build && npm run electronegativity
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const ALLOWLIST = join(root, 'electronegativity-allowlist.json')
/** needs the network (raw.githubusercontent.com): see above */
export const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck']

/**
 * Copies what is scanned into `dest`: electronegativity reads only .js/.ts/.html files,
 * so the CommonJS preload (index.cjs) is scanned as preload/index.js.
 */
export function stage(outDir, dest) {
  const main = join(outDir, 'main')
  const preload = join(outDir, 'preload', 'index.cjs')
  if (!existsSync(join(main, 'index.js')) || !existsSync(preload)) {
    throw new Error(
      `No built app in ${outDir}: run npm run build (or npx electron-vite build) first.`,
    )
  }
  mkdirSync(join(dest, 'main'), { recursive: true })
  for (const f of readdirSync(main).filter((f) => f.endsWith('.js'))) {
    cpSync(join(main, f), join(dest, 'main', f))
  }
  mkdirSync(join(dest, 'preload'), { recursive: true })
  cpSync(preload, join(dest, 'preload', 'index.js'))
  const html = join(outDir, 'renderer', 'index.html')
  if (existsSync(html)) {
    mkdirSync(join(dest, 'renderer'), { recursive: true })
    cpSync(html, join(dest, 'renderer', 'index.html'))
  }
}

/** The parts of an electronegativity issue that we compare and print. */
export function toFinding(issue) {
  return {
    check: String(issue.id),
    file: String(issue.file ?? 'N/A').replaceAll('\\', '/'),
    line: issue.location?.line ?? 0,
    sample: typeof issue.sample === 'string' ? issue.sample.trim() : '',
    severity: issue.severity?.name ?? '',
    confidence: issue.confidence?.name ?? '',
    description: String(issue.description ?? ''),
  }
}

/** Throws unless every entry names a check and a file and gives a reason. */
export function validateAllowlist(list) {
  if (!Array.isArray(list)) throw new Error('The allowlist must be a JSON array.')
  list.forEach((e, i) => {
    for (const key of ['check', 'file', 'reason']) {
      if (typeof e?.[key] !== 'string' || e[key].trim() === '') {
        throw new Error(
          `Allowlist entry ${i} has no "${key}": every entry needs check, file and reason.`,
        )
      }
    }
    if (e.match !== undefined && (typeof e.match !== 'string' || e.match === '')) {
      throw new Error(`Allowlist entry ${i}: "match" must be a non-empty string when given.`)
    }
  })
  return list
}

export function explains(entry, finding) {
  return (
    entry.check === finding.check &&
    entry.file === finding.file &&
    (entry.match === undefined || finding.sample.includes(entry.match))
  )
}

/** Splits findings into explained and unexplained, and lists the entries nothing matched. */
export function compare(findings, allowlist) {
  const explained = []
  const unexplained = []
  const used = new Set()
  for (const f of findings) {
    const i = allowlist.findIndex((e) => explains(e, f))
    if (i === -1) unexplained.push(f)
    else {
      used.add(i)
      explained.push({ finding: f, reason: allowlist[i].reason })
    }
  }
  return { explained, unexplained, unused: allowlist.filter((_, i) => !used.has(i)) }
}

const describe = (f) =>
  `${f.check} [${f.severity}/${f.confidence}] ${f.file}${f.line ? `:${f.line}` : ''} — ${f.description}${f.sample ? `\n      ${f.sample}` : ''}`

export async function scan(dir) {
  const run = createRequire(import.meta.url)('@doyensec/electronegativity')
  const electron = JSON.parse(
    readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ).version
  const result = await run({
    input: dir,
    isRelative: true,
    electronVersionOverride: electron,
    excludeFromScan: EXCLUDED_CHECKS.map((c) => c.toLowerCase()),
    customScan: [],
    parserPlugins: [],
  })
  return {
    findings: result.issues.map(toFinding),
    errors: result.errors.filter((e) => !e.tolerable),
  }
}

export async function main() {
  const allowlist = validateAllowlist(JSON.parse(readFileSync(ALLOWLIST, 'utf8')))
  const dir = mkdtempSync(join(tmpdir(), 'cairn-electronegativity-'))
  try {
    stage(join(root, 'out'), dir)
    const { findings, errors } = await scan(dir)
    const { explained, unexplained, unused } = compare(findings, allowlist)
    for (const { finding, reason } of explained) {
      console.log(`  reviewed  ${finding.check} ${finding.file} — ${reason}`)
    }
    for (const e of unused) {
      console.warn(`  note: allowlist entry ${e.check} ${e.file} matched nothing (remove it?)`)
    }
    for (const e of errors) console.error(`  could not scan ${e.file}: ${e.message}`)
    if (unexplained.length > 0) {
      console.error(
        `\n${unexplained.length} finding(s) not explained in electronegativity-allowlist.json:`,
      )
      for (const f of unexplained) console.error(`  ${describe(f)}`)
    }
    if (unexplained.length > 0 || errors.length > 0) return 1
    console.log(`electronegativity: ${findings.length} finding(s), all reviewed.`)
    return 0
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(`electronegativity: ${e?.message ?? e}`)
      process.exit(1)
    },
  )
}
