// Renders the OpenAPI document's named schemas as Python TypedDicts for the Python client
// (clients/python/src/channel_shorts/types.py). Written by `npm run client:types` beside the
// TypeScript types; test/python-client.test.ts fails when the committed file differs from this.
// Python 3.9 has no NotRequired: a shape with optional keys is a base class of its required keys
// and a subclass with total=False holding the rest.
import { fileURLToPath } from 'node:url';

export const PYTHON_TYPES_PATH = fileURLToPath(
  new URL('../clients/python/src/channel_shorts/types.py', import.meta.url),
);

interface Schema {
  type?: string | string[];
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
}

const HEADER = `# Generated from the service's /openapi.json (npm run client:types at the repository root). Do not edit.
"""The shapes the channel-shorts API sends, as TypedDicts (one per named schema of /openapi.json)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union
`;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEYWORDS = new Set([
  'from',
  'class',
  'def',
  'global',
  'import',
  'in',
  'is',
  'not',
  'or',
  'and',
  'pass',
  'return',
]);
const pascal = (key: string) => key.replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

class Renderer {
  readonly #classes: string[] = [];
  readonly #byShape = new Map<string, string>();

  render(schemas: Record<string, Schema>): string {
    const named = Object.keys(schemas).sort();
    for (const name of named) this.#named(name, schemas[name]!);
    const exported = named.map((n) => `    ${JSON.stringify(n)},`).join('\n');
    return `${HEADER}\n${this.#classes.join('\n\n')}\n\n__all__ = [\n${exported}\n]\n`;
  }

  #named(name: string, schema: Schema): void {
    if (schema.type === 'object' && schema.properties) this.#object(name, schema);
    else this.#classes.push(`${name} = ${this.#type(schema, name)}`);
  }

  #object(name: string, schema: Schema): string {
    const required = new Set(schema.required ?? []);
    const entries = Object.entries(schema.properties ?? {}).map(
      ([key, value]) => [key, this.#type(value, name + pascal(key)), required.has(key)] as const,
    );
    const doc = schema.description ? `    """${schema.description.replaceAll('"""', "'''")}"""\n` : '';
    const fields = (list: typeof entries) =>
      list.length === 0 ? '    pass' : list.map(([key, type]) => `    ${key}: ${type}`).join('\n');
    const must = entries.filter(([, , r]) => r);
    const may = entries.filter(([, , r]) => !r);
    if (entries.some(([key]) => !IDENTIFIER.test(key) || KEYWORDS.has(key))) {
      const map = (list: typeof entries) => list.map(([k, t]) => `${JSON.stringify(k)}: ${JSON.stringify(t)}`);
      this.#classes.push(
        `${name} = TypedDict(${JSON.stringify(name)}, {${map(entries).join(', ')}}, total=${may.length === 0 ? 'True' : 'False'})`,
      );
    } else if (may.length === 0) this.#classes.push(`class ${name}(TypedDict):\n${doc}${fields(must)}`);
    else if (must.length === 0) this.#classes.push(`class ${name}(TypedDict, total=False):\n${doc}${fields(may)}`);
    else {
      this.#classes.push(`class _${name}Required(TypedDict):\n${fields(must)}`);
      this.#classes.push(`class ${name}(_${name}Required, total=False):\n${doc}${fields(may)}`);
    }
    return name;
  }

  /** An inline object: a class of its own, shared by every identical inline shape. */
  #inline(suggested: string, schema: Schema): string {
    const key = JSON.stringify(schema);
    const known = this.#byShape.get(key);
    if (known) return known;
    this.#byShape.set(key, suggested);
    return this.#object(suggested, schema);
  }

  #type(schema: Schema, suggested: string): string {
    if (schema.$ref) return schema.$ref.replace('#/components/schemas/', '');
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) return this.#union(variants.map((v, i) => this.#type(v, `${suggested}${i || ''}`)));
    if (schema.const !== undefined) return `Literal[${JSON.stringify(schema.const)}]`;
    if (schema.enum) return `Literal[${schema.enum.map((v) => JSON.stringify(v)).join(', ')}]`;
    if (Array.isArray(schema.type))
      return this.#union(schema.type.map((t) => this.#type({ ...schema, type: t }, suggested)));
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${schema.items ? this.#type(schema.items, `${suggested}Item`) : 'Any'}]`;
      case 'object':
        if (schema.properties) return this.#inline(suggested, schema);
        if (typeof schema.additionalProperties === 'object')
          return `Dict[str, ${this.#type(schema.additionalProperties, `${suggested}Value`)}]`;
        return 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }

  #union(types: string[]): string {
    const unique = [...new Set(types)];
    const nullable = unique.includes('None');
    const rest = unique.filter((t) => t !== 'None');
    const inner = rest.length === 1 ? rest[0]! : `Union[${rest.join(', ')}]`;
    return nullable ? `Optional[${inner}]` : inner;
  }
}

export function renderPythonTypes(doc: Record<string, unknown>): string {
  const components = (doc.components as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {};
  return new Renderer().render(components);
}
