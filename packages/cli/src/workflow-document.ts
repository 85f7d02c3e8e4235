// A workflow as a YAML file that `apply` takes: {name, webhookUrl?, graph}. Used by `workflows get -o
// yaml` and by `diff`, which lays the server's copy out in the local file's key order so that only
// real changes show (the server keeps object keys in its own order).

export interface WorkflowDocument {
    name: string;
    webhookUrl?: string;
    graph: unknown;
}

export const workflowDocument = (workflow: { name: string; webhookUrl?: string | null; graph: unknown }): WorkflowDocument => ({
    name: workflow.name,
    ...(workflow.webhookUrl ? { webhookUrl: workflow.webhookUrl } : {}),
    graph: workflow.graph
});

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` with its object keys in the order `like` has them (keys `like` lacks after, as they were). */
export const inKeyOrderOf = (value: unknown, like: unknown): unknown => {
    if (Array.isArray(value)) {
        return value.map((item, i) => inKeyOrderOf(item, Array.isArray(like) ? like[i] : undefined));
    }

    if (!isObject(value)) {
        return value;
    }

    const model = isObject(like) ? like : {};
    const keys = [...Object.keys(model).filter((key) => key in value), ...Object.keys(value).filter((key) => !(key in model))];
    return Object.fromEntries(keys.map((key) => [key, inKeyOrderOf(value[key], model[key])]));
};

export const toYaml = async (document: unknown): Promise<string> => {
    const { stringify } = await import('yaml');
    return stringify(document, { lineWidth: 0 });
};
