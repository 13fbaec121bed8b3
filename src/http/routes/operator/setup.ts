import { Type } from 'typebox';
import { startupNotes } from '../../../startup-notes.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { operatorErrors, operatorSchema } from './common.ts';

export const setupRoute = {
  method: 'GET',
  url: '/operator/setup',
  schema: {
    ...operatorSchema(),
    summary:
      'What the operator should know about the configuration (the start-up notes): the YouTube source and keys, ' +
      'rejected keys, no users yet. The dashboard shows the warnings as a banner.',
    response: {
      200: json(
        'The start-up notes, warnings first.',
        Type.Object(
          {
            notes: Type.Array(
              Type.Object({
                code: Type.String(),
                level: Type.Union([Type.Literal('info'), Type.Literal('warn')]),
                message: Type.String(),
              }),
            ),
          },
          {
            examples: [
              {
                notes: [
                  {
                    code: 'NO_DATA_API_KEY',
                    level: 'warn',
                    message:
                      'No YouTube Data API key is configured: the service reads YouTube without one (keyless ' +
                      'InnerTube), with approximate dates and counts.',
                  },
                ],
              },
            ],
          },
        ),
      ),
      ...operatorErrors(),
    },
  },
} as const;

export async function setup(request: RequestOf<typeof setupRoute.schema>) {
  return { notes: await startupNotes(request.server.services) };
}
