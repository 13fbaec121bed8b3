// Named components for the OpenAPI document. Every schema with an $id (the shapes of src/contract/
// and the request bodies of http/schemas/) becomes #/components/schemas/<$id> and is referred to
// by $ref wherever a route or webhook uses it. @fastify/swagger hoists $id'd schemas nested in
// plain route schemas, but not those inside a response's `content` (where the examples live), so
// the document is given its references here, before @fastify/swagger reads a route's schema.

import { exampleOf } from './schemas/responses.ts';

type Json = Record<string, unknown>;
type Examples = Record<string, { summary?: string; value: unknown }>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Collects $id'd schemas and replaces them by references, without touching the route's own schema. */
export class ComponentCollector {
  readonly components = new Map<string, Json>();
  /** Request body examples by "METHOD /openapi/{path}": @fastify/swagger drops them beside a $ref. */
  readonly bodyExamples = new Map<string, Examples>();

  /** A copy of `value` whose nested $id'd schemas are $refs (the top level stays inline when `keepTop`). */
  hoist(value: unknown, keepTop = false): unknown {
    if (Array.isArray(value)) return value.map((v) => this.hoist(v));
    if (!isObject(value)) return value;
    const id = value.$id;
    if (typeof id === 'string' && !keepTop) {
      this.#register(id, value);
      return { $ref: `#/components/schemas/${id}` };
    }
    const out: Json = {};
    for (const [key, child] of Object.entries(value)) {
      // Examples are data, not schemas: copied as they are.
      if (key === 'examples' || key === 'x-examples' || key === 'example') out[key] = child;
      else if (key === '$id') continue;
      else out[key] = this.hoist(child);
    }
    return out;
  }

  #register(id: string, schema: Json): void {
    if (this.components.has(id)) return;
    this.components.set(id, {}); // placeholder: a schema that refers to itself stops here
    this.components.set(id, this.hoist(schema, true) as Json);
  }

  /**
   * A route schema for @fastify/swagger: responses and nested shapes by reference; the body's examples are kept aside.
   */
  routeSchema(schema: Json, method: string, url: string): Json {
    const out: Json = { ...schema };
    if (isObject(schema.response)) {
      out.response = Object.fromEntries(
        Object.entries(schema.response).map(([status, response]) => [status, this.hoist(this.#named(response))]),
      );
    }
    if (isObject(schema.body)) {
      const body = schema.body;
      const listed = Array.isArray(body.examples)
        ? Object.fromEntries(body.examples.map((value, i) => [i === 0 ? 'example' : `example${i + 1}`, { value }]))
        : undefined;
      const examples = (body['x-examples'] as Examples | undefined) ??
        listed ?? { example: { value: exampleOf(body) } };
      this.bodyExamples.set(`${method.toLowerCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`, examples);
      out.body = this.hoist(body);
    }
    // Named shapes in the query and path too (the delivery filter's DeliveryState
    // was emitted as an anonymous "def-0" in the document and the typed client).
    for (const part of ['querystring', 'params'] as const)
      if (isObject(schema[part])) out[part] = this.hoist(schema[part]);
    return out;
  }

  /**
   * A response given as a bare schema (not through json()): a named shape keeps its description
   * and gets its examples, in the content form that keeps both next to the $ref.
   */
  #named(response: unknown): unknown {
    if (!isObject(response) || typeof response.$id !== 'string' || 'content' in response) return response;
    const { description, ...schema } = response;
    const shape = this.components.get(response.$id) ?? schema;
    return {
      description: description ?? shape.description ?? response.$id,
      content: {
        'application/json': {
          schema: { ...schema, ...(typeof shape.description === 'string' ? { description: shape.description } : {}) },
          examples: { example: { value: exampleOf(schema) } },
        },
      },
    };
  }

  /** Puts the request body examples kept aside by routeSchema into the finished document. */
  addBodyExamples(paths: Record<string, Record<string, { requestBody?: { content?: Record<string, Json> } }>>): void {
    for (const [key, examples] of this.bodyExamples) {
      const [method, url] = key.split(' ') as [string, string];
      const media = paths[url]?.[method]?.requestBody?.content?.['application/json'];
      if (media) {
        delete media.example;
        media.examples = examples;
      }
    }
  }
}
