export { compileFilter, type FilterPredicate } from './compile.js';
export { type CompareOperator, type FilterAst, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter } from './parse.js';
