/** The small field schemas every domain's routes share. */
import { z } from 'zod'

export const id = z.string().min(1).max(200)
export const text = (max: number) => z.string().max(max)
export const page = {
  limit: z.number().int().min(1).max(500).optional(),
  offset: z.number().int().min(0).optional(),
}
