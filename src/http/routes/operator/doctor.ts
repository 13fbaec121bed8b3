import { ownLockStatus, runDoctor } from '../../../domain/operators/doctor.ts';
import { DoctorReportSchema } from '../../../contract/operator.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { operatorErrors, operatorSchema } from './common.ts';

export const doctorRoute = {
  method: 'GET',
  url: '/operator/doctor',
  schema: {
    ...operatorSchema(),
    summary: "Check the data's invariants (balances, charges, stuck requests, queue, lock); ok=false on a breach.",
    response: { 200: json('The findings.', DoctorReportSchema), ...operatorErrors() },
  },
} as const;

export async function doctor(request: RequestOf<typeof doctorRoute.schema>) {
  const { db } = request.server.services;
  return runDoctor(db, { lock: ownLockStatus(db) });
}
