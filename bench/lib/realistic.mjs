// The realistic 50 MiB upload of the big-run benchmarks: about 516,000 rows of name,email,age,city.
const MB = 1024 * 1024;
const CITIES = ['Paris', 'Berlin', 'Madrid', 'Rome', 'Lisbon', 'Vienna', 'Prague', 'Dublin'];
export const realistic = () => {
    const lines = ['name,email,age,city'];
    let bytes = 0;
    for (let i = 0; bytes < 50 * MB - 200; i++) {
        // Padded names make rows of about 105 bytes: 50 MiB is about 500,000 rows.
        const line = `Person number ${i} ${'x'.repeat(40)},person.${i}@example.test,${18 + (i % 73)},${CITIES[i % CITIES.length]}`;
        bytes += line.length + 1;
        lines.push(line);
    }

    return Buffer.from(lines.join('\n'));
};


/** The newsletter over it: people → FILTER `expr` → one e-mail per match. */
export const realisticGraph = (uploadId, expr) => ({
    nodes: [
        { id: 'start', type: 'TRIGGER', data: {} },
        { id: 'people', type: 'DATA_SOURCE', data: { uploadId } },
        { id: 'audience', type: 'FILTER', data: { source: '{{people.rows}}', expr } },
        { id: 'send', type: 'OUTPUT', data: { forEach: '{{audience.items}}', to: '{{item.email}}', subject: 'Hello {{item.name}}', body: 'See you in {{item.city}}.' } }
    ],
    edges: [
        { source: 'start', target: 'people' },
        { source: 'people', target: 'audience' },
        { source: 'audience', target: 'send' }
    ]
});
