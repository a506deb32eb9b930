import { test, requirementOn } from '../../fixtures/index.ts';
import { errorCode, errorStatus } from '../../core/checks/errors.ts';
import { secretPlaceholders } from '../../core/transport/transport.ts';
import { apiKeyLike } from '../../core/arbitraries/identifiers.ts';
import { READ_OPERATIONS } from './read-operations.ts';

for (const { operation, label, send } of READ_OPERATIONS) {
  test(
    `AUTH-INVALID-KEY for any key that is not valid, ${label} answers AUTH_ERR_APIKEY_NOT_FOUND`,
    requirementOn(operation, 'AUTH-INVALID-KEY'),
    async ({ api, verdict, property, suiteConfig, targetSample }) => {
      await property(apiKeyLike(secretPlaceholders(suiteConfig)), async (key) => {
        const exchange = await send(api, targetSample, { apiKey: key.value });
        verdict.enforce([
          ...errorCode(exchange, 'AUTH_ERR_APIKEY_NOT_FOUND', 'AUTH-INVALID-KEY'),
          ...errorStatus(exchange, 'AUTH_ERR_APIKEY_NOT_FOUND', 'an unknown key'),
        ]);
      });
    },
  );
}
