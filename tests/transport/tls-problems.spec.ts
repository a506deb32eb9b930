// A refused certificate, or TLS spoken to a plain HTTP server, is named for what the user can do
// about it; other connection failures keep Node's own words. The whole runs that meet these are in tests/suite/tls-target.spec.ts.
import { test, expect } from '@playwright/test';
import { tlsProblem } from '../../core/transport/tls-problems.ts';

test('each kind of refused certificate, and TLS to a plain HTTP server, says what to do; other connection failures are not taken for one', () => {
  for (const code of [
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  ]) {
    expect(tlsProblem(code), code).toMatch(/not signed by an authority this machine trusts; .*set NODE_EXTRA_CA_CERTS/);
  }
  for (const code of ['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']) expect(tlsProblem(code), code).toMatch(/for another host name/);
  expect(tlsProblem('CERT_HAS_EXPIRED')).toMatch(/has expired \(by this machine's clock\)/);
  expect(tlsProblem('CERT_NOT_YET_VALID')).toMatch(/not valid yet \(by this machine's clock\)/);
  expect(tlsProblem('CERT_REVOKED')).toBe("the target's TLS certificate was refused");
  expect(tlsProblem('ERR_SSL_WRONG_VERSION_NUMBER')).toMatch(
    /does not speak TLS at this address; if it serves plain HTTP, give its address as http:\/\//,
  );
  expect(tlsProblem('EPROTO', 'write EPROTO 80AC:error:0A00010B:SSL routines:ssl3_get_record:wrong version number')).toMatch(
    /does not speak TLS/,
  );
  expect(tlsProblem('EPROTO', 'write EPROTO 80AC:error:0A000410:SSL routines::sslv3 alert handshake failure')).toBeUndefined();
  for (const code of [undefined, 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT'])
    expect(tlsProblem(code), String(code)).toBeUndefined();
});
