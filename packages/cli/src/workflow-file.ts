// Workflow YAML files: the API's shape (`name`, `graph: {nodes, edges}`, optional `webhookUrl`), plus
// `file: ./contacts.csv` in a DATA_SOURCE's data. Checked here, before any request, with the engine's
// own graph validation; every problem is reported with its file, line and column.
import Fs from 'node:fs';
import Path from 'node:path';

import type { ColumnSource, Graph, GraphNode } from '@flowctl/engine';
import type { Document, LineCounter } from 'yaml';

import { columnMistakes, fileHeader, namePattern } from './columns.js';
import { CliError, EXIT, type ExitCode, usageError } from './errors.js';

export interface FileProblem {
    file: string;
    line: number;
    col: number;
    message: string;
}

export interface LocalSource {
    nodeId: string;
    /** As written in the YAML. */
    file: string;
    /** Resolved against the YAML file's folder. */
    path: string;
}

export interface WorkflowFile {
    /** The YAML file, relative to the working directory. */
    file: string;
    name: string;
    webhookUrl?: string | null;
    /** The graph; a DATA_SOURCE with `file:` holds `uploadId: "file:<as written>"` until uploaded. */
    graph: Graph;
    sources: LocalSource[];
    /** The line and column of a graph path (`graph.nodes[3].data.subject`), at `pattern` within its value when given. */
    locate(path: string, message: string, pattern?: RegExp): FileProblem;
}

export type Loaded = { ok: true; workflow: WorkflowFile } | { ok: false; problems: FileProblem[] };

const TOP_LEVEL_KEYS = new Set(['name', 'graph', 'webhookUrl']);
export const LOCAL_FILE_PREFIX = 'file:';

export const formatProblem = (p: FileProblem): string => `${p.file}:${p.line}:${p.col}: ${p.message}`;

/** `nodes[2].data.expr` -> ['nodes', 2, 'data', 'expr'] */
export const enginePath = (path: string): (string | number)[] =>
    path
        .split(/\.|(?=\[)/)
        .filter(Boolean)
        .map((part) => (part.startsWith('[') ? Number(part.slice(1, -1)) : part));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

class Locator {
    constructor(
        private readonly file: string,
        private readonly text: string,
        private readonly doc: Document,
        private readonly lines: LineCounter
    ) {}

    /**
     * The position of the deepest part of `path` that exists in the document; with `pattern`, of its
     * first match in the source of the value at `path` (a name inside a template, even a block scalar's).
     */
    at(path: (string | number)[], message: string, pattern?: RegExp): FileProblem {
        for (let depth = path.length; depth >= 0; depth--) {
            const node = depth === 0 ? this.doc.contents : (this.doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined);
            if (node && typeof node === 'object' && 'range' in node && node.range) {
                const found = pattern && depth === path.length ? this.text.slice(node.range[0], node.range[1]).search(pattern) : -1;
                const { line, col } = this.lines.linePos(node.range[0] + Math.max(found, 0));
                return { file: this.file, line, col, message };
            }
        }

        return { file: this.file, line: 1, col: 1, message };
    }
}

export const loadWorkflowFile = async (path: string): Promise<Loaded> => {
    const file = Path.relative(process.cwd(), path) || path;
    let text: string;
    try {
        text = Fs.readFileSync(path, 'utf8');
    } catch (err) {
        return { ok: false, problems: [{ file, line: 1, col: 1, message: `cannot read the file: ${(err as Error).message}` }] };
    }

    const [{ LineCounter, parseDocument }, { validateGraph }] = await Promise.all([import('yaml'), import('@flowctl/engine')]);
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
        return {
            ok: false,
            // `linePos` is only filled in with prettyErrors (which also pastes source lines into the
            // message); the parser's offset through our LineCounter gives the same line and column.
            problems: doc.errors.map((error) => {
                const { line, col } = lines.linePos(error.pos[0]);
                return { file, line, col, message: error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') };
            })
        };
    }

    const locate = new Locator(file, text, doc, lines);
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    if (!isRecord(value)) {
        return { ok: false, problems: [locate.at([], 'a workflow file is a mapping with `name` and `graph: {nodes, edges}`')] };
    }

    const problems: FileProblem[] = [];
    for (const key of Object.keys(value)) {
        if (!TOP_LEVEL_KEYS.has(key)) {
            problems.push(locate.at([key], `unknown key '${key}': a workflow has name, graph and webhookUrl`));
        }
    }

    if (typeof value.name !== 'string' || value.name.trim() === '') {
        problems.push(locate.at(['name'], '`name` is required: the text that names this workflow (apply matches workflows by it)'));
    }

    if (value.webhookUrl !== undefined && value.webhookUrl !== null && typeof value.webhookUrl !== 'string') {
        problems.push(locate.at(['webhookUrl'], '`webhookUrl` must be an http(s) URL'));
    }

    if (value.graph === undefined) {
        problems.push(locate.at([], '`graph` is required: `graph: {nodes: [...], edges: [...]}`'));
        return { ok: false, problems };
    }

    const sources: LocalSource[] = [];
    const graph = value.graph as Graph;
    const nodes = isRecord(graph) && Array.isArray(graph.nodes) ? (graph.nodes as unknown[]) : [];
    nodes.forEach((node, index) => {
        if (!isRecord(node) || node.type !== 'DATA_SOURCE' || !isRecord(node.data) || node.data.file === undefined) {
            return;
        }

        const where = ['graph', 'nodes', index, 'data', 'file'];
        const data = node.data;
        if (typeof data.file !== 'string' || data.file === '') {
            problems.push(locate.at(where, '`file` is the path of a CSV file, relative to this YAML file'));
            return;
        }

        if (data.uploadId !== undefined) {
            problems.push(locate.at(where, 'give either `file` or `uploadId`, not both'));
            return;
        }

        const resolved = Path.resolve(Path.dirname(path), data.file);
        if (Fs.statSync(resolved, { throwIfNoEntry: false })?.isFile()) {
            sources.push({ nodeId: String(node.id), file: data.file, path: resolved });
        } else {
            problems.push(locate.at(where, `no such file: ${Path.relative(process.cwd(), resolved)}`));
        }

        const { file: _file, ...rest } = data;
        (node as unknown as GraphNode).data = { ...rest, uploadId: `${LOCAL_FILE_PREFIX}${data.file}` };
    });

    const validation = validateGraph(graph);
    if (!validation.ok) {
        for (const problem of validation.problems) {
            problems.push(locate.at(['graph', ...enginePath(problem.path)], problem.message));
        }
    }

    // Names the CSV files named here do not have, before any upload: the server would refuse them too.
    const headers = new Map<string, ColumnSource>();
    for (const source of sources) {
        const columns = fileHeader(source.path);
        if (columns) {
            headers.set(source.nodeId, { columns, label: source.file });
        }
    }

    for (const mistake of await columnMistakes(graph, headers)) {
        problems.push(locate.at(['graph', ...enginePath(mistake.path)], mistake.message, namePattern(mistake.path, mistake.field)));
    }

    if (problems.length > 0) {
        problems.sort((a, b) => a.line - b.line || a.col - b.col);
        return { ok: false, problems };
    }

    const webhookUrl = value.webhookUrl as string | null | undefined;
    return {
        ok: true,
        workflow: {
            file,
            name: (value.name as string).trim(),
            ...(webhookUrl !== undefined ? { webhookUrl } : {}),
            graph,
            sources,
            locate: (where, message, pattern) => locate.at(enginePath(where), message, pattern)
        }
    };
};

/** A YAML file, or every `.yaml`/`.yml` file of a folder (not its subfolders), sorted. */
export const workflowPaths = (target: string): string[] => {
    const stat = Fs.statSync(target, { throwIfNoEntry: false });
    if (!stat) {
        throw usageError(`no such file or folder: ${target}`, 'pass a workflow YAML file or a folder of them with -f');
    }

    if (stat.isFile()) {
        return [target];
    }

    const files = Fs.readdirSync(target)
        .filter((name) => /\.ya?ml$/i.test(name))
        .sort()
        .map((name) => Path.join(target, name));
    if (files.length === 0) {
        throw usageError(`no .yaml or .yml file in ${target}`, 'pass a workflow YAML file or a folder of them with -f');
    }

    return files;
};

/** Every problem of the workflow files, one file:line:col line each. */
export const fileProblems = (problems: FileProblem[], hint = 'fix the lines above; nothing was sent to the server', exitCode: ExitCode = EXIT.usage): CliError =>
    new CliError(
        `${problems.length === 1 ? 'a problem' : `${problems.length} problems`} in the workflow file${new Set(problems.map((p) => p.file)).size > 1 ? 's' : ''}:\n${problems.map(formatProblem).join('\n')}`,
        exitCode,
        hint,
        { problems }
    );

/** Loads every file; throws a usage error listing every problem of every file. */
export const loadWorkflows = async (targets: string[]): Promise<WorkflowFile[]> => {
    const loaded = await Promise.all(targets.flatMap(workflowPaths).map(loadWorkflowFile));
    const problems = loaded.flatMap((result) => (result.ok ? [] : result.problems));
    if (problems.length > 0) {
        throw fileProblems(problems);
    }

    return loaded.map((result) => (result as { ok: true; workflow: WorkflowFile }).workflow);
};
