export { type ItemRef, MAIL_VARS, type MailVar, type MailVarRef, type NodeRef, type ParsedTemplate, parseTemplate, type TemplatePart, type TemplateRef, templateRefs } from './parse.js';
export {
    type CompiledTemplate,
    compileTemplate,
    MAX_RENDERED_CHARS,
    renderTemplate,
    renderTemplateText,
    resolveReference,
    stringifyValue,
    type TemplateScope
} from './render.js';
