import type { Context } from '../context.js';

/** The rules of the service. Routes stay thin and call these; these call the store. */
export type Services = {};

export const createServices = (_ctx: Context): Services => ({});
