export { checkColumns, type ColumnProblem, type ColumnSource, type ColumnsOf } from './columns.js';
export { type NodeDataField, nodeDataSchemas } from './node-data.js';
export { collectDriveFileIds, collectUploadIds, dataSourceNodes } from './nodes.js';
export { type OutputKind, templateOutputs } from './outputs.js';
export { type GraphPlan, planGraph } from './plan.js';
export { type GraphValidation, MAX_NODE_ID_LENGTH, type ValidateOptions, validateGraph } from './validate.js';
