// @flowctl/engine: everything a run needs except I/O. Data, AI and mail reach it through Ports.
export * from './types.js';
export { type AiReplyCheck, buildOutputSchema, validateAiReply } from './ai-schema.js';
export { typeCsvRow, typeCsvValue } from './csv.js';
export { emailAddressProblem, INVISIBLE_CHARACTER, invisibleCharacterIn, isValidEmailAddress, suppressionKey } from './email.js';
export { findUnstorableText, toStorableText, toStorableValue, type UnstorableText, unstorableTextProblem } from './storable.js';
export { EngineError, errorMessage, FilterError, GraphCycleError, GraphError, TemplateError } from './errors.js';
export { executeRun } from './executor.js';
export {
    type CompareOperator,
    compileFilter,
    type FilterAst,
    type FilterPredicate,
    MAX_FILTER_DEPTH,
    MAX_FILTER_LENGTH,
    parseFilter
} from './filter/index.js';
export {
    checkColumns,
    type ColumnProblem,
    type ColumnSource,
    type ColumnsOf,
    collectDriveFileIds,
    collectUploadIds,
    dataSourceNodes,
    type GraphPlan,
    type GraphValidation,
    type ValidateOptions,
    MAX_NODE_ID_LENGTH,
    type NodeDataField,
    nodeDataSchemas,
    type OutputKind,
    planGraph,
    templateOutputs,
    validateGraph
} from './graph/index.js';
export {
    type CompiledTemplate,
    compileTemplate,
    type ItemRef,
    type NodeRef,
    type ParsedTemplate,
    parseTemplate,
    renderTemplate,
    renderTemplateText,
    resolveReference,
    stringifyValue,
    type TemplatePart,
    type TemplateRef,
    type TemplateScope,
    templateRefs
} from './templates/index.js';
export { dueTick, isTimeZone, nextTick, type ScheduleOptions, scheduleProblems } from './schedule.js';
export { SLICE_MS, Slicer } from './slices.js';
