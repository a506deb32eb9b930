import { test, requirementOn } from '../../fixtures/index.ts';
import { errorCode, errorStatus } from '../../core/checks/errors.ts';
import { READ_OPERATIONS } from './read-operations.ts';

for (const { operation, label, send } of READ_OPERATIONS) {
  test(
    `AUTH-EMPTY-KEY ${label} without an apikey header answers AUTH_ERR_EMPTY_APIKEY`,
    requirementOn(operation, 'AUTH-EMPTY-KEY'),
    async ({ api, verdict, targetSample }) => {
      const exchange = await send(api, targetSample, { apiKey: null });

      verdict.enforce([
        ...errorCode(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'AUTH-EMPTY-KEY'),
        ...errorStatus(exchange, 'AUTH_ERR_EMPTY_APIKEY', 'a request without a key'),
      ]);
    },
  );
}
