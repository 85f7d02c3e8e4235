// The workflow file the revisions suites edit, apply and compare.

/** A newsletter to the contacts matching `expr`, with `subject`. */
export const newsletter = (expr: string, subject = 'Hello {{item.name}}') => `name: Revised newsletter
graph:
  nodes:
    - id: start
      type: TRIGGER
      data: {}
    - id: contacts
      type: DATA_SOURCE
      data:
        file: ./contacts.csv
    - id: audience
      type: FILTER
      data:
        source: "{{contacts.rows}}"
        expr: ${expr}
    - id: send
      type: OUTPUT
      data:
        forEach: "{{audience.items}}"
        to: "{{item.email}}"
        subject: ${subject}
        body: See you soon.
  edges:
    - { source: start, target: contacts }
    - { source: contacts, target: audience }
    - { source: audience, target: send }
`;
