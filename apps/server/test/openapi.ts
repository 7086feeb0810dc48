/** Plausible requests from the OpenAPI document (JSON schemas of fastify-type-provider-zod). */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
};
export type Operation = { parameters?: { in: string; name: string; schema?: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } };
export type Path = (string | number)[];

export const typeOf = (s: Schema) => (Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type);
export const branch = (s: Schema) => (s.anyOf ?? s.oneOf ?? s.allOf)?.find((b) => typeOf(b) !== 'null' || b.properties) ?? s;

function sampleString(s: Schema): string {
  if (s.format === 'email') return 'sample@example.com';
  if (s.format === 'date-time') return new Date().toISOString();
  if (s.format === 'date') return '2030-01-01';
  const candidates = ['Amostra', '12:00', '#123456', '2030-01-01', '5511999990000', 'abcde'];
  let value = (s.pattern && candidates.find((c) => new RegExp(s.pattern!).test(c))) || 'Amostra';
  while (value.length < (s.minLength ?? 0)) value += 'x';
  return s.maxLength !== undefined ? value.slice(0, s.maxLength) : value;
}

export function sample(schema: Schema): unknown {
  const s = branch(schema);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  switch (typeOf(s)) {
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return s.items ? [sample(s.items)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v)]));
    default:
      return s.properties ? sample({ ...s, type: 'object' }) : 'Amostra';
  }
}


/** The operation's path with every `{param}` filled: 1 for numbers, a plain word for strings. */
export function fillPath(path: string, op: Operation): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = op.parameters?.find((x) => x.in === 'path' && x.name === name);
    return typeOf(p?.schema ?? {}) === 'string' ? 'Amostra' : '1';
  });
}

/** Every operation of the document taking a JSON body, with a plausible one. */
export function jsonOperations(doc: { paths: Record<string, Record<string, Operation>> }) {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) => {
      const schema = op.requestBody?.content['application/json']?.schema;
      return schema ? [{ method: method.toUpperCase(), path, url: fillPath(path, op), body: sample(schema) }] : [];
    }),
  );
}
