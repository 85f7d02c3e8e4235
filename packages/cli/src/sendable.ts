import type { Graph } from '@flowctl/engine';
import type { GraphInput } from '@flowctl/sdk';

/**
 * A workflow file's graph as the SDK sends it. loadWorkflows() checked it with the engine's own
 * validateGraph, the rules GraphInput is generated from, and reported every problem at its line.
 */
export const sendable = (graph: Graph): GraphInput => graph as unknown as GraphInput;
