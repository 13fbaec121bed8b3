// The credit statement (ledger pages, CSV export), the balance over time and the low-balance alert
// with its events (docs/credits.md); one operation per file in credits/ (small groups together).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ledgerCsv, ledgerCsvRoute, ledgerPage, ledgerPageRoute } from './credits/ledger.ts';
import { balanceHistory, balanceHistoryRoute } from './credits/balance-history.ts';
import { getAlerts, getAlertsRoute, listEvents, listEventsRoute, setAlerts, setAlertsRoute } from './credits/alerts.ts';

export const creditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...ledgerPageRoute, handler: ledgerPage });
  app.route({ ...ledgerCsvRoute, handler: ledgerCsv });
  app.route({ ...balanceHistoryRoute, handler: balanceHistory });
  app.route({ ...getAlertsRoute, handler: getAlerts });
  app.route({ ...setAlertsRoute, handler: setAlerts });
  app.route({ ...listEventsRoute, handler: listEvents });
};
