export type * from './dto'
export type * from './events'
