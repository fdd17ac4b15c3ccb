// /api/auth/*: Better Auth answers (server/auth/better-auth.ts), made on the first request so its
// settings are read then, not when the route module loads.
import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '../../auth/better-auth';

const handle = (request: Request) => getAuth().handler(request);

export const authHandler = toNextJsHandler(handle);
