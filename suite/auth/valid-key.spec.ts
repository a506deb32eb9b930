import { test, requirementOn, sampledCalls } from '../../fixtures/index.ts';
import { successStatus } from '../../core/checks/errors.ts';
import { headerNameCasing } from '../../core/arbitraries/identifiers.ts';
import { READ_OPERATIONS } from './read-operations.ts';

for (const { operation, label, send } of READ_OPERATIONS) {
  test(
    `AUTH-APIKEY-HEADER ${label} with the key in the apikey header is accepted`,
    requirementOn(operation, 'AUTH-APIKEY-HEADER'),
    async ({ api, verdict, targetSample }) => {
      // Acceptance shows on Get Call only for a call that exists: without one, it is not judged.
      if (operation === 'getCall') sampledCalls(targetSample);
      const exchange = await send(api, targetSample, {});

      verdict.enforce(successStatus(exchange, 'AUTH-APIKEY-HEADER', `${label} with a valid key`));
    },
  );

  test(
    `AUTH-HEADER-NAME-CASE-INSENSITIVE for any letter case of the header name, ${label} accepts the key`,
    requirementOn(operation, 'AUTH-HEADER-NAME-CASE-INSENSITIVE'),
    async ({ api, verdict, property, targetSample }) => {
      if (operation === 'getCall') sampledCalls(targetSample);
      await property(headerNameCasing(), async (name) => {
        const exchange = await send(api, targetSample, { apiKeyHeader: name });
        verdict.enforce(successStatus(exchange, 'AUTH-HEADER-NAME-CASE-INSENSITIVE', `${label} with the key under the header ${name}`));
      });
    },
  );
}
