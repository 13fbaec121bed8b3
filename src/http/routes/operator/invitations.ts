// Invitations: create one (its link is shown once) and list them (never their tokens).
import { Type } from 'typebox';
import { createInvitation as createUserInvitation, listInvitations } from '../../../domain/operators/invitations.ts';
import { MAX_BALANCE } from '../../../domain/credits/ledger.ts';
import { CreatedInvitationSchema, InvitationSchema } from '../../../contract/operator.ts';
import { Role } from '../../../contract/common.ts';
import { json } from '../../schemas/common.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { actorOf, ListQuery, operatorErrors, operatorSchema } from './common.ts';

export const createInvitationRoute = {
  method: 'POST',
  url: '/operator/invitations',
  schema: {
    ...operatorSchema(),
    summary:
      'Invite an email (SIGNUP=invite or open): returns a one-time link that sets the password. Send it to ' +
      'the person; it is shown once.',
    body: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 254 }),
        credits: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BALANCE })),
        role: Type.Optional(Role),
      },
      { additionalProperties: false },
    ),
    response: { 201: json('The invitation and its one-time link.', CreatedInvitationSchema), ...operatorErrors() },
  },
} as const;

export async function createInvitation(
  request: RequestOf<typeof createInvitationRoute.schema>,
  reply: ReplyOf<typeof createInvitationRoute.schema>,
) {
  const { db, config } = request.server.services;
  const invitation = await createUserInvitation(db, actorOf(request), request.body, {
    mode: config.SIGNUP,
    ttlHours: config.INVITATION_TTL_HOURS,
  });
  const base = config.PUBLIC_BASE_URL ?? `${request.protocol}://${request.host}`;
  reply.code(201).header('cache-control', 'no-store');
  return { ...invitation, link: `${base.replace(/\/$/, '')}/dashboard/#/invite/${invitation.token}` };
}

export const listInvitationsRoute = {
  method: 'GET',
  url: '/operator/invitations',
  schema: {
    ...operatorSchema(),
    summary: 'Invitations, newest first (never their tokens).',
    querystring: ListQuery,
    response: {
      200: json('Invitations, newest first.', Type.Object({ invitations: Type.Array(InvitationSchema) })),
      ...operatorErrors(),
    },
  },
} as const;

export async function listInvitationsPage(request: RequestOf<typeof listInvitationsRoute.schema>) {
  return { invitations: await listInvitations(request.server.services.db, request.query.limit) };
}
