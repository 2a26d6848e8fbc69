/**
 * What a GGUF file is, read from its header with node-llama-cpp's reader (no model is
 * loaded): its architecture, name, trained context, chat template, quantization and
 * whether all its tensor data is there. A file that is not GGUF, or whose data is cut
 * short (a download that stopped), is refused with what to do.
 */
import fs from 'node:fs/promises'
import { ExpectedError } from '../../core/errors'
import { formatBytes } from '../../core/local-models/memory'

export class ModelFileError extends ExpectedError<'model_file_invalid'> {
  constructor(
    message: string,
    /** what is wrong with the file */
    readonly problem: 'not_gguf' | 'truncated' | 'unreadable',
  ) {
    super('model_file_invalid', message)
    this.name = 'ModelFileError'
  }
}

export interface GgufSummary {
  architecture: string
  /** the model's own name (general.name), when it has one */
  modelName: string | null
  /** tokens the model was trained with */
  contextLength: number | null
  /** the file carries a chat template (tool calling follows it) */
  chatTemplate: boolean
  /** e.g. Q4_K_M, from general.file_type */
  quantization: string | null
  /** the file's length in bytes */
  size: number
}

/** bytes per block and elements per block of ggml's common tensor types (by type id) */
const BLOCK: Record<number, [bytes: number, elements: number]> = {
  0: [4, 1], // F32
  1: [2, 1], // F16
  2: [18, 32], // Q4_0
  3: [20, 32], // Q4_1
  6: [22, 32], // Q5_0
  7: [24, 32], // Q5_1
  8: [34, 32], // Q8_0
  10: [84, 256], // Q2_K
  11: [110, 256], // Q3_K
  12: [144, 256], // Q4_K
  13: [176, 256], // Q5_K
  14: [210, 256], // Q6_K
  15: [292, 256], // Q8_K
  24: [1, 1], // I8
  25: [2, 1], // I16
  26: [4, 1], // I32
  27: [8, 1], // I64
  28: [8, 1], // F64
  30: [2, 1], // BF16
}

interface TensorInfo {
  offset: number | bigint
  dimensions: readonly (number | bigint)[]
  ggmlType: number
}

/** The byte where the data of the last tensor ends (known types), or where it starts. */
function dataEnd(tensors: readonly TensorInfo[], dataStart: number): number {
  let end = dataStart
  for (const t of tensors) {
    const start = dataStart + Number(t.offset)
    const block = BLOCK[t.ggmlType]
    const count = t.dimensions.reduce<number>((n, d) => n * Number(d), 1)
    end = Math.max(end, block ? start + Math.ceil(count / block[1]) * block[0] : start + 1)
  }
  return end
}

async function startsWithMagic(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r')
  try {
    const head = Buffer.alloc(4)
    const { bytesRead } = await handle.read(head, 0, 4, 0)
    return bytesRead === 4 && head.toString('latin1') === 'GGUF'
  } finally {
    await handle.close()
  }
}

/** Reads a GGUF file's header and checks its data is whole. */
export async function readGguf(file: string): Promise<GgufSummary> {
  let size: number
  try {
    const stat = await fs.stat(file)
    if (!stat.isFile()) throw new ModelFileError(`${file} is not a file.`, 'unreadable')
    size = stat.size
    if (!(await startsWithMagic(file))) {
      throw new ModelFileError(
        `${file} is not a GGUF model (it does not start with "GGUF"). Cairn runs GGUF files: ` +
          'look for a repository with "GGUF" in its name, or convert the model with llama.cpp.',
        'not_gguf',
      )
    }
  } catch (e) {
    if (e instanceof ModelFileError) throw e
    throw new ModelFileError(`Cannot read ${file}: ${(e as Error).message}`, 'unreadable')
  }
  const { readGgufFileInfo, GgufFileType } = await import('node-llama-cpp')
  let info: Awaited<ReturnType<typeof readGgufFileInfo>>
  try {
    info = await readGgufFileInfo(file, { readTensorInfo: true, logWarnings: false })
  } catch (e) {
    throw new ModelFileError(
      `${file} is not a readable GGUF model: its header is damaged or cut short (${(e as Error).message}). ` +
        'Download it again.',
      'truncated',
    )
  }
  const meta = info.metadata
  const alignment = Number(meta.general?.alignment ?? 32)
  const dataStart = Math.ceil((info.infoEndOffset ?? 0) / alignment) * alignment
  const end = dataEnd((info.tensorInfo ?? []) as TensorInfo[], dataStart)
  if (end > size) {
    throw new ModelFileError(
      `${file} is cut short: it holds ${formatBytes(size)} of the ${formatBytes(end)} its header describes. ` +
        'The download or copy did not finish: get the file again.',
      'truncated',
    )
  }
  const arch = info.architectureMetadata as { context_length?: number }
  const fileType = meta.general?.file_type
  return {
    architecture: String(meta.general?.architecture ?? 'unknown'),
    modelName: typeof meta.general?.name === 'string' ? meta.general.name : null,
    contextLength: typeof arch.context_length === 'number' ? arch.context_length : null,
    chatTemplate: typeof meta.tokenizer?.chat_template === 'string',
    quantization: fileType !== undefined ? quantName(GgufFileType, Number(fileType)) : null,
    size,
  }
}

/** `MOSTLY_Q4_K_M` → `Q4_K_M` (a numeric enum maps its values back to their names) */
function quantName(types: object, type: number): string | null {
  const name = (types as Record<number, string | undefined>)[type]
  return typeof name === 'string' ? name.replace(/^MOSTLY_/, '') : null
}
