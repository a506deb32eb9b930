// Malformed List Calls parameters and odd session ids are the client's mistakes: never a 5xx.
import fc from 'fast-check';
import { test, requirementOn } from '../../fixtures/index.ts';
import { noServerError } from '../../core/checks/errors.ts';
import { FILTER_NAMES } from '../../core/checks/filters.ts';

const oddValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.constantFrom('', '-1', '1.5', '1e9', 'NaN', 'true', 'null', '[]', '99999999999999999999', '%00', ' audio'),
);

test(
  'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT for any malformed List Calls parameter, the answer is never a 5xx',
  requirementOn('listCalls', 'ERROR-NO-SERVER-ERROR-ON-CLIENT-INPUT'),
  async ({ api, verdict, property }) => {
    const query = fc.dictionary(fc.constantFrom(...FILTER_NAMES, 'page', 'perPage'), oddValue, { minKeys: 1, maxKeys: 3 });

    await property(query, async (parameters) => {
      const exchange = await api.listCalls(parameters);
      verdict.enforce(noServerError(exchange, `GET /calls?${new URLSearchParams(parameters)}`));
    });
  },
);
