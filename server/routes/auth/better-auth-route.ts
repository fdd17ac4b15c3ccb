// /api/auth/*: Better Auth answers (server/auth/better-auth.ts), made on the first request so its
// settings are read then, not when the route module loads.
import { toNextJsHandler } from 'better-auth/next-js';
import { accountsAvailable, getAuth } from '../../auth/better-auth';
import { errorResponse, HttpError } from '../../http/errors';

const handle = async (request: Request): Promise<Response> =>
  accountsAvailable()
    ? getAuth().handler(request)
    : errorResponse(
        new HttpError('accounts_unavailable', 'Accounts need a secret on a production server: set BETTER_AUTH_SECRET (or STACKBONE_SECRET).'),
        'accounts',
      );

export const authHandler = toNextJsHandler(handle);
