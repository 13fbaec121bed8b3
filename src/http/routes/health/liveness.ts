import { Type } from 'typebox';
import { json } from '../../schemas/common.ts';

export const livenessRoute = {
  method: 'GET',
  url: '/healthz',
  schema: {
    tags: ['operations'],
    summary: 'Liveness: the process is up.',
    response: { 200: json('The process is up.', Type.Object({ status: Type.Literal('ok') })) },
  },
} as const;

export async function liveness() {
  return { status: 'ok' as const };
}
